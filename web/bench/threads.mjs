// Benchmark (not a test): a.attention in headless Chromium on the playground served cross-origin
// isolated (as scripts/serve.sh serves it), the wasm-threads module against the one-thread module the
// page's script carries, side by side in one run: median time per call and GFLOP/s (4·n²·d).
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { launchChromium, serveStatic } from '../../tests/node/helpers.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const server = await serveStatic(path.join(repo, 'site'), {
  headers: { 'cross-origin-opener-policy': 'same-origin', 'cross-origin-embedder-policy': 'require-corp' },
});
const browser = await launchChromium();
try {
  const page = await browser.newPage();
  await page.goto(`${server.url}index.html`);
  await page.waitForFunction(() => document.querySelector('attention-stepper')?.attention);
  const rows = await page.evaluate(async () => {
    const threaded = document.querySelector('attention-stepper').attention;
    const single = await window.AttentionStepperBundle.createAttention();
    const median = (v) => v.sort((a, b) => a - b)[v.length >> 1];
    const out = [];
    for (const [n, d] of [[128, 64], [512, 64], [2048, 64]]) {
      const q = Float32Array.from({ length: n * d }, (_, i) => Math.sin(i));
      const times = [[], []];
      const reps = Math.max(1, Math.round(2e6 / (n * n)));
      for (let round = 0; round < 9; round++) {
        for (const [i, api] of [single, threaded].entries()) {
          const t0 = performance.now();
          for (let r = 0; r < reps; r++) api.attention({ q, k: q, v: q, d });
          if (round > 1) times[i].push((performance.now() - t0) / reps); // the first rounds warm the engine up
        }
      }
      out.push({ n, d, single: median(times[0]), threaded: median(times[1]) });
    }
    return { threads: threaded.threads, isolated: crossOriginIsolated, out };
  });
  console.log(`a.attention in Chromium, cross-origin isolated: ${rows.isolated}; the wasm-threads module uses ${rows.threads} threads`);
  console.log(`${'n'.padStart(6)}${'d'.padStart(4)}${'one thread'.padStart(22)}${`${rows.threads} threads`.padStart(22)}${'speed-up'.padStart(10)}`);
  for (const { n, d, single, threaded } of rows.out) {
    const gf = (ms) => (4 * n * n * d) / (ms * 1e6);
    const cell = (ms) => `${ms.toFixed(2)} ms ${gf(ms).toFixed(1)}GF/s`.padStart(22);
    console.log(`${String(n).padStart(6)}${String(d).padStart(4)}${cell(single)}${cell(threaded)}${`${(single / threaded).toFixed(2)}x`.padStart(10)}`);
  }
} finally {
  await browser.close();
  await server.close();
}
