// Benchmark (not a test): the threaded table — a.attention against each peer that has threads, each at its
// best, in headless Chromium on a page served cross-origin isolated (as scripts/serve.sh serves the
// playground: wasm threads need SharedArrayBuffer, so workers, so an isolated page). Contenders, the peers
// with as many threads as a.attention's wasm-threads module uses:
//   - a.attention on the wasm-threads module (createAttention({threads: true}): query rows split between
//     workers), and on the one-thread module (the speed-up column);
//   - TF.js's wasm backend, threaded SIMD build (XNNPACK), the fast way: Q scaled first, matMul(q, transpose(k));
//   - onnxruntime-web's wasm backend with numThreads: the plain graph and its fused MultiHeadAttention.
// The peers' scripts and wasm come from web/node_modules (npm), the package from web/src and web/dist, all
// served from the repository's root. Every output is checked against a.attention's (≤ 1e-4) before it is
// timed; a peer that cannot run a size says why. Median time per call and GFLOP/s (4·n²·d).
// usage: node web/bench/threads.mjs   (after bash scripts/build.sh)
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { launchChromium, serveStatic } from '../../tests/node/helpers.mjs';
import { attentionModel, fusedAttentionModel } from './onnx_model.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SIZES = [[128, 64], [512, 64], [1024, 64], [2048, 64], [4096, 64], [1024, 128]];
const NAMES = ['a.attention, threads', 'a.attention, 1 thread', 'TF.js fast, threads', 'ORT graph, threads', 'ORT fused MHA, threads'];
const PEERS = [2, 3, 4];
const modules = '/web/node_modules';
const server = await serveStatic(repo, {
  headers: { 'cross-origin-opener-policy': 'same-origin', 'cross-origin-embedder-policy': 'require-corp' },
});
const browser = await launchChromium();
try {
  const page = await browser.newPage();
  page.on('pageerror', (e) => console.error(`page error: ${e.message}`));
  await page.goto(`${server.url}site/docs.html`); // any page of the site: only its origin and isolation are used
  for (const file of ['@tensorflow/tfjs-core/dist/tf-core.min.js', '@tensorflow/tfjs-backend-wasm/dist/tf-backend-wasm.min.js',
    'onnxruntime-web/dist/ort.min.js']) await page.addScriptTag({ url: `${modules}/${file}` });
  const setup = await page.evaluate(async (modules) => {
    const { createAttention } = await import('/web/src/index.js');
    window.bench = { threaded: await createAttention({ threads: true }), single: await createAttention() };
    const threads = window.bench.threaded.threads; // the peers get as many
    const { tf, ort } = window;
    tf.wasm.setWasmPaths(`${modules}/@tensorflow/tfjs-backend-wasm/dist/`);
    tf.wasm.setThreadsCount(threads);
    await tf.setBackend('wasm');
    ort.env.wasm.wasmPaths = `${modules}/onnxruntime-web/dist/`;
    ort.env.wasm.numThreads = threads;
    ort.env.logLevel = 'error';
    return { isolated: crossOriginIsolated, threads, tfThreads: await tf.env().getAsync('WASM_HAS_MULTITHREAD_SUPPORT') };
  }, modules);
  if (!setup.isolated || setup.threads < 2) throw new Error(`the page is not cross-origin isolated or a.attention has ${setup.threads} thread`);
  console.log(`Chromium, cross-origin isolated; a.attention's wasm-threads module: ${setup.threads} threads (this machine: ` +
    `${(await import('node:os')).availableParallelism()} cores); TF.js wasm, threaded SIMD: ${setup.tfThreads ? setup.threads : 'no'} threads; ` +
    `onnxruntime-web: numThreads ${setup.threads}`);
  console.log(`${'n'.padStart(6)}${'d'.padStart(4)}  ${NAMES.map((x) => x.padStart(26)).join('')}`);
  for (const [n, d] of SIZES) {
    const models = { graph: Array.from(attentionModel(n, d)), fused: Array.from(fusedAttentionModel(n, d)) };
    const row = await page.evaluate(async ({ n, d, models, names }) => {
      const { tf, ort, bench } = window;
      const data = (count, seed) => {
        const out = new Float32Array(count);
        let s = seed;
        for (let i = 0; i < count; i++) {
          s = (Math.imul(s, 1103515245) + 12345) >>> 0;
          out[i] = (s / 4294967296) * 2 - 1;
        }
        return out;
      };
      const median = (v) => v.slice().sort((a, b) => a - b)[v.length >> 1];
      const q = data(n * d, 1), k = data(n * d, 2), v = data(n * d, 3);
      const [tq, tk, tv] = [tf.tensor2d(q, [n, d]), tf.tensor2d(k, [n, d]), tf.tensor2d(v, [n, d])];
      const inverse = tf.scalar(1 / Math.sqrt(d));
      const tfForward = () => tf.tidy(() => tf.matMul(tf.softmax(tf.matMul(tf.mul(tq, inverse), tf.transpose(tk))), tv));
      const sessions = [];
      const session = async (bytes, dims) => {
        const s = await ort.InferenceSession.create(Uint8Array.from(bytes), { executionProviders: ['wasm'] });
        sessions.push(s);
        const feeds = { q: new ort.Tensor('float32', q, dims), k: new ort.Tensor('float32', k, dims), v: new ort.Tensor('float32', v, dims) };
        return async () => (await s.run(feeds)).out.data;
      };
      const makers = [
        async () => () => bench.threaded.attention({ q, k, v, d }),
        async () => () => bench.single.attention({ q, k, v, d }),
        async () => () => { const t = tfForward(); const out = t.dataSync(); t.dispose(); return out; },
        () => session(models.graph, [n, d]),
        () => session(models.fused, [1, n, d]),
      ];
      const reference = bench.threaded.attention({ q, k, v, d });
      const cells = [], failed = [];
      for (const [i, make] of makers.entries()) {
        try {
          const run = await make();
          const out = await run(); // a peer that cannot run this size is left out, saying why
          let worst = 0;
          for (let j = 0; j < out.length; j++) worst = Math.max(worst, Math.abs(out[j] - reference[j]));
          if (!(worst <= 1e-4)) throw new Error(`differs from a.attention by ${worst}`);
          // warm-up: each engine compiles its hot code again, in the optimising tier, on every worker it runs on
          // (a helper's first calls ran at half speed), so each contender runs 400 ms before it is timed
          const t0 = performance.now();
          let calls = 0;
          while (performance.now() - t0 < 400 || calls < 3) {
            await run();
            calls++;
          }
          const each = (performance.now() - t0) / calls;
          cells.push({ run, reps: Math.max(1, Math.round(20 / Math.max(each, 1e-3))), times: [] }); // ~20 ms batches
        } catch (error) {
          failed.push(`${names[i]}: ${String(error?.message ?? error).split('\n')[0].slice(-80)}`);
          cells.push(null);
        }
      }
      // the contenders take turns, batch after batch, so that drift hits all alike; the first round warms up.
      // Before each batch the page idles 30 ms: a thread pool that spins after its work (onnxruntime's and
      // XNNPACK's do) would otherwise take the cores from whoever runs next
      for (let round = 0; round < 11; round++) {
        for (const c of cells) {
          if (!c) continue;
          await new Promise((resolve) => setTimeout(resolve, 30));
          const t0 = performance.now();
          for (let r = 0; r < c.reps; r++) await c.run();
          if (round > 0) c.times.push((performance.now() - t0) / c.reps);
        }
      }
      [tq, tk, tv, inverse].forEach((t) => t.dispose());
      await Promise.all(sessions.map((s) => s.release()));
      return { ms: cells.map((c) => (c ? median(c.times) : null)), failed };
    }, { n, d, models, names: NAMES });
    const { ms, failed } = row;
    const gf = (t) => (4 * n * n * d) / (t * 1e6);
    const cell = (t) => (t === null ? '—'.padStart(26) : `${t.toFixed(2)} ms ${(t / ms[0]).toFixed(2)}x ${gf(t).toFixed(1)}GF/s`.padStart(26));
    console.log(`${String(n).padStart(6)}${String(d).padStart(4)}  ${ms.map(cell).join('')}`);
    const best = PEERS.filter((i) => ms[i] !== null).sort((p, q) => ms[p] - ms[q])[0];
    console.log(`            a.attention with threads: ${best === undefined ? 'no peer ran' : `${(ms[best] / ms[0]).toFixed(2)}x as fast as the best threaded peer (${NAMES[best]})`}; ` +
      `${(ms[1] / ms[0]).toFixed(2)}x its own one thread${failed.length ? `; left out: ${failed.join('; ')}` : ''}`);
  }
} finally {
  await browser.close();
  await server.close();
}
