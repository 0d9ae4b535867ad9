// The complexity example's second measurement: the two ways to compute attention, side by side up to
// n = 16384. The trace keeps every n × n stage (the playground needs them to show the numbers): its
// memory grows as n² and stops at the module's limit. a.attention streams the keys a block at a time
// (the online-softmax example shows how): the same n² time, but memory that grows as n. Every time
// is measured here and every byte count comes from the core (trace.bytes, a.attentionBytes); the only
// arithmetic is the fit of the exponents and the n² projection of the trace's memory past its limit.
import { h, clear } from './dom.js';
import { breathe, complexityInputs, fitPower, logChart, median } from './complexity.js';

/** Timed calls per size (the largest takes about a second each); the median is kept. */
const RUNS = 3;
/** Sizes of the trace path: up to the module's limit of a trace. */
const TRACE_SIZES = [64, 256, 1024];


/** Rows {n, ms, mib} of each path; sizes interleaved run by run, the page yielding between calls. */
export async function measurePaths(attention, streamingSizes, d) {
  const traceSpecs = TRACE_SIZES.map((n) => ({ x: complexityInputs(n, d) }));
  const streamInputs = streamingSizes.map((n) => Float32Array.from(complexityInputs(n, d).flat()));
  for (const spec of traceSpecs) attention.trace(spec); // warm-up: the hot loops compiled
  for (const [k, q] of streamInputs.entries()) if (streamingSizes[k] <= 1024) attention.attention({ q, k: q, v: q, d });
  const trace = TRACE_SIZES.map(() => []), stream = streamingSizes.map(() => []);
  const traceBytes = [];
  for (let r = 0; r < RUNS; r++) {
    for (const [k, spec] of traceSpecs.entries()) {
      await breathe();
      const t = attention.trace(spec);
      trace[k].push(t.compute_ms);
      traceBytes[k] = t.bytes;
    }
    for (const [k, q] of streamInputs.entries()) {
      await breathe();
      const t0 = performance.now();
      attention.attention({ q, k: q, v: q, d });
      stream[k].push(performance.now() - t0);
    }
  }
  return {
    trace: TRACE_SIZES.map((n, k) => ({ n, ms: median(trace[k]), mib: traceBytes[k] / 2 ** 20 })),
    stream: streamingSizes.map((n, k) => ({ n, ms: median(stream[k]), mib: attention.attentionBytes({ nQ: n, nK: n, d }) / 2 ** 20 })),
  };
}

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
    el: logChart({
      series: [
        { label: w.pathsTraceTime, color: '#c0392b', dash: '', cls: 'series-trace-time', points: trace.map((r) => [r.n, r.ms]) },
        { label: w.pathsTraceMemory, color: '#2c6fbb', dash: '', cls: 'series-trace-mib', points: trace.map((r) => [r.n, r.mib]) },
        { label: w.pathsStreamTime, color: '#c0392b', dash: '6 3', cls: 'series-stream-time', points: stream.map((r) => [r.n, r.ms]) },
        { label: w.pathsStreamMemory, color: '#2c6fbb', dash: '6 3', cls: 'series-stream-mib', points: stream.map((r) => [r.n, r.mib]) },
      ],
      lines: [{ from: [from.n, from.mib], to: [last, projected], color: '#2c6fbb', dash: '1 3', cls: 'projection' }],
      notes: [w.pathsProjection],
      title: w.pathsTitle, xLabel: w.positions, attrs,
    }),
  };
}

/** The panel: a button (it takes a few seconds), then the chart, the exponents in words and the figures. */
export function pathsPanel(attention, doc, w) {
  const out = h('div', { className: 'complexity-out' });
  const button = h('button', { type: 'button', className: 'measure-paths', text: w.pathsMeasure });
  const run = async () => {
    button.disabled = true;
    button.textContent = w.measuring;
    const rows = await measurePaths(attention, doc.streaming_sizes, doc.d_model);
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
    button.disabled = false;
    button.textContent = w.pathsMeasure;
  };
  button.addEventListener('click', run);
  return { el: h('section', { className: 'complexity paths' }, h('h3', { text: w.pathsTitle }), h('p', { className: 'hint', text: w.pathsHint }), button, out), run };
}
