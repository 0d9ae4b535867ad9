// Benchmark (not a test): training speed. Full-batch Adam steps per second on the alignment task
// (16 sentence pairs, 5 × 6 tokens, d = 16; goal ≥ 2,000 in wasm) through the npm module, beside the
// native CLI; then the train page in headless Chromium: frames per second while it trains (goal ≥ 30)
// at each steps-per-frame setting.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { createAttention } from '../src/node.js';
import { launchChromium, serveStatic } from '../../tests/node/helpers.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const attn = path.join(repo, 'build/native/bin/attn');
const a = await createAttention();
const median = (v) => [...v].sort((x, y) => x - y)[v.length >> 1];

console.log('training: full-batch Adam steps per second (median of 7 runs of 300 steps, after 2 untimed runs)');
console.log(`${'task'.padEnd(18)}${'wasm (node)'.padStart(14)}${'native'.padStart(12)}${'wasm / native'.padStart(16)}`);
for (const id of a.tasks()) {
  const task = a.task(id);
  const wasm = [];
  for (let r = 0; r < 9; r++) {
    const run = a.trainer(task);
    const t0 = performance.now();
    run.step(300);
    if (r >= 2) wasm.push(300 / ((performance.now() - t0) / 1000));
    run.dispose();
  }
  // native: attn train at 300 and 1,200 steps; the difference removes start-up and reading the spec
  const timed = (steps) => {
    const text = JSON.stringify({ ...task, train: { ...task.train, steps } });
    const t0 = performance.now();
    execFileSync(attn, ['train', '-'], { input: text, maxBuffer: 1 << 26 });
    return performance.now() - t0;
  };
  const native = [];
  for (let r = 0; r < 5; r++) native.push(900 / ((timed(1200) - timed(300)) / 1000));
  const [w, n] = [median(wasm), median(native)];
  console.log(`${id.padEnd(18)}${w.toFixed(0).padStart(14)}${n.toFixed(0).padStart(12)}${(w / n).toFixed(2).padStart(16)}`);
}

console.log('\ntrain page (headless Chromium): frames per second and steps per second while the alignment lesson trains');
const server = await serveStatic(path.join(repo, 'site'));
const browser = await launchChromium();
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(`${server.url}train.html?lesson=alignment`);
  await page.waitForFunction(() => document.querySelector('attention-trainer')?.runs?.[0]?.stepper?.shadowRoot?.querySelector('.scene'));
  const inPage = await page.evaluate(async () => {
    // the page's own core, in its worker (every element on the page shares it): 300 steps a message
    const [stepper] = await window.attentionScripts; // the page's scripts (site/load.js)
    const a = await stepper.pageAttention();
    const task = await a.task('alignment');
    const rates = [];
    for (let r = 0; r < 9; r++) {
      const run = await a.trainer(task);
      const t0 = performance.now();
      const { error } = await a.trainTogether([run], 300, 1e9);
      if (error || run.done !== 300) throw new Error(`the page's core trained ${run.done} of 300 steps: ${error ?? ''}`);
      if (r >= 2) rates.push(300 / ((performance.now() - t0) / 1000));
      a.dispose(run);
    }
    return rates.sort((x, y) => x - y)[rates.length >> 1];
  });
  console.log(`alignment in the page's wasm, in its worker (Chromium, no drawing): ${inPage.toFixed(0)} steps/s`);
  console.log(`${'steps per frame'.padEnd(18)}${'frames/s'.padStart(10)}${'steps/s'.padStart(10)}${'longest frame'.padStart(16)}`);
  for (const perFrame of [1, 5, 20]) {
    const r = await page.evaluate(async (n) => {
      const t = document.querySelector('attention-trainer');
      await t.reset(); // new runs in the worker: settled before the target is set and play starts
      t.stepsPerFrame = n;
      t.target = 100000; // train for a fixed time, not to the lesson's end
      const stamps = [];
      const tick = (now) => { stamps.push(now); if (stamps.length < 400) requestAnimationFrame(tick); };
      t.play();
      requestAnimationFrame(tick);
      await new Promise((resolve) => setTimeout(resolve, 3000));
      t.pause();
      const gaps = stamps.slice(1).map((s, k) => s - stamps[k]);
      const seconds = (stamps.at(-1) - stamps[0]) / 1000;
      return { fps: (stamps.length - 1) / seconds, steps: t.done / 3, longest: Math.max(...gaps) };
    }, perFrame);
    console.log(`${String(perFrame).padEnd(18)}${r.fps.toFixed(1).padStart(10)}${r.steps.toFixed(0).padStart(10)}${(r.longest.toFixed(1) + ' ms').padStart(16)}`);
  }
} finally {
  await browser.close();
  await server.close();
}
