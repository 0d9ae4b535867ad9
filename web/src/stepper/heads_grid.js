// Every head at once: for a per-head query × key stage (scores, scaled, masked, exp, weights) of a
// multi-head trace, one small heatmap per head side by side, on one shared colour scale with one
// legend. Each carries data-head (1-based); a click opens that head in the detailed view below.
// Each small multiple is a canvas of one pixel a cell, scaled up by CSS: 64 heads of 32 × 32 cells as
// SVG rects were 65,536 DOM nodes, a second of the main thread for one redraw.
import { colorAt, gradient, MASKED, scalePosition, scaleRange } from './colors.js';
import { h } from './dom.js';
import { inPieces, nowAndLater } from './later.js';
import { cell } from './format.js';

const CELL = 9; // px per cell of a small multiple (fewer for many heads: 64 of 288 px filled four screens)
const MAX_CELLS = 32; // rows or columns drawn per small multiple
const PER_PIECE = 4; // small multiples painted in one task (64 heads: sixteen tasks)

/** Whether a stage gets the grid: per head, query × key, and more than one head. */
export function showsHeadsGrid(ctx, id) {
  const info = ctx.info.get(id);
  return ctx.heads > 1 && info.per_head && info.rows === 'query' && info.cols === 'key';
}

/** A scale's colours at LEVELS positions along its bar, made once: one small multiple is 1,024 cells. */
const LEVELS = 1024;
const tables = new Map();
function colourTable(kind) {
  const bar = kind === 'signed' ? 'signed' : 'sequential';
  if (!tables.has(bar)) {
    const table = new Uint8ClampedArray(LEVELS * 3);
    for (let k = 0; k < LEVELS; k++) table.set(colorAt(kind, k / (LEVELS - 1)), 3 * k);
    tables.set(bar, table);
  }
  return tables.get(bar);
}

export function headsGrid(area, ctx, stage, current, w) {
  const [heads, rows, cols] = stage.shape;
  const r = Math.min(rows, MAX_CELLS), c = Math.min(cols, MAX_CELLS);
  const px = heads > 16 ? 3 : heads > 4 ? 6 : CELL;
  const kind = stage.scale; // one range for every head: heads side by side are compared
  let scale = 0;
  for (const v of stage.data) if (Number.isFinite(v) && Math.abs(v) < 1e8) scale = Math.max(scale, Math.abs(v));
  const table = colourTable(kind);
  const paint = (hh, picture) => {
    const image = new ImageData(c, r);
    const rgba = image.data;
    for (let i = 0; i < r; i++) {
      for (let j = 0; j < c; j++) {
        const v = stage.data[(hh * rows + i) * cols + j];
        const at = 4 * (i * c + j);
        let from = -1; // masked (mask_value): grey
        if (Number.isFinite(v) && Math.abs(v) < 1e8) {
          from = 3 * Math.round(scalePosition(kind, v, scale) * (LEVELS - 1));
        }
        rgba[at] = from < 0 ? MASKED[0] : table[from];
        rgba[at + 1] = from < 0 ? MASKED[1] : table[from + 1];
        rgba[at + 2] = from < 0 ? MASKED[2] : table[from + 2];
        rgba[at + 3] = 255;
      }
    }
    picture.getContext('2d').putImageData(image, 0, 0);
  };
  const pictures = [];
  const minis = Array.from({ length: heads }, (_, hh) => {
    // one pixel a cell, drawn px wide by CSS without smoothing; its size is set now, its pixels later
    const picture = h('canvas', {
      width: c, height: r, className: 'mini-picture', style: `width:${c * px}px;height:${r * px}px`,
      attrs: { 'aria-hidden': 'true' }, dataset: { rows: String(r), cols: String(c) },
    });
    pictures.push(picture);
    return h('button', {
      type: 'button', className: 'mini', dataset: { head: String(hh + 1) },
      attrs: { 'aria-pressed': String(hh === current), 'aria-label': `${w.head} ${hh + 1}` },
      on: { click: () => area.store.set({ head: hh }) },
    }, h('span', { className: 'mini-label', text: `${w.head} ${hh + 1}` }), picture);
  });
  // the first heads now, the rest PER_PIECE heads a task after the frame
  nowAndLater(heads, PER_PIECE, (from, to) => pictures.slice(from, to).forEach((p, k) => paint(from + k, p)), (jobs) => inPieces(area, jobs));
  const [lo, hi] = scaleRange(kind, scale);
  return h('div', { className: 'heads-grid', attrs: { role: 'group', 'aria-label': w.everyHead } },
    h('div', { className: 'minis' }, minis),
    h('div', { className: 'legend', attrs: { 'aria-hidden': 'true' } },
      h('span', { text: cell(lo) }), h('span', { className: 'bar', style: `background:${gradient(kind)}` }), h('span', { text: cell(hi) })));
}

/** Marks the shown head among the grid's small multiples (a head switch redraws nothing else of the grid). */
export function markHead(grid, current) {
  grid.querySelectorAll('.mini').forEach((b, k) => b.setAttribute('aria-pressed', String(k === current)));
}
