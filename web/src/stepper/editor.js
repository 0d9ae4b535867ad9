// The edit panel: every field of the spec — inputs, weights, token labels, score function,
// mask, heads, positional encoding. Each change goes to the core through onEdit; a refusal
// comes back as the core's sentence, shown beside the field that caused it.
//
// [SECTION] scrubbing a number box
// [SECTION] fields by their paths in the core's table
// [SECTION] pasted text
// [SECTION] Editor: the panel, its grids and paste boxes
  // [SECTION] Editor.build: every field, from the tables
  // [SECTION] token labels, and values put back
import { tokensAreLabels } from './chrome.js';
import { clear, h } from './dom.js';
import { pick } from './i18n.js';

// [SECTION] scrubbing a number box

/**
 * Drag a number box sideways with the mouse to scrub its value (0.01 a pixel, 0.1 with Shift), as the
 * lab's sliders do; a press without a drag focuses the box for typing as usual. A finger pans the page
 * and types as before: scrubbing there would fight the scroll.
 */
function scrub(down, apply) {
  const input = down.currentTarget;
  if (down.pointerType !== 'mouse' || down.button !== 0 || input === input.getRootNode().activeElement) return;
  const start = Number(input.value);
  if (!Number.isFinite(start)) return;
  let dragging = false;
  const move = (e) => {
    if (e.pointerId !== down.pointerId) return;
    const dx = e.clientX - down.clientX;
    if (!dragging && Math.abs(dx) < 4) return;
    dragging = true;
    const v = Number((start + dx * (e.shiftKey ? 0.1 : 0.01)).toFixed(e.shiftKey ? 1 : 2));
    input.value = String(v);
    apply(v);
  };
  const up = (e) => {
    if (e.pointerId !== down.pointerId) return;
    for (const [type, fn] of listeners) removeEventListener(type, fn);
    if (!dragging && e.type === 'pointerup') input.focus();
  };
  const listeners = [['pointermove', move], ['pointerup', up], ['pointercancel', up]];
  down.preventDefault(); // no text selection while dragging; a plain press focuses on release
  for (const [type, fn] of listeners) addEventListener(type, fn);
}

/** Beyond this many values a matrix is edited as pasted text: a grid of 65,536 inputs would freeze the page. */
const MAX_GRID_CELLS = 400;
/** Likewise for token labels: beyond this many, one text box with a label a line. */
const MAX_TOKEN_FIELDS = 64;

// [SECTION] fields by their paths in the core's table

// Fields by their paths in the core's table (a.schema().sequence: "weights.wq", "mask.matrix"), so that a new
// matrix field in the core's table is drawn here with no line of its own
const parentOf = (path) => (path.includes('.') ? path.slice(0, path.indexOf('.')) : '');
const childOf = (path) => path.slice(path.indexOf('.') + 1);
/** The value at a path in a spec, or undefined. */
const at = (spec, path) => path.split('.').reduce((o, k) => (o && typeof o === 'object' ? o[k] : undefined), spec);
/** Whether the spec has the field (memory: null is the same as leaving it out). */
const has = (spec, path) => at(spec, path) !== undefined && at(spec, path) !== null;
/**
 * Sets the value at a path, making (or replacing a kind's name, "mask": "none", with) the object on the way;
 * undefined deletes it, and its parent with it when that is left empty ("additive": {} is refused).
 */
function put(spec, path, value) {
  const parent = parentOf(path), key = parent ? childOf(path) : path;
  if (parent && (typeof spec[parent] !== 'object' || spec[parent] === null)) {
    if (value === undefined) return;
    spec[parent] = {};
  }
  const o = parent ? spec[parent] : spec;
  if (value !== undefined) o[key] = value;
  else {
    delete o[key];
    if (parent && !Object.keys(o).length) delete spec[parent];
  }
}
/** The sizes a field's shape words name ("d_model × d_model"), as the core defines them (docs/spec.md). */
function sizesOf(spec) {
  const dModel = spec.x?.[0]?.length ?? 0, heads = Number.isSafeInteger(spec.heads) && spec.heads > 0 ? spec.heads : 1;
  const dHead = Math.max(1, Math.floor(dModel / heads));
  const kvHeads = Number.isSafeInteger(spec.kv_heads) && spec.kv_heads > 0 ? spec.kv_heads : heads;
  return { d_model: dModel, d_head: dHead, d_kv: kvHeads * dHead, d_a: Array.isArray(spec.additive?.v) ? spec.additive.v.length : dHead,
    n_q: spec.x?.length ?? 0, n_k: (spec.memory ?? spec.x)?.length ?? 0 };
}
/** A size named by one side of a shape's words: "n_q", "d_model", "at least max(n_q, n_k)". */
function sizeNamed(words, sizes) {
  const most = words.match(/max\((\w+), (\w+)\)/);
  return most ? Math.max(sizes[most[1]], sizes[most[2]]) : sizes[words.split(' ')[0]];
}
/**
 * A new field's value, the one that changes nothing, as the core's table starts it (tensor_field::start):
 * ones (a mask keeping every key), zeros (a learned table adding nothing), else the identity (a vector: ones).
 */
function fresh(field, sizes) {
  const [rows, cols] = field.shape.split(' × ').map((words) => sizeNamed(words, sizes));
  const value = (i, j) => (field.start === 'zeros' ? 0 : field.start === 'ones' || i === j ? 1 : 0);
  return field.rank === 2 ? Array.from({ length: rows }, (_, i) => Array.from({ length: cols }, (_, j) => value(i, j))) : Array(rows).fill(field.start === 'zeros' ? 0 : 1);
}
/** A field that names a kind: the kind (mask {"window": 2} is "window"). */
const kindOf = (value) => (value && typeof value === 'object' ? Object.keys(value)[0] : value);
/**
 * The kind of field `name` a matrix belongs to, or "" (none): the table's column of that name where it has one
 * (score: additive.w1 is the "additive" score's), else its path (mask.matrix is the "matrix" mask's).
 */
const kindOwning = (t, name) => (Object.prototype.hasOwnProperty.call(t, name) ? t[name] : parentOf(t.path) === name ? childOf(t.path) : '');

/** The spec's shape and kinds: when it changes, the panel is rebuilt; otherwise only values and errors move. */
function structureOf(spec, { tensors, scalars, choices }) {
  const shape = (m) => (Array.isArray(m) ? [m.length, Array.isArray(m[0]) ? m[0].length : 0] : null);
  return JSON.stringify([
    tensors.map((f) => shape(at(spec, f.path))),
    Object.keys(choices).map((c) => kindOf(spec[c])),
    // labels by their count (a renamed token keeps the panel, and the reader's place in it); numbers not at all:
    // refreshValues puts them back, so a spinner click in the window box keeps the reader's focus
    scalars.filter((f) => f.kind === 'labels').map((f) => at(spec, f.path)?.length),
  ]);
}

// [SECTION] pasted text

/** A matrix as CSV text: a row a line. */
function asCsv(matrix) {
  return matrix.map((row) => row.join(', ')).join('\n');
}

/** Rows from pasted text: JSON ([[…], …]) or CSV-like (a row a line; commas, semicolons, tabs or spaces between values). */
function parseRows(text) {
  const trimmed = text.trim();
  if (trimmed.startsWith('[')) {
    try {
      const rows = JSON.parse(trimmed);
      if (Array.isArray(rows)) return rows.map((r) => (Array.isArray(r) ? r.map(Number) : [Number(r)]));
    } catch { /* not JSON after all: read it as CSV */ }
  }
  return trimmed.split(/\r?\n/).filter((line) => line.trim()).map((line) => line.split(/[,;\s]+/).filter(Boolean).map(Number));
}

// [SECTION] Editor: the panel, its grids and paste boxes

export class Editor {
  /**
   * @param {{schema: import('../../types/index.js').SpecSchema['sequence'],
   *   onEdit: (field: string, change: (spec: object) => void) => void, onReset: () => void}} options schema: the
   *   core's field tables (a.schema().sequence): the matrices drawn, their labels, and the names of each kind
   */
  constructor(options) {
    this.options = options;
    this.el = h('section', { className: 'editor', attrs: { 'aria-label': 'editor' } });
    this.structure = '';
    this.errors = new Map(); // field -> <p role=alert>
  }

  /** Shows the spec (rebuilding only when its structure changed) and the current error. */
  update(spec, error, words) {
    this.el.setAttribute('aria-label', words.editTitle);
    const structure = structureOf(spec, this.options.schema) + words.edit;
    if (structure !== this.structure) {
      this.structure = structure;
      this.build(spec, words);
    } else {
      this.refreshValues(spec, error?.field);
    }
    for (const [field, p] of this.errors) p.textContent = error && error.field === field ? error.message : '';
    if (error && !this.errors.has(error.field)) this.errors.get('general').textContent = error.message;
  }

  field(name, label, ...controls) {
    const error = h('p', { className: 'error', attrs: { role: 'alert' }, dataset: { field: name } });
    this.errors.set(name, error);
    return h('div', { className: 'field', dataset: { field: name } }, h('span', { className: 'field-label', text: label }), ...controls, error);
  }

  edit(field, change) {
    this.options.onEdit(field, change);
  }

  /** An edit as the reader types or drags: the newest one a frame (the element keeps only the latest answer). */
  editSoon(field, change) {
    this.cancelSoon();
    this.pending = requestAnimationFrame(() => { this.pending = 0; this.edit(field, change); });
  }

  /** Drops an edit editSoon still holds: a blur or Enter in the same box sends its value now instead. */
  cancelSoon() {
    if (this.pending) cancelAnimationFrame(this.pending);
    this.pending = 0;
  }

  grid(field, label, matrix, set) {
    if (matrix.length * (matrix[0]?.length ?? 0) > MAX_GRID_CELLS) return this.pasteBox(field, label, matrix, set);
    const rows = matrix.map((row, i) =>
      h('tr', {}, row.map((v, j) => h('td', {}, h('input', {
        className: 'num', value: String(v),
        attrs: { inputmode: 'decimal', 'aria-label': `${label}[${i + 1}][${j + 1}]` },
        dataset: { field, i: String(i), j: String(j) },
        on: {
          // live: every keystroke that reads as a number goes in at the next frame; a blur or Enter sends
          // whatever is there (an empty box or "1e" gets the core's sentence)
          input: (e) => {
            const text = e.target.value.trim();
            if (text !== '' && Number.isFinite(Number(text))) this.editSoon(field, (spec) => set(spec, i, j, Number(text)));
          },
          change: (e) => {
            this.cancelSoon();
            this.edit(field, (spec) => set(spec, i, j, e.target.value.trim() === '' ? NaN : Number(e.target.value)));
          },
          pointerdown: (e) => scrub(e, (v) => this.editSoon(field, (spec) => set(spec, i, j, v))),
        },
      })))));
    return this.field(field, label, h('table', { className: 'grid' }, h('tbody', {}, rows)));
  }

  /** A large matrix as text: CSV (a row a line) or JSON, applied when the box loses focus. */
  pasteBox(field, label, matrix, set) {
    const rows = matrix.length, cols = matrix[0].length;
    const box = h('textarea', {
      className: 'paste', attrs: { 'aria-label': label, rows: '6', spellcheck: 'false' }, dataset: { field },
      on: { change: (e) => {
        // text far longer than the matrix's numbers can be is refused unread: reading 15 MB on the page's
        // thread would block it for a second (32 characters a value is room for any float and its separator)
        const most = Math.max(65536, rows * cols * 32);
        const { length } = e.target.value;
        const parsed = length > most ? null : parseRows(e.target.value);
        const problem = !parsed
          ? `the pasted text is ${(length / 2 ** 20).toFixed(1)} MiB, more than ${rows} × ${cols} values can take (${Math.ceil(most / 1024)} KiB at most): paste one number for each value.`
          : parsed.length !== rows || parsed.some((r) => r.length !== cols)
            ? `${label} needs ${rows} rows of ${cols} values; the text has ${parsed.length} rows${parsed.length ? ` (the first of ${parsed[0].length})` : ''}.`
            : null;
        this.edit(field, (spec) => {
          if (problem) throw new Error(problem);
          parsed.forEach((row, i) => row.forEach((v, j) => set(spec, i, j, v)));
        });
      } },
    });
    // its text (an 800 × 64 matrix is a megabyte of CSV) a task after the panel is drawn: both at once
    // kept the page's thread for over 100 ms
    requestAnimationFrame(() => setTimeout(() => { if (!box.value) box.value = asCsv(matrix); }, 0));
    return this.field(field, label, h('p', { className: 'hint', text: this.words.pasteHint(rows, cols) }), box);
  }

  // [SECTION] Editor.build: every field, from the tables

  build(spec, w) {
    this.words = w;
    clear(this.el);
    this.errors.clear();
    const general = h('p', { className: 'error', attrs: { role: 'alert' } });
    this.errors.set('general', general);
    const { top, tensors, scalars, choices } = this.options.schema;
    const parts = [
      h('h3', { text: w.editTitle }),
      h('button', { className: 'reset', type: 'button', text: w.reset, on: { click: () => this.options.onReset() } }),
      general,
    ];
    // the controls in the order of the spec's top-level fields: a menu for a field that names a kind (its
    // kind's number and matrices below it), an input for each number the spec has
    for (const name of top) {
      if (choices[name]) parts.push(this.choice(name, spec, w), ...this.under(name, spec));
      else {
        for (const f of scalars.filter((x) => x.kind !== 'labels' && (x.path === name || parentOf(x.path) === name))) {
          if (has(spec, f.path)) parts.push(this.field(f.path, this.label(f.path, w), this.number(f, spec)));
        }
      }
    }
    const sizes = sizesOf(spec);
    parts.push(this.tokens(spec, w, sizes.n_q, sizes.n_k), h('h4', { text: w.inputs }));
    // every other matrix and vector, in the core's table order: drawn when the spec has it; a projection
    // (d_model × d_model, or K's and V's d_model × d_kv) can be switched on (as the identity, what leaving it
    // out means, or its first d_kv columns) and off
    for (const f of tensors) {
      if (choices[parentOf(f.path)]) continue; // drawn under its menu above
      if (f.shape === 'd_model × d_model' || f.shape === 'd_model × d_kv') {
        parts.push(this.field(`use.${f.path}`, f.symbol, h('label', {}, h('input', {
          type: 'checkbox', checked: has(spec, f.path), dataset: { field: `use.${f.path}` }, attrs: { 'aria-label': w.useWeight(f.symbol) },
          on: { change: (e) => this.edit(f.path, (s) => {
            put(s, f.path, e.target.checked ? fresh(f, sizesOf(s)) : undefined);
            if (!e.target.checked) for (const b of tensors.filter((t) => t.bias_of === f.path)) put(s, b.path, undefined);
          }) },
        }), ' W')));
      }
      if (has(spec, f.path)) parts.push(this.tensor(f, spec));
    }
    for (const part of parts) if (part) this.el.append(part);
  }

  /** A field's name for the reader, from the core's table, in the page's language. */
  label(path, w) {
    return pick(this.options.schema.labels[path], w.lang) || path;
  }

  /**
   * The menu of a field that names a kind (score, mask, positional encoding) and, beside it, the number its
   * kind has of its own (a window's k). Switching kind gives the new kind its own matrices as the table starts
   * them (tensor_field::start) and its number at its start, and drops the old kind's.
   */
  choice(name, spec, w) {
    const { choices, scalars, tensors } = this.options.schema;
    const kind = kindOf(spec[name]);
    const ownNumber = (k) => scalars.find((f) => f.path === `${name}.${k}`);
    const menu = h('select', {
      dataset: { field: name }, attrs: { 'aria-label': this.label(name, w) },
      on: { change: (e) => this.edit(name, (s) => {
        const v = e.target.value, number = ownNumber(v);
        s[name] = number ? { [v]: number.start } : v;
        const sizes = sizesOf(s);
        for (const t of tensors) {
          const of = kindOwning(t, name);
          if (of) put(s, t.path, of === v ? at(s, t.path) ?? fresh(t, sizes) : undefined);
        }
      }) },
    }, choices[name].map((c) => h('option', { value: c, text: w.choices[c] ?? c, selected: c === kind })));
    const number = ownNumber(kind);
    return this.field(name, this.label(name, w), menu,
      number && h('label', {}, ` ${this.label(number.path, w)} `, this.number(number, spec, name)));
  }

  /** The matrices under a field that names a kind (mask.matrix, positional.learned) that the spec has. */
  under(name, spec) {
    return this.options.schema.tensors.filter((f) => parentOf(f.path) === name && has(spec, f.path)).map((f) => this.tensor(f, spec));
  }

  /**
   * An input for one number of the scalar table (heads, mask.window, mask_value, online_softmax.block); a
   * refusal shows under `errorField` (a kind's own number's under its menu: the field it has a line for).
   */
  number(f, spec, errorField = f.path) {
    const whole = f.kind === 'whole';
    return h('input', {
      type: whole ? 'number' : 'text', value: String(at(spec, f.path)), dataset: { field: f.path },
      attrs: { ...(whole ? { min: String(f.min), max: String(f.max) } : { inputmode: 'decimal' }), 'aria-label': this.label(f.path, this.words) },
      on: { change: (e) => this.edit(errorField, (s) => { put(s, f.path, Number(e.target.value)); }) },
    });
  }

  /** One matrix or vector field as a grid (a vector: one row), edited cell by cell. */
  tensor(f, spec) {
    const value = at(spec, f.path);
    return f.rank === 2
      ? this.grid(f.path, f.symbol, value, (s, i, j, v) => { at(s, f.path)[i][j] = v; })
      : this.grid(f.path, f.symbol, [value], (s, i, j, v) => { at(s, f.path)[j] = v; });
  }

  // [SECTION] token labels, and values put back

  tokens(spec, w, nQ, nK) {
    const list = (field, names, n, key) => (n > MAX_TOKEN_FIELDS ? this.labelBox(field, names, n, key) : h('div', { className: 'tokens' }, Array.from({ length: n }, (_, i) => h('input', {
      value: names?.[i] ?? '', attrs: { 'aria-label': `${field}[${i + 1}]` }, dataset: { field, i: String(i) },
      on: { change: (e) => this.edit(field, (s) => {
        s.tokens ??= {};
        s.tokens[key] ??= Array.from({ length: n }, (_, k) => String(k + 1));
        s.tokens[key][i] = e.target.value;
      }) },
    }))));
    return h('div', {},
      tokensAreLabels(w),
      this.field('tokens.query', this.label('tokens.query', w), list('tokens.query', spec.tokens?.query, nQ, 'query')),
      spec.memory && this.field('tokens.key', this.label('tokens.key', w), list('tokens.key', spec.tokens?.key, nK, 'key')));
  }

  /** Many token labels as text, one a line (applied when the box loses focus). */
  labelBox(field, names, n, key) {
    return h('textarea', {
      className: 'labels', value: (names ?? Array.from({ length: n }, (_, k) => String(k + 1))).join('\n'),
      attrs: { 'aria-label': field, rows: '4', spellcheck: 'false' }, dataset: { field },
      on: { change: (e) => this.edit(field, (s) => {
        s.tokens ??= {};
        s.tokens[key] = e.target.value.split(/\r?\n/);
      }) },
    });
  }

  /**
   * Puts the spec's values back into inputs that are not being typed in, nor refused: a refused paste stays
   * for the reader to mend (and writing a megabyte back into a box costs the page's thread a second).
   */
  refreshValues(spec, refused = null) {
    for (const box of this.el.querySelectorAll('textarea.paste')) {
      if (box === this.el.getRootNode().activeElement || box.dataset.field === refused) continue;
      const m = box.dataset.field.split('.').reduce((o, k) => o?.[k], spec);
      if (Array.isArray(m)) box.value = asCsv(Array.isArray(m[0]) ? m : [m]);
    }
    // the numbers of the scalar table (heads, mask.window, mask_value …): a Reset or a link can change them
    for (const { path } of this.options.schema.scalars) {
      const input = this.el.querySelector(`input[data-field="${path}"]`);
      const v = at(spec, path);
      if (input && input !== this.el.getRootNode().activeElement && typeof v === 'number' && Number(input.value) !== v) input.value = String(v);
    }
    for (const input of this.el.querySelectorAll('input.num')) {
      if (input === this.el.getRootNode().activeElement) continue;
      const { field, i, j } = input.dataset;
      const path = field.split('.');
      let m = path.reduce((o, k) => o?.[k], spec);
      if (m && !Array.isArray(m[0])) m = [m];
      const v = m?.[Number(i)]?.[Number(j)];
      if (v !== undefined && input.value !== String(v) && Number(input.value) !== v) input.value = String(v);
    }
  }
}
