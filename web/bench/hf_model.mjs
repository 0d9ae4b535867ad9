// A model you bring, GPT-2 small's shape (12 layers, 12 heads, d 768, vocabulary 50,257; random weights in the
// Hugging Face layout), side by side in one run: our wasm forward pass (the npm package's model folder: the last
// token's next-token distribution; every stage kept: its trace) on 64 and 256 tokens, and one generated token
// through the key/value cache, against the same weights exported to ONNX by torch (gpt2_onnx.py) and run by
// onnxruntime-web's wasm backend (SIMD; 1 and 2 threads) with past keys and values, as transformers.js runs
// GPT-2. Both are checked to give the same next-token probabilities before anything is timed. Figures, not
// pass/fail; the best of a few runs each (a run of GPT-2 small takes 0.1-5 s). onnxruntime-web reads its thread
// count once, when its wasm starts, so each count runs in a process of its own (this script with --ort N).
//
// usage: node web/bench/hf_model.mjs FOLDER MODEL.onnx
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { createAttention } from '../src/node.js';

const ortThreads = process.argv[2] === '--ort' ? Number(process.argv[3]) : 0;
const [folder, onnxPath] = process.argv.slice(ortThreads ? 4 : 2);
const SIZES = [64, 256];
const textOf = (n) => `the${' the'.repeat(n - 1)}`; // "the" is one GPT-2 token, " the" another: n tokens
const REPEAT = 3;
const STEPS = 8; // generated tokens timed per cached run

async function best(run, repeat = REPEAT) {
  let least = Infinity;
  for (let r = 0; r < repeat; ++r) {
    const t0 = performance.now();
    await run();
    least = Math.min(least, performance.now() - t0);
  }
  return least;
}

const softmaxTop = (logits) => {
  let top = 0;
  for (let i = 1; i < logits.length; ++i) if (logits[i] > logits[top]) top = i;
  let sum = 0;
  for (const z of logits) sum += Math.exp(z - logits[top]);
  return { id: top, p: 1 / sum };
};

/** onnxruntime-web alone with `threads` threads: per n, its next token, a forward pass and one step with past. */
async function ortRuns(threads, L, H, dh, idsOf) {
  const ort = await import('onnxruntime-web');
  ort.env.logLevel = 'error';
  ort.env.wasm.numThreads = threads;
  let t0 = performance.now();
  const session = await ort.InferenceSession.create(readFileSync(onnxPath), { executionProviders: ['wasm'] });
  const load = performance.now() - t0;
  const empty = () => new ort.Tensor('float32', new Float32Array(0), [L, 2, H, 0, dh]);
  const run = (tokenIds, past = empty()) => session.run({ ids: new ort.Tensor('int64', BigInt64Array.from(tokenIds.map(BigInt)), [tokenIds.length]), past });
  const rows = [];
  for (const [n, tokens] of idsOf) {
    const first = await run(tokens);
    const top = softmaxTop(first.logits.data);
    const forward = await best(() => run(tokens));
    const step = await best(() => run([464], first.present));
    rows.push({ n, top, forward, step });
  }
  return { version: ort.env.versions.web, load, rows };
}

async function main() {
  const a = await createAttention();
  const files = Object.fromEntries(readdirSync(folder).map((f) => [f, new Uint8Array(readFileSync(path.join(folder, f)))]));
  const t0 = performance.now();
  const m = await a.loadModel({ files });
  const ourLoad = performance.now() - t0;
  const { n_layer: L, n_head: H, d_head: dh } = m.about;
  const idsOf = SIZES.map((n) => [n, m.tokenize(textOf(n)).ids]);
  if (ortThreads) {
    console.log(JSON.stringify(await ortRuns(ortThreads, L, H, dh, idsOf)));
    return m.dispose();
  }
  const theirs = {};
  for (const threads of [1, 2]) {
    const out = execFileSync(process.execPath, [fileURLToPath(import.meta.url), '--ort', String(threads), folder, onnxPath], { encoding: 'utf8', maxBuffer: 1 << 24 });
    theirs[threads] = JSON.parse(out.trim().split('\n').at(-1));
  }
  console.log(`GPT-2-small-shaped model (${L} layers, ${H} heads, d ${m.about.d_model}, vocabulary ${m.about.n_vocab}, ${m.about.dtype}, ${(m.about.weight_bytes / 2 ** 20).toFixed(0)} MB); node ${process.version}; onnxruntime-web ${theirs[1].version}`);
  console.log(`load: ours ${ourLoad.toFixed(0)} ms (module heap ${(m.memory().heapInUse / 2 ** 20).toFixed(0)} MB); onnxruntime-web ${theirs[1].load.toFixed(0)} ms (1 thread), ${theirs[2].load.toFixed(0)} ms (2 threads)`);
  console.log('time, best of runs; ratio = onnxruntime-web\'s time ÷ ours (above 1: ours is faster); ours runs on one thread');
  const rows = [];
  for (const [k, n] of SIZES.entries()) {
    const text = textOf(n);
    // the same model: our next-token distribution is onnxruntime-web's softmax of its logits
    const ours = m.next(text, 1)[0];
    for (const threads of [1, 2]) {
      const top = theirs[threads].rows[k].top;
      if (ours.id !== top.id || Math.abs(ours.p - top.p) > 1e-4) throw new Error(`n ${n}: ours ${JSON.stringify(ours)} vs onnxruntime-web (${threads} threads) ${JSON.stringify(top)}`);
    }
    const forward = await best(() => m.next(text, 1));
    const traced = await best(() => { for (const s of m.trace(text).stages) void s.data; }); // every stage copied out, as the page reads it
    // one token through the cache of n: generate's per-token cost (the prompt's pass subtracted)
    const prompt = await best(() => m.next(text, 1), 1);
    const gen = (await best(() => m.generate(text, { n: STEPS + 1, temperature: 0 }), 2) - prompt) / STEPS;
    rows.push({ n, forward, traced, gen, ortMs: { 1: theirs[1].rows[k].forward, 2: theirs[2].rows[k].forward }, ortStep: { 1: theirs[1].rows[k].step, 2: theirs[2].rows[k].step } });
  }
  const f = (x) => `${x.toFixed(1)} ms`.padStart(10);
  const r = (x) => `${x.toFixed(2)}×`.padStart(7);
  console.log(`${'n'.padStart(4)} ${'ours'.padStart(10)} ${'ORT 1 thr'.padStart(10)} ${'ratio'.padStart(7)} ${'ORT 2 thr'.padStart(10)} ${'ratio'.padStart(7)} ${'ours traced'.padStart(12)} ${'trace÷fwd'.padStart(9)}   ` +
    `${'our step'.padStart(10)} ${'ORT step 1'.padStart(10)} ${'ratio'.padStart(7)} ${'ORT step 2'.padStart(10)} ${'ratio'.padStart(7)}`);
  for (const x of rows) {
    console.log(`${String(x.n).padStart(4)} ${f(x.forward)} ${f(x.ortMs[1])} ${r(x.ortMs[1] / x.forward)} ${f(x.ortMs[2])} ${r(x.ortMs[2] / x.forward)} ${f(x.traced).padStart(12)} ${r(x.traced / x.forward).padStart(9)}   ` +
      `${f(x.gen)} ${f(x.ortStep[1])} ${r(x.ortStep[1] / x.gen)} ${f(x.ortStep[2])} ${r(x.ortStep[2] / x.gen)}`);
  }
  m.dispose();
}

await main();
