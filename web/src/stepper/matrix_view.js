// One matrix as a labelled grid: token labels on both axes, a heat colour and the value in
// every cell, each cell hoverable and focusable. Used for operands and results alike.
import { cell } from './format.js';
import { css, gradient, inkFor, KEPT, MASKED, scaleColor, scaleRange } from './colors.js';
import { h } from './dom.js';
import { nowAndLater } from './later.js';
import { cueOverflow } from './scroll_cue.js';

export const MAX_SHOWN = 48; // rows or columns beyond this are summarised, not drawn
/** Cells one matrix draws at most: a 64 × 64 stage shows 32 × 32, as a 48 × 48 table took a frame's 100 ms to lay out. */
export const MAX_CELLS = 1024;

/** The rows and columns of a rows × cols matrix that are drawn (the first ones): {rows, cols}. */
export function shownSize(rows, cols) {
  let r = Math.min(rows, MAX_SHOWN), c = Math.min(cols, MAX_SHOWN);
  if (r * c > MAX_CELLS) {
    const side = Math.sqrt(MAX_CELLS);
    if (r >= side && c >= side) r = c = side;
    else if (r < side) c = Math.floor(MAX_CELLS / r);
    else r = Math.floor(MAX_CELLS / c);
  }
  return { rows: r, cols: c };
}

/** A cell's colour: binary masks kept/masked, else the stage's scale (colors.js). */
function heat(v, scale, kind) {
  if (!Number.isFinite(v)) return [221, 221, 221];
  if (kind === 'binary') return v ? KEPT : MASKED;
  return scaleColor(kind, v, scale);
}

/** The colour bar under a heatmap, with the range it maps (never negative: 0 … the largest or a fixed top; signed: ±the largest |v|). */
function legend(kind, scale, words) {
  if (kind === 'binary') {
    const swatch = (rgb, label, extra = '') => h('span', { className: 'swatch-item' },
      h('span', { className: `swatch${extra}`, style: `background:${css(rgb)}` }), label);
    return h('div', { className: 'legend', attrs: { 'aria-hidden': 'true' } }, swatch(KEPT, words.kept), swatch(MASKED, words.maskedKey, ' masked'));
  }
  const [lo, hi] = scaleRange(kind, scale);
  return h('div', { className: 'legend', attrs: { 'aria-hidden': 'true' } },
    h('span', { text: cell(lo) }), h('span', { className: 'bar', style: `background:${gradient(kind)}` }), h('span', { text: cell(hi) }));
}

/** The largest |value| among the drawn, unmasked cells: what the colour scale spans. */
export function scaleOf(m, rows, cols) {
  if (m.top !== undefined) return m.top; // a range shared with the matrices it is compared with
  let scale = 0;
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < cols; j++) {
      const v = m.value(i, j);
      if (Number.isFinite(v) && !(m.maskOf && !m.maskOf(i, j))) scale = Math.max(scale, Math.abs(v));
    }
  }
  return scale;
}

/** The colour scale a matrix uses: binary (a mask), else its stage's (signed for the spec's own matrices). */
export const kindOf = (m) => (m.binary ? 'binary' : m.heat ?? 'signed');

/** How cell (i, j) of m is drawn, on the page and in an exported figure: value, text, background, ink. */
export function cellLook(m, i, j, scale, kind) {
  const v = m.value(i, j);
  const masked = !!(m.maskOf && !m.maskOf(i, j));
  const bg = masked ? MASKED : heat(v, scale, kind);
  return { v, masked, bg, ink: inkFor(bg), text: cell(v) };
}

/** A cell's inline style for its background, with its ink: made once per colour (the scales have few). */
const styles = new Map();
function styleOf(bg) {
  const key = (bg[0] << 16) | (bg[1] << 8) | bg[2];
  let style = styles.get(key);
  if (style === undefined) styles.set(key, (style = `background:${css(bg)};color:${inkFor(bg)}`));
  return style;
}

/**
 * A cell's text, value, colour and ink (the class names say masked and head bands). Only what changed is
 * written: another head of a 64 × 64 stage repaints thousands of cells, and every DOM write costs.
 */
function paint(td, m, i, j, scale, kind) {
  const v = m.value(i, j);
  const masked = !!(m.maskOf && !m.maskOf(i, j));
  const className = `cell${masked ? ' masked' : ''}${m.bands && Math.floor(j / m.bands) % 2 ? ' band' : ''}`;
  const style = styleOf(masked ? MASKED : heat(v, scale, kind));
  const text = cell(v);
  const was = td.look;
  if (was?.className !== className) td.className = className;
  if (!Object.is(was?.v, v)) td.dataset.value = String(v);
  if (was?.style !== style) td.style.cssText = style;
  if (was?.text !== text) td.textContent = text;
  td.look = { className, v, style, text };
}

/** Cells a matrix draws in one task when it may draw in pieces: the rest a row piece a task after the frame. */
const PIECE_CELLS = 192;

/**
 * Runs rows(from, to) over rows 0 … count of a matrix cols wide: all at once, or with options.inPieces the
 * first PIECE_CELLS' worth now and the others a piece a task, options.drew() after each later piece.
 */
function rowsInPieces(count, cols, options, rows) {
  const per = options.inPieces ? Math.max(1, Math.floor(PIECE_CELLS / Math.max(1, cols))) : count;
  nowAndLater(count, per, rows, (jobs) => options.inPieces(jobs.map((job) => () => {
    job();
    options.drew?.();
  })));
}

/**
 * Renders a matrix descriptor from steps.js.
 * @param {object} m descriptor: key, label, rows, cols, value(i, j), rowLabels, colLabels, role, …
 * @param {{words: object, inPieces?: (jobs: Function[]) => void, drew?: () => void}} options inPieces: runs
 *   jobs a task each (later.js), and then a large matrix draws its first rows now and the others so;
 *   drew() is called after each later piece
 * @returns {{el: HTMLElement, cells: HTMLElement[][], m: object}}
 */
export function renderMatrix(m, options) {
  const { rows, cols } = shownSize(m.rows, m.cols);
  const rowLabels = m.rowLabels ?? Array.from({ length: m.rows }, (_, i) => String(i + 1));
  const colLabels = m.colLabels ?? Array.from({ length: m.cols }, (_, j) => String(j + 1));
  const kind = kindOf(m);
  // the corner names the two axes for assistive technology ("rows \ columns")
  const head = h('tr', {}, h('th', { attrs: { scope: 'col' }, className: 'corner' }, h('span', { className: 'sr-only', text: `${m.label}: rows \\ columns` })),
    colLabels.slice(0, cols).map((l) => h('th', { attrs: { scope: 'col' }, className: 'col', text: l })));
  const cells = [];
  const body = h('tbody');
  const size = `${m.rows} × ${m.cols}`;
  const note = m.rows > rows || m.cols > cols ? options.words.truncated(rows, cols) : null;
  const view = { el: null, cells, m, legend: null, rows, cols, scale: scaleOf(m, rows, cols), kind };
  view.legend = legend(kind, view.scale, options.words);
  view.el = cueOverflow(h('figure', {
    className: `matrix role-${m.role}`,
    dataset: { key: m.key },
  },
  h('figcaption', {}, h('span', { className: 'label', text: m.label }), h('span', { className: 'size', text: ` ${size}` }), note && h('span', { className: 'note', text: ` (${note})` })),
  h('table', { attrs: { role: 'grid', 'aria-label': `${m.label} ${size}` } }, h('thead', {}, head), body),
  view.legend));
  const blank = h('td', { attrs: { tabindex: '-1', role: 'gridcell' }, dataset: { key: m.key } });
  const addRows = (from, to) => {
    for (let i = from; i < to; i++) {
      const tr = h('tr', {}, h('th', { attrs: { scope: 'row' }, className: 'row', text: rowLabels[i] ?? '' }));
      const line = [];
      for (let j = 0; j < cols; j++) {
        const td = blank.cloneNode(false); // a copy of one made cell: thousands of h() calls cost a frame
        td.dataset.i = String(i);
        td.dataset.j = String(j);
        paint(td, view.m, i, j, view.scale, view.kind); // the newest numbers, if an update came before this piece
        line.push(td);
        tr.append(td);
      }
      cells.push(line);
      body.append(tr);
    }
  };
  rowsInPieces(rows, cols, options, addRows);
  return view;
}

/**
 * Puts new values into a drawn matrix of the same shape and labels (after an edit): cheaper than
 * drawing it again, and focus, scroll and hover stay where they were.
 */
export function updateMatrix(view, m, options) {
  const scale = scaleOf(m, view.rows, view.cols);
  const kind = kindOf(m);
  Object.assign(view, { m, scale, kind }); // rows still to be drawn in pieces take these
  // the rows drawn so far (another head of a 32 × 32 stage: the first now, the others a piece a task)
  rowsInPieces(view.cells.length, view.cols, options, (from, to) => {
    for (let i = from; i < to; i++) view.cells[i].forEach((td, j) => paint(td, view.m, i, j, view.scale, view.kind));
  });
  const key = legend(kind, scale, options.words);
  view.legend.replaceWith(key);
  view.legend = key;
}
