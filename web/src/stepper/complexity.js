// The complexity example's live measurement: traces of growing n through the wasm core, timed in the
// core's worker (complexity_measure.js) and drawn here against n on log–log axes, where a power law n^p
// is a straight line of slope p. Three series: the core's own compute time (trace.compute_ms:
// attention's cost), the whole a.trace() call (which also reads the spec's JSON text, linear in n, and
// copies the stages out), and the trace's memory (trace.bytes). A dotted c·n² line, fitted to the
// compute times, is the reference; the fitted exponents are quoted. Only the fit is computed here:
// every timed trace is the core's.
import { h, svg, clear } from './dom.js';

/**
 * A Measure button for long work in the core's worker (attention.long(op, args)): while it runs the button
 * shows the share done and a Cancel button stops it between samples. show(rows) draws the result.
 */
export function measureButton(attention, className, label, op, args, w, show) {
  const button = h('button', { type: 'button', className, text: label });
  const cancel = h('button', { type: 'button', className: 'cancel-measure', text: w.cancel, hidden: true });
  const status = h('span', { className: 'measure-status', attrs: { role: 'status' } });
  let job = null;
  const run = async () => {
    if (job) return;
    button.disabled = true;
    button.textContent = w.measuring;
    cancel.hidden = false;
    status.textContent = '';
    job = attention.long(op, args, (fraction) => { button.textContent = `${w.measuring} ${Math.round(fraction * 100)} %`; });
    try {
      show(await job.result);
    } catch (error) {
      status.textContent = error.cancelled ? w.measureCancelled : String(error?.message ?? error);
    } finally {
      job = null;
      button.disabled = false;
      button.textContent = label;
      cancel.hidden = true;
    }
  };
  button.addEventListener('click', run);
  cancel.addEventListener('click', () => job?.cancel());
  return { el: h('div', { className: 'measure-bar' }, button, cancel, status), run };
}

/** The fit (and its quoted exponent) uses sizes from here up, where the n² work outweighs fixed costs. */
export const FIT_FROM = 256;

/**
 * The least-squares line through (log n, log y) for the rows with n ≥ from: its slope is the
 * exponent p of y ∝ n^p. Also c of the reference c·n² through the same points (geometric mean of y/n²).
 */
export function fitPower(rows, key, from = FIT_FROM) {
  const pts = rows.filter((r) => r.n >= from && r[key] > 0).map((r) => [Math.log(r.n), Math.log(r[key])]);
  if (pts.length < 2) return null;
  const mx = pts.reduce((s, p) => s + p[0], 0) / pts.length;
  const my = pts.reduce((s, p) => s + p[1], 0) / pts.length;
  const exponent = pts.reduce((s, p) => s + (p[0] - mx) * (p[1] - my), 0) / pts.reduce((s, p) => s + (p[0] - mx) ** 2, 0);
  const c = Math.exp(pts.reduce((s, p) => s + p[1] - 2 * p[0], 0) / pts.length);
  return { exponent, c };
}

const SERIES = [
  { key: 'compute', color: '#c0392b', dash: '' },
  { key: 'call', color: '#b35806', dash: '5 3' },
  { key: 'mib', color: '#2c6fbb', dash: '' },
];

/**
 * A log–log chart: each series {label, color, dash, cls, points: [[n, y], …]} a polyline with dots and a
 * legend line; each line {from: [n, y], to: [n, y], color, dash, cls} a straight segment (a fitted
 * reference or a projection). attrs go on the <svg> (the tests read the fitted exponents there).
 */
export function logChart({ series, lines = [], notes = [], title, xLabel, yLabel = '', attrs = {} }) {
  const W = 480, H = 240, L = yLabel ? 62 : 48, B = 30, T = 10, R = 22; // room for the unit beside the ticks
  const floor = 1e-4;
  const ly = (y) => Math.log10(Math.max(y, floor));
  const ns = [...series.flatMap((s) => s.points.map((p) => p[0])), ...lines.flatMap((l) => [l.from[0], l.to[0]])];
  const ys = [...series.flatMap((s) => s.points.map((p) => ly(p[1]))), ...lines.flatMap((l) => [ly(l.from[1]), ly(l.to[1])])];
  const [x0, x1] = [Math.log10(Math.min(...ns)), Math.log10(Math.max(...ns))];
  const [y0, y1] = [Math.floor(Math.min(...ys)), Math.ceil(Math.max(...ys))];
  const px = (n) => L + ((Math.log10(n) - x0) / (x1 - x0 || 1)) * (W - L - R);
  const py = (y) => H - B - ((Math.max(y0, Math.min(y1, ly(y))) - y0) / (y1 - y0 || 1)) * (H - B - T);
  const g = svg('svg', { viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': title, class: 'chart', ...attrs });
  for (let y = y0; y <= y1; y++) {
    g.append(svg('line', { x1: L, x2: W - R, y1: py(10 ** y), y2: py(10 ** y), stroke: '#ddd' }));
    g.append(svg('text', { x: L - 6, y: py(10 ** y) + 4, 'text-anchor': 'end', 'font-size': 12 }, `1e${y}`));
  }
  const ticks = [...new Set(series.flatMap((s) => s.points.map((p) => p[0])))].sort((a, b) => a - b);
  for (const n of ticks) g.append(svg('text', { x: px(n), y: H - B + 14, 'text-anchor': 'middle', 'font-size': 12 }, String(n)));
  g.append(svg('text', { x: (L + W) / 2, y: H - 2, 'text-anchor': 'middle', 'font-size': 12 }, xLabel));
  if (yLabel) g.append(svg('text', { x: 12, y: (T + H - B) / 2, 'text-anchor': 'middle', 'font-size': 12, transform: `rotate(-90 12 ${(T + H - B) / 2})` }, yLabel));
  for (const l of lines) {
    g.append(svg('line', {
      x1: px(l.from[0]), y1: py(l.from[1]), x2: px(l.to[0]), y2: py(l.to[1]),
      stroke: l.color, 'stroke-dasharray': l.dash, 'stroke-width': 1.5, class: l.cls,
    }));
  }
  series.forEach((s, k) => {
    const points = s.points.map(([n, y]) => `${px(n)},${py(y)}`).join(' ');
    g.append(svg('polyline', { points, fill: 'none', stroke: s.color, 'stroke-width': 2, 'stroke-dasharray': s.dash, class: s.cls }));
    for (const [n, y] of s.points) g.append(svg('circle', { cx: px(n), cy: py(y), r: 2.5, fill: s.color }));
    const ly0 = T + 8 + 14 * k; // the legend: a sample of the line (its dash tells the series apart), then the label
    g.append(svg('line', { x1: L + 8, x2: L + 26, y1: ly0, y2: ly0, stroke: s.color, 'stroke-width': 2, 'stroke-dasharray': s.dash }));
    g.append(svg('text', { x: L + 30, y: T + 12 + 14 * k, fill: s.color, 'font-size': 12 }, s.label));
  });
  notes.forEach((text, k) => g.append(svg('text', { x: L + 8, y: T + 12 + 14 * (series.length + k), fill: '#57606a', 'font-size': 12 }, text)));
  return g;
}

/**
 * Time and memory side by side, each on its own log axis with its unit (milliseconds are not MiB):
 * {time, memory} are each {series, lines, notes}; attrs (the fitted exponents) go on both.
 */
export function timeAndMemory({ time, memory, title, w, attrs }) {
  return h('div', { className: 'charts' },
    logChart({ ...time, title: `${title}: ${w.timeAxis}`, xLabel: w.positions, yLabel: w.timeAxis, attrs: { ...attrs, class: 'chart chart-time' } }),
    logChart({ ...memory, title: `${title}: ${w.memoryAxis}`, xLabel: w.positions, yLabel: w.memoryAxis, attrs: { ...attrs, class: 'chart chart-memory' } }));
}

/** The charts of the trace path: the times, with the fitted c·n² reference for the compute time, and the memory. */
export function chart(rows, fits, w) {
  const label = { compute: w.computeTime, call: w.callTime, mib: w.memory };
  const attrs = {};
  for (const [key, fit] of Object.entries(fits)) if (fit) attrs[`data-exponent-${key}`] = fit.exponent.toFixed(3);
  const [first, last] = [rows[0].n, rows[rows.length - 1].n];
  const lines = fits.compute
    ? [{ from: [first, fits.compute.c * first * first], to: [last, fits.compute.c * last * last], color: '#6e7781', dash: '2 3', cls: 'reference' }]
    : [];
  const series = (keys) => SERIES.filter((s) => keys.includes(s.key)).map((s) => ({ ...s, label: label[s.key], cls: `series-${s.key}`, points: rows.map((r) => [r.n, r[s.key]]) }));
  return timeAndMemory({
    time: { series: series(['compute', 'call']), lines, notes: [w.reference] }, memory: { series: series(['mib']) },
    title: w.complexityTitle, w, attrs,
  });
}

/** The panel: a button, and once measured the chart, the fitted exponents in words, and a table of the figures. */
export function complexityPanel(attention, doc, w) {
  const out = h('div', { className: 'complexity-out' });
  const show = (rows) => {
    const fits = { compute: fitPower(rows, 'compute'), call: fitPower(rows, 'call'), mib: fitPower(rows, 'mib') };
    const ms = (v) => v.toFixed(3);
    clear(out).append(chart(rows, fits, w),
      // the sentence follows the measurement: the whole call either grew no faster than attention (its
      // JSON reading is linear) or, on a busy machine, did
      h('p', { className: 'fit', text: w.fitText(FIT_FROM, fits.compute?.exponent.toFixed(2), fits.call?.exponent.toFixed(2), fits.mib?.exponent.toFixed(2),
        !!(fits.call && fits.compute && fits.call.exponent > fits.compute.exponent + 0.1)) }),
      h('table', { className: 'figures' },
        h('thead', {}, h('tr', {}, h('th', { text: 'n' }), h('th', { text: w.computeTime }), h('th', { text: w.callTime }), h('th', { text: w.memory }))),
        h('tbody', {}, rows.map((r) => h('tr', {}, h('td', { text: String(r.n) }), h('td', { text: ms(r.compute) }), h('td', { text: ms(r.call) }), h('td', { text: r.mib.toFixed(3) }))))));
  };
  const bar = measureButton(attention, 'measure', w.measure, 'measure', [doc.sizes, doc.d_model], w, show);
  return { el: h('section', { className: 'complexity' }, h('h3', { text: w.complexityTitle }), bar.el, out), run: bar.run };
}
