// The edit panel: every field of the spec — inputs, weights, token labels, score function,
// mask, heads, positional encoding. Each change goes to the core through onEdit; a refusal
// comes back as the core's sentence, shown beside the field that caused it.
import { tokensAreLabels } from './chrome.js';
import { clear, h } from './dom.js';

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

const identity = (d) => Array.from({ length: d }, (_, i) => Array.from({ length: d }, (_, j) => (i === j ? 1 : 0)));
const filled = (r, c, v) => Array.from({ length: r }, () => Array.from({ length: c }, () => v));

/** The spec's shape and kinds: when it changes, the panel is rebuilt; otherwise only values and errors move. */
function structureOf(spec) {
  const shape = (m) => (Array.isArray(m) ? [m.length, Array.isArray(m[0]) ? m[0].length : 0] : null);
  return JSON.stringify({
    x: shape(spec.x), memory: shape(spec.memory), weights: Object.keys(spec.weights ?? {}).sort(), score: spec.score,
    additive: !!spec.additive, bilinear: !!spec.bilinear, mask: typeof spec.mask === 'object' ? Object.keys(spec.mask)[0] : spec.mask,
    positional: typeof spec.positional === 'object' ? 'learned' : spec.positional, heads: spec.heads,
    tq: spec.tokens?.query?.length, tk: spec.tokens?.key?.length,
  });
}

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

export class Editor {
  /**
   * @param {{choices: {score: string[], mask: string[], positional: string[]}, onEdit: (field: string, change: (spec: object) => void) => void,
   *   onReset: () => void}} options choices: the core's names for each kind (a.schema().sequence.choices)
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
    const structure = structureOf(spec) + words.edit;
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

  build(spec, w) {
    this.words = w;
    clear(this.el);
    this.errors.clear();
    const general = h('p', { className: 'error', attrs: { role: 'alert' } });
    this.errors.set('general', general);
    const d = spec.x[0].length;
    // the spec's own words are the values; what a reader sees is in their language
    const select = (field, value, choices, onChange) => h('select', {
      dataset: { field }, attrs: { 'aria-label': w[field] ?? field },
      on: { change: (e) => onChange(e.target.value) },
    }, choices.map((c) => h('option', { value: c, text: w.choices[c] ?? c, selected: c === value })));

    const maskKind = typeof spec.mask === 'object' ? Object.keys(spec.mask)[0] : spec.mask;
    const posKind = typeof spec.positional === 'object' ? 'learned' : spec.positional;
    const nQ = spec.x.length;
    const nK = spec.memory ? spec.memory.length : nQ;
    const parts = [
      h('h3', { text: w.editTitle }),
      h('button', { className: 'reset', type: 'button', text: w.reset, on: { click: () => this.options.onReset() } }),
      general,
      this.field('score', w.score, select('score', spec.score, this.options.choices.score, (v) => this.edit('score', (s) => {
        // each score takes only its own parameters: switching starts from identity ones and drops the others
        const dHead = Math.max(1, Math.floor(d / s.heads));
        s.score = v;
        if (v === 'additive') s.additive ??= { w1: identity(dHead), w2: identity(dHead), v: Array(dHead).fill(1) };
        else delete s.additive;
        if (v === 'bilinear') s.bilinear ??= { w: identity(dHead) };
        else delete s.bilinear;
      }))),
      this.field('heads', w.heads, h('input', {
        type: 'number', value: String(spec.heads), attrs: { min: '1', 'aria-label': w.heads }, dataset: { field: 'heads' },
        on: { change: (e) => this.edit('heads', (s) => { s.heads = Number(e.target.value); }) },
      })),
      this.field('mask', w.mask, select('mask', maskKind, this.options.choices.mask, (v) => this.edit('mask', (s) => {
        const fresh = { window: { window: 2 }, matrix: { matrix: filled(nQ, nK, 1) } }; // a new mask's starting value
        s.mask = fresh[v] ?? v;
      })), maskKind === 'window' && h('label', {}, ` ${w.window} `, h('input', {
        type: 'number', value: String(spec.mask.window), attrs: { min: '1', 'aria-label': w.window }, dataset: { field: 'mask.window' },
        on: { change: (e) => this.edit('mask', (s) => { s.mask = { window: Number(e.target.value) }; }) },
      }))),
      maskKind === 'matrix' && this.grid('mask.matrix', 'mask', spec.mask.matrix, (s, i, j, v) => { s.mask.matrix[i][j] = v; }),
      this.field('mask_value', w.maskValue, h('input', {
        value: String(spec.mask_value), attrs: { inputmode: 'decimal', 'aria-label': w.maskValue }, dataset: { field: 'mask_value' },
        on: { change: (e) => this.edit('mask_value', (s) => { s.mask_value = Number(e.target.value); }) },
      })),
      this.field('positional', w.positional, select('positional', posKind, this.options.choices.positional, (v) => this.edit('positional', (s) => {
        s.positional = v === 'learned' ? { learned: filled(Math.max(nQ, nK), d, 0) } : v;
      }))),
      posKind === 'learned' && this.grid('positional.learned', 'PE table', spec.positional.learned, (s, i, j, v) => { s.positional.learned[i][j] = v; }),
      this.tokens(spec, w, nQ, nK),
      h('h4', { text: w.inputs }),
      this.grid('x', 'X', spec.x, (s, i, j, v) => { s.x[i][j] = v; }),
      spec.memory && this.grid('memory', 'M', spec.memory, (s, i, j, v) => { s.memory[i][j] = v; }),
    ];
    for (const p of ['q', 'k', 'v', 'o']) {
      const wk = `w${p}`, bk = `b${p}`;
      const has = !!spec.weights?.[wk];
      parts.push(this.field(`weights.${wk}`, `W_${p}`, h('label', {}, h('input', {
        type: 'checkbox', checked: has, dataset: { field: `use.${wk}` }, attrs: { 'aria-label': w.useWeight(`W_${p}`) },
        on: { change: (e) => this.edit(`weights.${wk}`, (s) => {
          s.weights ??= {};
          if (e.target.checked) s.weights[wk] = identity(d);
          else { delete s.weights[wk]; if (p === 'o') delete s.weights.bo; }
        }) },
      }), ' W')));
      if (has) parts.push(this.grid(`weights.${wk}`, `W_${p}`, spec.weights[wk], (s, i, j, v) => { s.weights[wk][i][j] = v; }));
      if (spec.weights?.[bk]) parts.push(this.grid(`weights.${bk}`, `b_${p}`, [spec.weights[bk]], (s, i, j, v) => { s.weights[bk][j] = v; }));
    }
    if (spec.additive) {
      parts.push(this.grid('additive.w1', 'W1', spec.additive.w1, (s, i, j, v) => { s.additive.w1[i][j] = v; }));
      parts.push(this.grid('additive.w2', 'W2', spec.additive.w2, (s, i, j, v) => { s.additive.w2[i][j] = v; }));
      parts.push(this.grid('additive.v', 'v', [spec.additive.v], (s, i, j, v) => { s.additive.v[j] = v; }));
    }
    if (spec.bilinear) parts.push(this.grid('bilinear.w', 'W (bilinear)', spec.bilinear.w, (s, i, j, v) => { s.bilinear.w[i][j] = v; }));
    for (const part of parts) if (part) this.el.append(part);
  }

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
      this.field('tokens.query', w.queryTokens, list('tokens.query', spec.tokens?.query, nQ, 'query')),
      spec.memory && this.field('tokens.key', w.keyTokens, list('tokens.key', spec.tokens?.key, nK, 'key')));
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
