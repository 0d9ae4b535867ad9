// One matrix as a labelled grid: token labels on both axes, a heat colour and the value in
// every cell, each cell hoverable and focusable. Used for operands and results alike.
import { cell } from './format.js';
import { h } from './dom.js';

export const MAX_SHOWN = 48; // rows or columns beyond this are summarised, not drawn

/** Background colour of a value: sequential for weights (0…1), diverging around 0 otherwise. */
function heat(v, scale, kind) {
  if (!Number.isFinite(v)) return '#ddd';
  if (kind === 'binary') return v ? '#dcf2e0' : '#9a9a9a'; // kept: pale green; masked: grey
  if (kind === 'weights') {
    const t = Math.max(0, Math.min(1, v));
    // from pale yellow-green to deep blue-purple, like viridis reversed in lightness
    const r = Math.round(253 - 185 * t), g = Math.round(231 - 180 * t), b = Math.round(37 + 113 * t);
    return `rgb(${r},${g},${b})`;
  }
  const t = scale > 0 ? Math.max(-1, Math.min(1, v / scale)) : 0;
  const light = Math.round(255 - 150 * Math.abs(t));
  const deep = Math.max(0, light - 10);
  return t >= 0 ? `rgb(255,${light},${deep})` : `rgb(${deep},${light},255)`;
}

function ink(bg) {
  const [r, g, b] = bg.match(/\d+/g).map(Number);
  return 0.299 * r + 0.587 * g + 0.114 * b < 140 ? '#fff' : '#111';
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
  let scale = 0;
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < cols; j++) {
      const v = m.value(i, j);
      if (Number.isFinite(v) && !(m.maskOf && !m.maskOf(i, j))) scale = Math.max(scale, Math.abs(v));
    }
  }
  const kind = m.binary ? 'binary' : m.heat;
  const head = h('tr', {}, h('th', { attrs: { scope: 'col' } }),
    colLabels.slice(0, cols).map((l) => h('th', { attrs: { scope: 'col' }, className: 'col', text: l })));
  const cells = [];
  const body = h('tbody');
  for (let i = 0; i < rows; i++) {
    const tr = h('tr', {}, h('th', { attrs: { scope: 'row' }, className: 'row', text: rowLabels[i] ?? '' }));
    const line = [];
    for (let j = 0; j < cols; j++) {
      const v = m.value(i, j);
      const masked = m.maskOf && !m.maskOf(i, j);
      const bg = masked ? '#9a9a9a' : heat(v, scale, kind);
      const td = h('td', {
        className: `cell${masked ? ' masked' : ''}${m.bands && Math.floor(j / m.bands) % 2 ? ' band' : ''}`,
        attrs: { tabindex: '-1', role: 'gridcell' },
        dataset: { key: m.key, i: String(i), j: String(j), value: String(v) },
        style: `background:${bg};color:${ink(bg)}`,
        text: cell(v),
      });
      line.push(td);
      tr.append(td);
    }
    cells.push(line);
    body.append(tr);
  }
  const size = `${m.rows} × ${m.cols}`;
  const note = m.rows > rows || m.cols > cols ? options.words.truncated(rows, cols) : null;
  const el = h('figure', {
    className: `matrix role-${m.role}`,
    dataset: { key: m.key },
  },
  h('figcaption', {}, h('span', { className: 'label', text: m.label }), h('span', { className: 'size', text: ` ${size}` }), note && h('span', { className: 'note', text: ` (${note})` })),
  h('table', { attrs: { role: 'grid', 'aria-label': `${m.label} ${size}` } }, h('thead', {}, head), body));
  return { el, cells, m };
}
