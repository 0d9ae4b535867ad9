// Every head at once: for a per-head query × key stage (scores, scaled, masked, exp, weights) of a
// multi-head trace, one small heatmap per head side by side, on one shared colour scale with one
// legend. Each carries data-head (1-based); a click opens that head in the detailed view below.
// Each small multiple is a canvas: 64 heads of 32 × 32 cells as SVG rects were 65,536 DOM nodes, a
// second of the main thread for one redraw.
import { css, gradient, signedColor, weightColor } from './colors.js';
import { h } from './dom.js';
import { cell } from './format.js';

const CELL = 9; // px per cell of a small multiple
const MAX_CELLS = 32; // rows or columns drawn per small multiple

/** Whether a stage gets the grid: per head, query × key, and more than one head. */
export function showsHeadsGrid(ctx, id) {
  const info = ctx.info.get(id);
  return ctx.heads > 1 && info.per_head && info.rows === 'query' && info.cols === 'key';
}

export function headsGrid(el, ctx, stage, current, w) {
  const [heads, rows, cols] = stage.shape;
  const r = Math.min(rows, MAX_CELLS), c = Math.min(cols, MAX_CELLS);
  const weights = stage.id === 'weights';
  let scale = 0;
  for (const v of stage.data) if (Number.isFinite(v) && Math.abs(v) < 1e8) scale = Math.max(scale, Math.abs(v));
  const color = (v) => {
    if (!Number.isFinite(v) || Math.abs(v) >= 1e8) return [110, 118, 129]; // masked (mask_value)
    return weights ? weightColor(scale > 0 ? v / scale : 0) : signedColor(scale > 0 ? v / scale : 0);
  };
  const minis = Array.from({ length: heads }, (_, hh) => {
    const picture = h('canvas', { width: c * CELL, height: r * CELL, className: 'mini-picture', attrs: { 'aria-hidden': 'true' }, dataset: { rows: String(r), cols: String(c) } });
    const g = picture.getContext('2d');
    for (let i = 0; i < r; i++) {
      for (let j = 0; j < c; j++) {
        g.fillStyle = css(color(stage.data[(hh * rows + i) * cols + j]));
        g.fillRect(j * CELL, i * CELL, CELL - 1, CELL - 1);
      }
    }
    return h('button', {
      type: 'button', className: 'mini', dataset: { head: String(hh + 1) },
      attrs: { 'aria-pressed': String(hh === current), 'aria-label': `${w.head} ${hh + 1}` },
      on: { click: () => el.store.set({ head: hh }) },
    }, h('span', { className: 'mini-label', text: `${w.head} ${hh + 1}` }), picture);
  });
  const lo = weights ? 0 : -scale;
  return h('div', { className: 'heads-grid', attrs: { role: 'group', 'aria-label': w.everyHead } },
    h('div', { className: 'minis' }, minis),
    h('div', { className: 'legend', attrs: { 'aria-hidden': 'true' } },
      h('span', { text: cell(lo) }), h('span', { className: 'bar', style: `background:${gradient(weights ? 'weights' : 'signed')}` }), h('span', { text: cell(scale) })));
}
