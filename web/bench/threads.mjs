// Benchmark (not a test): the threaded table — a.attention against each peer that has threads, each at its
// best, in headless Chromium on a page served cross-origin isolated (as scripts/serve.sh serves the
// playground: wasm threads need SharedArrayBuffer, so workers, so an isolated page). Contenders, the peers
// with as many threads as a.attention's wasm-threads module uses:
//   - a.attention on the wasm-threads module (createAttention({threads: true}): query rows split between
//     workers), and on the one-thread module (the speed-up column);
//   - TF.js's wasm backend, threaded SIMD build (XNNPACK), the fast way: Q scaled first, matMul(q, transpose(k));
//   - onnxruntime-web's wasm backend with numThreads: the plain graph and its fused MultiHeadAttention.
// Each library runs in a page of its own, as its users run it: a page with two libraries' thread pools
// measured one pool spinning on the cores the other needed. The pages take turns, one measuring at a time,
// three rounds a size. The peers' scripts and wasm come from web/node_modules (npm), the package from
// web/src and web/dist, all served from the repository's root. Every output is checked against
// a.attention's (≤ 1e-4) before it is timed; a peer that cannot run a size says why. Median time per call
// and GFLOP/s (4·n²·d).
// usage: node web/bench/threads.mjs   (after bash scripts/build.sh); some sizes only, as forward.mjs:
//        BENCH_SIZES='[[512, 64]]' node web/bench/threads.mjs
import { isolatedPages } from './isolated_pages.mjs';
import { attentionModel, fusedAttentionModel } from './onnx_model.mjs';

const SIZES = process.env.BENCH_SIZES ? JSON.parse(process.env.BENCH_SIZES)
  : [[128, 64], [512, 64], [1024, 64], [2048, 64], [4096, 64], [1024, 128]];
const NAMES = ['a.attention, threads', 'a.attention, 1 thread', 'TF.js fast, threads', 'ORT graph, threads', 'ORT fused MHA, threads'];
const PEERS = [2, 3, 4];
const ROUNDS = 3;
const modules = '/web/node_modules';
const { newPage, close } = await isolatedPages();

/** A page of the site's origin (cross-origin isolated) with its scripts; setup(modules) runs in it once. */
async function pageWith(scripts, setup, arg) {
  const page = await newPage(scripts);
  await page.evaluate(`(${PAGE_HELPERS})()`); // awaited: evaluate waits for the promise the helpers return
  return { page, info: await page.evaluate(setup, arg) };
}

/** In every page: window.bench.inputs (forms.mjs's, the Node bench's too) and window.bench.time (warm-up, then batches). */
const PAGE_HELPERS = async () => {
  const forms = await import('/web/bench/forms.mjs');
  window.bench = {
    forms,
    inputs: (n, d) => [forms.randomData(n * d, 1), forms.randomData(n * d, 2), forms.randomData(n * d, 3)],
    // each engine compiles its hot code again, in its optimising tier, on every worker it runs on (a helper's
    // first calls ran at half speed): 400 ms of warm-up, then 5 batches of about 20 ms, after 30 ms idle each
    async time(run) {
      const t0 = performance.now();
      let calls = 0;
      while (performance.now() - t0 < 400 || calls < 3) {
        await run();
        calls++;
      }
      const reps = Math.max(1, Math.round(20 / Math.max((performance.now() - t0) / calls, 1e-3)));
      const times = [];
      for (let b = 0; b < 5; b++) {
        await new Promise((resolve) => setTimeout(resolve, 30));
        const t1 = performance.now();
        for (let r = 0; r < reps; r++) await run();
        times.push((performance.now() - t1) / reps);
      }
      return times;
    },
  };
};

try {
  const ours = await pageWith([], async () => {
    const { createAttention } = await import('/web/src/index.js');
    window.bench.threaded = await createAttention({ threads: true });
    window.bench.single = await createAttention();
    return { isolated: crossOriginIsolated, threads: window.bench.threaded.threads };
  });
  if (!ours.info.isolated || ours.info.threads < 2) throw new Error(`the page is not cross-origin isolated or a.attention has ${ours.info.threads} thread`);
  const threads = ours.info.threads; // every peer gets as many
  const tf = await pageWith(['@tensorflow/tfjs-core/dist/tf-core.min.js', '@tensorflow/tfjs-backend-wasm/dist/tf-backend-wasm.min.js'],
    async ({ modules, threads }) => {
      window.tf.wasm.setWasmPaths(`${modules}/@tensorflow/tfjs-backend-wasm/dist/`);
      window.tf.wasm.setThreadsCount(threads);
      await window.tf.setBackend('wasm');
      return { threaded: await window.tf.env().getAsync('WASM_HAS_MULTITHREAD_SUPPORT') };
    }, { modules, threads });
  const ort = await pageWith(['onnxruntime-web/dist/ort.min.js'], ({ modules, threads }) => {
    window.ort.env.wasm.wasmPaths = `${modules}/onnxruntime-web/dist/`;
    window.ort.env.wasm.numThreads = threads;
    window.ort.env.logLevel = 'error';
    return {};
  }, { modules, threads });
  const machine = (await import('node:os')).availableParallelism();
  console.log(`Chromium, cross-origin isolated, each library in its own page; a.attention's wasm-threads module: ${threads} threads ` +
    `(this machine: ${machine} cores); TF.js wasm, threaded SIMD: ${tf.info.threaded ? threads : 'no'} threads; onnxruntime-web: numThreads ${threads}`);
  console.log(`${'n'.padStart(6)}${'d'.padStart(4)}  ${NAMES.map((x) => x.padStart(26)).join('')}`);

  // each contender: prepare(n, d) in its page (window.bench.run, or a sentence why it cannot), then rounds of time()
  const contenders = [
    [ours.page, ({ n, d }) => {
      const [q, k, v] = window.bench.inputs(n, d);
      window.bench.run = () => window.bench.threaded.attention({ q, k, v, d });
    }],
    [ours.page, ({ n, d }) => {
      const [q, k, v] = window.bench.inputs(n, d);
      window.bench.run = () => window.bench.single.attention({ q, k, v, d });
    }],
    [tf.page, ({ n, d }) => {
      const { tf: t, bench } = window;
      bench.tensors?.forEach((x) => x.dispose());
      const [q, k, v] = bench.inputs(n, d);
      const [tq, tk, tv, inverse] = [t.tensor2d(q, [n, d]), t.tensor2d(k, [n, d]), t.tensor2d(v, [n, d]), t.scalar(1 / Math.sqrt(d))];
      bench.tensors = [tq, tk, tv, inverse];
      bench.run = () => { const o = bench.forms.tfFast(t, tq, tk, tv, inverse); const out = o.dataSync(); o.dispose(); return out; };
    }],
    ...['graph', 'fused'].map((form) => [ort.page, async ({ n, d, model, form }) => {
      const { ort: o, bench } = window;
      await bench.session?.release();
      const [q, k, v] = bench.inputs(n, d);
      const dims = form === 'fused' ? [1, n, d] : [n, d];
      const session = await o.InferenceSession.create(Uint8Array.from(model), { executionProviders: ['wasm'] });
      bench.session = session;
      const feeds = { q: new o.Tensor('float32', q, dims), k: new o.Tensor('float32', k, dims), v: new o.Tensor('float32', v, dims) };
      bench.run = async () => (await session.run(feeds)).out.data;
    }, form]),
  ];
  for (const [n, d] of SIZES) {
    const models = [null, null, null, Array.from(attentionModel(n, d)), Array.from(fusedAttentionModel(n, d))];
    // the reference: a.attention's own output, read in its page
    const reference = await ours.page.evaluate(({ n, d }) => { const [q, k, v] = window.bench.inputs(n, d); return Array.from(window.bench.single.attention({ q, k, v, d })); }, { n, d });
    const times = contenders.map(() => []), failed = [], live = contenders.map(() => true);
    for (let round = 0; round < ROUNDS; round++) {
      for (const [i, [page, prepare, form]] of contenders.entries()) {
        if (!live[i]) continue;
        try {
          await page.evaluate(prepare, { n, d, model: models[i], form });
          if (round === 0) { // checked before it is timed; a peer that cannot run this size is left out, saying why
            const worst = await page.evaluate(async (ref) => window.bench.forms.maxDiff(await window.bench.run(), ref), reference);
            if (!(worst <= 1e-4)) throw new Error(`differs from a.attention by ${worst}`);
          }
          times[i].push(...(await page.evaluate(() => window.bench.time(window.bench.run))));
        } catch (error) {
          failed.push(`${NAMES[i]}: ${String(error?.message ?? error).split('\n')[0].slice(-80)}`);
          live[i] = false;
        }
      }
    }
    // the best of the rounds' times, each contender's own cost, as forward.mjs takes it (noise only adds)
    const ms = times.map((t, i) => (live[i] && t.length ? Math.min(...t) : null));
    const gf = (t) => (4 * n * n * d) / (t * 1e6);
    const cell = (t) => (t === null ? '—'.padStart(26) : `${t.toFixed(2)} ms ${(t / ms[0]).toFixed(2)}x ${gf(t).toFixed(1)}GF/s`.padStart(26));
    console.log(`${String(n).padStart(6)}${String(d).padStart(4)}  ${ms.map(cell).join('')}`);
    const best = PEERS.filter((i) => ms[i] !== null).sort((p, q) => ms[p] - ms[q])[0];
    console.log(`            a.attention with threads: ${best === undefined ? 'no peer ran' : `${(ms[best] / ms[0]).toFixed(2)}x as fast as the best threaded peer (${NAMES[best]})`}; ` +
      `${(ms[1] / ms[0]).toFixed(2)}x its own one thread${failed.length ? `; left out: ${failed.join('; ')}` : ''}`);
  }
} finally {
  await close();
}
