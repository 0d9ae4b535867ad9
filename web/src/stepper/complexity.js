// The complexity example's live measurement: traces of growing n through the wasm core,
// timed in this page, drawn as time and trace memory against n (O(n²) made visible).
import { h, svg, clear } from './dom.js';

/** The complexity example's inputs at length n (its document gives the formula): x[i][c] = 0.5·sin(0.37·i + 1.3·c). */
export function complexityInputs(n, d) {
  return Array.from({ length: n }, (_, i) => Array.from({ length: d }, (_, c) => 0.5 * Math.sin(0.37 * i + 1.3 * c)));
}

/** Measures every size: the best of three traces each, and the bytes its stages hold (the core's trace.bytes). */
export function measure(attention, sizes, d) {
  return sizes.map((n) => {
    const spec = { x: complexityInputs(n, d) };
    let best = Infinity;
    let bytes = 0;
    for (let r = 0; r < 3; r++) {
      const t0 = performance.now();
      const trace = attention.trace(spec);
      best = Math.min(best, performance.now() - t0);
      bytes = trace.bytes;
    }
    return { n, ms: best, mib: bytes / 2 ** 20 };
  });
}

/** An SVG chart of both series on log-log axes (a square law is a straight line of slope 2). */
export function chart(rows, w) {
  const W = 460, H = 220, L = 48, B = 30, T = 10, R = 22;
  const xs = rows.map((r) => Math.log2(r.n));
  const series = [
    { key: 'ms', label: w.time, color: '#c0392b' },
    { key: 'mib', label: w.memory, color: '#2c6fbb' },
  ];
  const all = rows.flatMap((r) => series.map((s) => Math.log10(Math.max(r[s.key], 1e-4))));
  const [x0, x1] = [Math.min(...xs), Math.max(...xs)];
  const [y0, y1] = [Math.floor(Math.min(...all)), Math.ceil(Math.max(...all))];
  const px = (x) => L + ((x - x0) / (x1 - x0 || 1)) * (W - L - R);
  const py = (y) => H - B - ((y - y0) / (y1 - y0 || 1)) * (H - B - T);
  const g = svg('svg', { viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': w.complexityTitle, class: 'chart' });
  for (let y = y0; y <= y1; y++) {
    g.append(svg('line', { x1: L, x2: W - R, y1: py(y), y2: py(y), stroke: '#ddd' }));
    g.append(svg('text', { x: L - 6, y: py(y) + 4, 'text-anchor': 'end', 'font-size': 10 }, `1e${y}`));
  }
  rows.forEach((r, i) => g.append(svg('text', { x: px(xs[i]), y: H - B + 14, 'text-anchor': 'middle', 'font-size': 10 }, String(r.n))));
  g.append(svg('text', { x: (L + W) / 2, y: H - 2, 'text-anchor': 'middle', 'font-size': 11 }, w.positions));
  series.forEach((s, k) => {
    const points = rows.map((r, i) => `${px(xs[i])},${py(Math.log10(Math.max(r[s.key], 1e-4)))}`).join(' ');
    g.append(svg('polyline', { points, fill: 'none', stroke: s.color, 'stroke-width': 2, class: `series-${s.key}` }));
    g.append(svg('text', { x: L + 8, y: T + 12 + 14 * k, fill: s.color, 'font-size': 11 }, s.label));
  });
  return g;
}

/** The panel: a button, and the chart with a table of the figures once measured. */
export function complexityPanel(attention, doc, w) {
  const out = h('div', { className: 'complexity-out' });
  const button = h('button', { type: 'button', className: 'measure', text: w.measure });
  const run = () => {
    button.disabled = true;
    button.textContent = w.measuring;
    setTimeout(() => { // let the label paint first
      const rows = measure(attention, doc.sizes, doc.d_model);
      clear(out).append(chart(rows, w), h('table', { className: 'figures' },
        h('thead', {}, h('tr', {}, h('th', { text: 'n' }), h('th', { text: w.time }), h('th', { text: w.memory }))),
        h('tbody', {}, rows.map((r) => h('tr', {}, h('td', { text: String(r.n) }), h('td', { text: r.ms.toFixed(3) }), h('td', { text: r.mib.toFixed(3) }))))));
      button.disabled = false;
      button.textContent = w.measure;
    }, 30);
  };
  button.addEventListener('click', run);
  return { el: h('section', { className: 'complexity' }, h('h3', { text: w.complexityTitle }), button, out), run };
}
