// The loss per step: one line per run, steps on x (linear), loss on a log scale (the interesting part
// of a training curve spans orders of magnitude). Redrawn each frame from the runs' losses, which
// are the core's (trainer.step returns them).
import { svg } from '../stepper/dom.js';

const W = 600, H = 200, L = 52, R = 12, T = 10, B = 32;
const FLOOR = 1e-9; // a loss of exactly 0 (or below float's reach) sits on the floor of the chart

/**
 * @param {{label: string, color: string, dash?: string, losses: number[]}[]} series
 * @param {number} maxStep the x axis's right end (the lesson's step target)
 * @param {{title: string, step: string, loss: string}} words
 */
export function lossChart(series, maxStep, words) {
  const logs = series.flatMap((s) => s.losses.map((v) => Math.log10(Math.max(v, FLOOR))));
  const y0 = logs.length ? Math.floor(Math.min(...logs)) : -3;
  const y1 = logs.length ? Math.max(y0 + 1, Math.ceil(Math.max(...logs))) : 0;
  const px = (step) => L + (step / Math.max(1, maxStep)) * (W - L - R);
  const py = (v) => H - B - ((Math.log10(Math.max(v, FLOOR)) - y0) / (y1 - y0)) * (H - B - T);
  const g = svg('svg', { viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': words.title, class: 'loss-chart' });
  const every = Math.ceil((y1 - y0) / 6); // at most about six gridlines
  for (let y = y0; y <= y1; y += every) {
    g.append(svg('line', { x1: L, x2: W - R, y1: py(10 ** y), y2: py(10 ** y), stroke: '#e1e4e8' }));
    g.append(svg('text', { x: L - 6, y: py(10 ** y) + 4, 'text-anchor': 'end', 'font-size': 12, fill: '#57606a' }, `1e${y}`));
  }
  for (let k = 0; k <= 4; k++) {
    const step = Math.round((maxStep * k) / 4);
    g.append(svg('text', { x: px(step), y: H - B + 15, 'text-anchor': 'middle', 'font-size': 12, fill: '#57606a' }, String(step)));
  }
  g.append(svg('text', { x: (L + W) / 2, y: H - 3, 'text-anchor': 'middle', 'font-size': 12, fill: '#57606a' }, words.step));
  g.append(svg('text', { x: 12, y: (T + H - B) / 2, 'text-anchor': 'middle', 'font-size': 12, fill: '#57606a', transform: `rotate(-90 12 ${(T + H - B) / 2})` }, words.loss));
  series.forEach((s, k) => {
    // one point per step: a polyline of a few hundred points is cheap to redraw every frame
    const points = s.losses.map((v, i) => `${px(i + 1).toFixed(1)},${py(v).toFixed(1)}`).join(' ');
    g.append(svg('polyline', { points, fill: 'none', stroke: s.color, 'stroke-width': 2, 'stroke-dasharray': s.dash ?? '', class: 'loss-line', 'data-run': String(k) }));
    const y = T + 10 + 15 * k;
    g.append(svg('line', { x1: W - R - 190, x2: W - R - 170, y1: y, y2: y, stroke: s.color, 'stroke-width': 2, 'stroke-dasharray': s.dash ?? '' }));
    g.append(svg('text', { x: W - R - 165, y: y + 4, 'font-size': 12, fill: '#1b1f24' }, s.label));
  });
  return g;
}
