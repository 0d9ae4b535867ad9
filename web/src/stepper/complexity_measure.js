// The complexity example's two measurements, run in the core's Web Worker (../remote/worker.js) so the
// page keeps drawing while a trace of n = 1024 or a.attention of n = 16384 runs for a second or more.
// Each takes the package's API and tick(fraction): called between samples with the share done, it
// throws to stop the measurement there (the page's Cancel). Every timed number is the core's.

/** Timed rounds per size; each size's time is the median of these. */
export const RUNS = 7;
/** Timed calls per size on the two paths (the largest takes about a second each); the median is kept. */
const PATH_RUNS = 3;
/** Sizes of the trace path: up to the module's limit of a trace. */
const TRACE_SIZES = [64, 256, 1024];

/** The complexity example's inputs at length n (its document gives the formula): x[i][c] = 0.5·sin(0.37·i + 1.3·c). */
export function complexityInputs(n, d) {
  return Array.from({ length: n }, (_, i) => Array.from({ length: d }, (_, c) => 0.5 * Math.sin(0.37 * i + 1.3 * c)));
}

/** The median (the mean of the middle two for an even count). */
export const median = (values) => {
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** A turn for the worker's other messages (a caption, Cancel) between timed samples. */
const breathe = () => new Promise((resolve) => setTimeout(resolve, 0));

/**
 * Browsers read their clocks to about 0.1 ms; a timed sample repeats a trace until its compute adds up to about
 * this. A trace of 8 tokens takes a few µs on a fast machine, so one call mostly reads 0 and now and then 0.1 ms.
 * The repeats therefore come from a calibration that also repeats (up to MAX_REPEATS calls, about 10 ms of
 * a.trace, still one short task): one call that happened to read 0.1 ms once set 30 repeats, whose sums were
 * mostly 0, and the median of such samples read 0.
 */
const SAMPLE_MS = 3;
const MAX_REPEATS = 1024;

/** How many calls of the trace add up to about SAMPLE_MS of the core's compute (at least 1, at most MAX_REPEATS). */
function calibrate(attention, spec) {
  let compute = 0;
  let calls = 0;
  while (compute < SAMPLE_MS && calls < MAX_REPEATS) {
    compute += attention.trace(spec).compute_ms;
    calls++;
  }
  const each = compute / calls;
  return Math.min(MAX_REPEATS, Math.max(1, Math.ceil(SAMPLE_MS / Math.max(each, SAMPLE_MS / MAX_REPEATS))));
}

/**
 * Measures every size: an untimed round first (the browser compiles the core's hot loops to
 * optimised code only after they have run), then a calibrating round, then RUNS timed rounds, sizes
 * interleaved so a busy moment of the machine touches every size alike. A sample of a small size
 * repeats its trace (up to 1024 times) until the core's compute adds up to about 3 ms, and is the
 * mean of those; per size the median of the samples.
 */
export async function measure(attention, sizes, d, tick = () => {}) {
  const specs = sizes.map((n) => ({ x: complexityInputs(n, d) }));
  for (const spec of specs) {
    await breathe();
    tick(0);
    attention.trace(spec);
  }
  const repeats = [];
  for (const spec of specs) {
    await breathe();
    tick(0);
    repeats.push(calibrate(attention, spec));
  }
  const runs = sizes.map(() => ({ call: [], compute: [], bytes: 0 }));
  for (let r = 0; r < RUNS; r++) {
    for (const [k, spec] of specs.entries()) {
      await breathe();
      tick((r * specs.length + k) / (RUNS * specs.length));
      let compute = 0;
      let trace;
      const t0 = performance.now();
      for (let rep = 0; rep < repeats[k]; rep++) {
        trace = attention.trace(spec);
        compute += trace.compute_ms;
      }
      runs[k].call.push((performance.now() - t0) / repeats[k]);
      runs[k].compute.push(compute / repeats[k]);
      runs[k].bytes = trace.bytes;
    }
  }
  return sizes.map((n, k) => ({ n, compute: median(runs[k].compute), call: median(runs[k].call), mib: runs[k].bytes / 2 ** 20, repeats: repeats[k] }));
}

/** Rows {n, ms, mib} of the trace and the streaming kernel; sizes interleaved run by run. */
export async function measurePaths(attention, streamingSizes, d, tick = () => {}) {
  const traceSpecs = TRACE_SIZES.map((n) => ({ x: complexityInputs(n, d) }));
  const streamInputs = streamingSizes.map((n) => Float32Array.from(complexityInputs(n, d).flat()));
  for (const spec of traceSpecs) attention.trace(spec); // warm-up: the hot loops compiled
  for (const [k, q] of streamInputs.entries()) if (streamingSizes[k] <= 1024) attention.attention({ q, k: q, v: q, d });
  const trace = TRACE_SIZES.map(() => []), stream = streamingSizes.map(() => []);
  const traceBytes = [];
  const samples = PATH_RUNS * (traceSpecs.length + streamInputs.length);
  let done = 0;
  for (let r = 0; r < PATH_RUNS; r++) {
    for (const [k, spec] of traceSpecs.entries()) {
      await breathe();
      tick(done++ / samples);
      const t = attention.trace(spec);
      trace[k].push(t.compute_ms);
      traceBytes[k] = t.bytes;
    }
    for (const [k, q] of streamInputs.entries()) {
      await breathe();
      tick(done++ / samples);
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
