// The complexity example's second measurement: the two ways to compute attention, side by side up to
// n = 16384. The trace keeps every n × n stage (the playground needs them to show the numbers): its
// memory grows as n² and stops at the module's limit. a.attention streams the keys a block at a time
// (the online-softmax example shows how): the same n² time, but memory that grows as n. Every time
// is measured here and every byte count comes from the core (trace.bytes, a.attentionBytes); the only
// arithmetic is the fit of the exponents and the n² projection of the trace's memory past its limit.
import { h, clear } from './dom.js';
import { fitPower, measureButton, timeAndMemory } from './complexity.js';

/** The chart: solid for the trace, dashed for the streaming kernel; red for time, blue for memory. */
function pathsChart({ trace, stream }, fits, w) {
  const last = stream[stream.length - 1].n;
  const projected = fits.traceMib.c * last * last; // MiB the trace would need at the largest n
  const from = trace[trace.length - 1];
  const attrs = {
    'data-exponent-stream-time': fits.streamMs.exponent.toFixed(3),
    'data-exponent-stream-mib': fits.streamMib.exponent.toFixed(3),
    'data-exponent-trace-mib': fits.traceMib.exponent.toFixed(3),
    'data-projected-trace-mib': projected.toFixed(0),
  };
  return {
    projected,
    el: timeAndMemory({
      time: {
        series: [
          { label: w.pathsTraceTime, color: '#c0392b', dash: '', cls: 'series-trace-time', points: trace.map((r) => [r.n, r.ms]) },
          { label: w.pathsStreamTime, color: '#c0392b', dash: '6 3', cls: 'series-stream-time', points: stream.map((r) => [r.n, r.ms]) },
        ],
      },
      memory: {
        series: [
          { label: w.pathsTraceMemory, color: '#2c6fbb', dash: '', cls: 'series-trace-mib', points: trace.map((r) => [r.n, r.mib]) },
          { label: w.pathsStreamMemory, color: '#2c6fbb', dash: '6 3', cls: 'series-stream-mib', points: stream.map((r) => [r.n, r.mib]) },
        ],
        lines: [{ from: [from.n, from.mib], to: [last, projected], color: '#2c6fbb', dash: '1 3', cls: 'projection' }],
        notes: [w.pathsProjection],
      },
      title: w.pathsTitle, w, attrs,
    }),
  };
}

/** The panel: a button (it takes a few seconds), then the chart, the exponents in words and the figures. */
export function pathsPanel(attention, doc, w) {
  const out = h('div', { className: 'complexity-out' });
  const show = (rows) => {
    const fits = {
      streamMs: fitPower(rows.stream.map((r) => ({ n: r.n, v: r.ms })), 'v', 1024),
      streamMib: fitPower(rows.stream.map((r) => ({ n: r.n, v: r.mib })), 'v', 1024),
      traceMib: fitPower(rows.trace.map((r) => ({ n: r.n, v: r.mib })), 'v', 256),
    };
    const { el, projected } = pathsChart(rows, fits, w);
    const last = rows.stream[rows.stream.length - 1];
    const table = h('table', { className: 'figures paths' },
      h('thead', {}, h('tr', {}, ['n', w.pathsTraceTime, w.pathsTraceMemory, w.pathsStreamTime, w.pathsStreamMemory].map((t) => h('th', { text: t })))),
      h('tbody', {}, rows.stream.map((r) => {
        const t = rows.trace.find((x) => x.n === r.n);
        return h('tr', {}, h('td', { text: String(r.n) }), h('td', { text: t ? t.ms.toFixed(3) : '—' }), h('td', { text: t ? t.mib.toFixed(3) : '—' }),
          h('td', { text: r.ms.toFixed(3) }), h('td', { text: r.mib.toFixed(3) }));
      })));
    clear(out).append(el,
      h('p', { className: 'fit-paths', text: w.pathsText(fits.streamMs.exponent.toFixed(2), fits.streamMib.exponent.toFixed(2), fits.traceMib.exponent.toFixed(2), last.n, (projected / 1024).toFixed(1), last.mib.toFixed(1)) }),
      table);
  };
  const bar = measureButton(attention, 'measure-paths', w.pathsMeasure, 'measurePaths', [doc.streaming_sizes, doc.d_model], w, show);
  return { el: h('section', { className: 'complexity paths' }, h('h3', { text: w.pathsTitle }), h('p', { className: 'hint', text: w.pathsHint }), bar.el, out), run: bar.run };
}
