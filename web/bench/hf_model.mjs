// A model you bring, GPT-2 small's shape (12 layers, 12 heads, d 768, vocabulary 50,257; random weights in the
// Hugging Face layout), side by side in one run: our wasm forward pass (the npm package's model folder: the last
// token's next-token distribution; every stage kept: its trace) on 64 and 256 tokens, and one generated token
// through the key/value cache, against the same weights exported to ONNX by torch (gpt2_onnx.py) and run by
// onnxruntime-web's wasm backend (SIMD; 1 and 2 threads) with past keys and values, as transformers.js runs
// GPT-2. Both are checked to give the same next-token probabilities before anything is timed. Figures, not
// pass/fail; the best of a few runs each (a run of GPT-2 small takes 0.1-5 s).
//
// usage: node web/bench/hf_model.mjs FOLDER MODEL.onnx
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';

import { createAttention } from '../src/node.js';

const [folder, onnxPath] = process.argv.slice(2);
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

async function main() {
  const a = await createAttention();
  const files = Object.fromEntries(readdirSync(folder).map((f) => [f, new Uint8Array(readFileSync(path.join(folder, f)))]));
  let t0 = performance.now();
  const m = await a.loadModel({ files });
  const ourLoad = performance.now() - t0;
  const ort = await import('onnxruntime-web');
  ort.env.logLevel = 'error';
  const { n_layer: L, n_head: H, d_head: dh } = m.about;
  const sessions = {};
  for (const threads of [1, 2]) {
    ort.env.wasm.numThreads = threads;
    t0 = performance.now();
    sessions[threads] = { session: await ort.InferenceSession.create(readFileSync(onnxPath), { executionProviders: ['wasm'] }), load: performance.now() - t0 };
  }
  const empty = () => new ort.Tensor('float32', new Float32Array(0), [L, 2, H, 0, dh]);
  const ids = (n) => m.tokenize(`the${' the'.repeat(n - 1)}`).ids;
  const ortForward = (s, tokenIds, past = empty()) => s.run({ ids: new ort.Tensor('int64', BigInt64Array.from(tokenIds.map(BigInt)), [tokenIds.length]), past });
  console.log(`GPT-2-small-shaped model (${L} layers, ${H} heads, d ${m.about.d_model}, vocabulary ${m.about.n_vocab}, ${m.about.dtype}, ${(m.about.weight_bytes / 2 ** 20).toFixed(0)} MB); node ${process.version}; onnxruntime-web ${ort.env.versions.web}`);
  console.log(`load: ours ${ourLoad.toFixed(0)} ms (module heap ${(m.memory().heapInUse / 2 ** 20).toFixed(0)} MB); onnxruntime-web ${sessions[1].load.toFixed(0)} ms (1 thread), ${sessions[2].load.toFixed(0)} ms (2 threads)`);
  console.log('time, best of runs; ratio = onnxruntime-web\'s time ÷ ours (above 1: ours is faster)');
  const rows = [];
  for (const n of [64, 256]) {
    const tokens = ids(n);
    const text = `the${' the'.repeat(n - 1)}`;
    // the same model: our next-token distribution is onnxruntime-web's softmax of its logits
    const ours = m.next(text, 1)[0];
    const theirs = softmaxTop((await ortForward(sessions[1].session, tokens)).logits.data);
    if (ours.id !== theirs.id || Math.abs(ours.p - theirs.p) > 1e-4) throw new Error(`n ${n}: ours ${JSON.stringify(ours)} vs onnxruntime-web ${JSON.stringify(theirs)}`);
    const forward = await best(() => m.next(text, 1));
    const traced = await best(() => { for (const s of m.trace(text).stages) void s.data; }); // every stage copied out, as the page reads it
    const ortMs = {};
    for (const threads of [1, 2]) ortMs[threads] = await best(() => ortForward(sessions[threads].session, tokens));
    // one token through the cache of n: ours is generate's per-token cost (prompt pass subtracted); theirs one run with past
    const prompt = await best(() => m.next(text, 1), 1);
    const gen = (await best(() => m.generate(text, { n: STEPS + 1, temperature: 0 }), 2) - prompt) / STEPS;
    const ortStep = {};
    for (const threads of [1, 2]) {
      const s = sessions[threads].session;
      const first = await ortForward(s, tokens);
      ortStep[threads] = await best(() => ortForward(s, [464], first.present));
    }
    rows.push({ n, forward, traced, ortMs, gen, ortStep });
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
