// One matrix as a labelled grid: token labels on both axes, a heat colour and the value in
// every cell, each cell hoverable and focusable. Used for operands and results alike.
import { cell } from './format.js';
import { css, gradient, inkFor, KEPT, MASKED, signedColor, weightColor } from './colors.js';
import { h } from './dom.js';

export const MAX_SHOWN = 48; // rows or columns beyond this are summarised, not drawn

/** A cell's colour: binary masks kept/masked, weights on viridis, signed values diverging around 0. */
function heat(v, scale, kind) {
  if (!Number.isFinite(v)) return [221, 221, 221];
  if (kind === 'binary') return v ? KEPT : MASKED;
  if (kind === 'weights') return weightColor(scale > 0 ? v / scale : 0);
  return signedColor(scale > 0 ? v / scale : 0);
}

/** The colour bar under a heatmap, with the range it maps (weights: 0 … the largest; values: ±the largest |v|). */
function legend(kind, scale, words) {
  if (kind === 'binary') {
    const swatch = (rgb, label, extra = '') => h('span', { className: 'swatch-item' },
      h('span', { className: `swatch${extra}`, style: `background:${css(rgb)}` }), label);
    return h('div', { className: 'legend', attrs: { 'aria-hidden': 'true' } }, swatch(KEPT, words.kept), swatch(MASKED, words.maskedKey, ' masked'));
  }
  const lo = kind === 'weights' ? 0 : -scale;
  return h('div', { className: 'legend', attrs: { 'aria-hidden': 'true' } },
    h('span', { text: cell(lo) }), h('span', { className: 'bar', style: `background:${gradient(kind)}` }), h('span', { text: cell(scale) }));
}

/** The largest |value| among the drawn, unmasked cells: what the colour scale spans. */
export function scaleOf(m, rows, cols) {
  let scale = 0;
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < cols; j++) {
      const v = m.value(i, j);
      if (Number.isFinite(v) && !(m.maskOf && !m.maskOf(i, j))) scale = Math.max(scale, Math.abs(v));
    }
  }
  return scale;
}

/** The colour scale a matrix uses: binary (a mask), weights, or signed values. */
export const kindOf = (m) => (m.binary ? 'binary' : m.heat);

/** How cell (i, j) of m is drawn, on the page and in an exported figure: value, text, background, ink. */
export function cellLook(m, i, j, scale, kind) {
  const v = m.value(i, j);
  const masked = !!(m.maskOf && !m.maskOf(i, j));
  const bg = masked ? MASKED : heat(v, scale, kind);
  return { v, masked, bg, ink: inkFor(bg), text: cell(v) };
}

/** A cell's text, value, colour and ink (the class names say masked and head bands). */
function paint(td, m, i, j, scale, kind) {
  const { v, masked, bg, ink, text } = cellLook(m, i, j, scale, kind);
  td.className = `cell${masked ? ' masked' : ''}${m.bands && Math.floor(j / m.bands) % 2 ? ' band' : ''}`;
  td.dataset.value = String(v);
  td.style.cssText = `background:${css(bg)};color:${ink}`;
  td.textContent = text;
}

/**
 * Renders a matrix descriptor from steps.js.
 * @param {object} m descriptor: key, label, rows, cols, value(i, j), rowLabels, colLabels, role, …
 * @param {{words: object}} options
 * @returns {{el: HTMLElement, cells: HTMLElement[][], m: object}}
 */
export function renderMatrix(m, options) {
  const rows = Math.min(m.rows, MAX_SHOWN);
  const cols = Math.min(m.cols, MAX_SHOWN);
  const rowLabels = m.rowLabels ?? Array.from({ length: m.rows }, (_, i) => String(i + 1));
  const colLabels = m.colLabels ?? Array.from({ length: m.cols }, (_, j) => String(j + 1));
  const scale = scaleOf(m, rows, cols);
  const kind = kindOf(m);
  // the corner names the two axes for assistive technology ("rows \ columns")
  const head = h('tr', {}, h('th', { attrs: { scope: 'col' }, className: 'corner' }, h('span', { className: 'sr-only', text: `${m.label}: rows \\ columns` })),
    colLabels.slice(0, cols).map((l) => h('th', { attrs: { scope: 'col' }, className: 'col', text: l })));
  const cells = [];
  const body = h('tbody');
  for (let i = 0; i < rows; i++) {
    const tr = h('tr', {}, h('th', { attrs: { scope: 'row' }, className: 'row', text: rowLabels[i] ?? '' }));
    const line = [];
    for (let j = 0; j < cols; j++) {
      const td = h('td', { attrs: { tabindex: '-1', role: 'gridcell' }, dataset: { key: m.key, i: String(i), j: String(j) } });
      paint(td, m, i, j, scale, kind);
      line.push(td);
      tr.append(td);
    }
    cells.push(line);
    body.append(tr);
  }
  const size = `${m.rows} × ${m.cols}`;
  const note = m.rows > rows || m.cols > cols ? options.words.truncated(rows, cols) : null;
  const key = legend(kind, scale, options.words);
  const el = h('figure', {
    className: `matrix role-${m.role}`,
    dataset: { key: m.key },
  },
  h('figcaption', {}, h('span', { className: 'label', text: m.label }), h('span', { className: 'size', text: ` ${size}` }), note && h('span', { className: 'note', text: ` (${note})` })),
  h('table', { attrs: { role: 'grid', 'aria-label': `${m.label} ${size}` } }, h('thead', {}, head), body),
  key);
  return { el, cells, m, legend: key };
}

/**
 * Puts new values into a drawn matrix of the same shape and labels (after an edit): cheaper than
 * drawing it again, and focus, scroll and hover stay where they were.
 */
export function updateMatrix(view, m, options) {
  const rows = view.cells.length, cols = view.cells[0]?.length ?? 0;
  const scale = scaleOf(m, rows, cols);
  const kind = kindOf(m);
  view.cells.forEach((line, i) => line.forEach((td, j) => paint(td, m, i, j, scale, kind)));
  const key = legend(kind, scale, options.words);
  view.legend.replaceWith(key);
  view.legend = key;
  view.m = m;
}
