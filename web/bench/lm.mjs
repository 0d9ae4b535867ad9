// The language models' figures (docs/model.md), side by side in one run: held-out bits per character
// beside a unigram and an interpolated bigram on the same split, the best head of each kind, m.trace of
// 64 characters and m.generate in wasm (Node), training throughput natively and in wasm, the file sizes.
// usage: node web/bench/lm.mjs [path/to/attn]
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { createAttention } from '../src/node.js';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const attn = process.argv[2] ?? path.join(repo, 'build/native/bin/attn');
const lm = (...args) => JSON.parse(execFileSync(attn, ['lm', ...args], { encoding: 'utf8', maxBuffer: 1 << 28 }));
const a = await createAttention();
const median = (xs) => xs.slice().sort((p, q) => p - q)[Math.floor(xs.length / 2)];
const texts = {
  zh: '床前明月光，疑是地上霜。举头望明月，低头思故乡。白日依山尽，黄河入海流。欲穷千里目，更上一层楼。春眠不觉晓，处处闻啼鸟。夜来风雨',
  en: 'The cat sat on the mat. The cat sat on the mat. A dog ran in the',
};

for (const name of ['zh', 'en']) {
  const file = path.join(repo, 'web/models', `${name}.safetensors`);
  const bytes = readFileSync(file);
  const ev = lm('eval', '--model', file, '--heldout');
  const heads = lm('heads', '--model', file);
  const best = (key, later = false) => heads.filter((h) => h[key] !== undefined && (!later || h.layer > 0))
    .reduce((p, q) => (q[key] > p[key] ? q : p));
  console.log(`== ${name} (${ev.corpus.join(', ')}): ${bytes.length} bytes, ${gzipSync(bytes, { level: 9 }).length} gzipped (budget 800 KB)`);
  console.log(`held-out bits/char over ${ev.characters} characters: model ${ev.bits_per_char.toFixed(3)}, bigram ${ev.bigram_bits_per_char.toFixed(3)} ` +
    `(λ ${ev.bigram_lambda}), unigram ${ev.unigram_bits_per_char.toFixed(3)}; the model is ${(ev.bigram_bits_per_char - ev.bits_per_char).toFixed(3)} bits/char below the bigram`);
  for (const [key, later] of [['previous_token', false], ['induction', true], ['first_token', false], ['line_alignment', false]]) {
    if (heads[0][key] === undefined) continue;
    const h = best(key, later);
    console.log(`best ${key}${later ? ' (layer ≥ 2)' : ''}: head ${h.layer + 1}.${h.head + 1} = ${h[key].toFixed(3)}`);
  }
  const m = await a.loadModel(name);
  const text = [...texts[name]].slice(0, 64).join('');
  // steady state, as a page typing into the model sees it: V8 tiers hot wasm functions up after some calls
  for (let i = 0; i < 50; i++) m.trace(text);
  const times = [];
  for (let i = 0; i < 100; i++) {
    const t0 = performance.now();
    m.trace(text);
    times.push(performance.now() - t0);
  }
  let t0 = performance.now();
  const generated = m.generate([...text].slice(0, 8).join(''), { n: 500, temperature: 0.8, seed: 1 });
  const genRate = 500 / ((performance.now() - t0) / 1000);
  const corpusText = texts[name].repeat(8);
  t0 = performance.now();
  await m.train(corpusText, { steps: 10, batch: 16, lr: 1e-4 });
  const wasmTokens = (10 * 16 * 64) / ((performance.now() - t0) / 1000);
  const log = readFileSync(path.join(repo, 'build/native/models', `${name}.log`), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  const last = log.at(-1);
  console.log(`wasm (Node): m.trace of ${[...text].length} characters median ${median(times).toFixed(2)} ms (best ${Math.min(...times).toFixed(2)}; goal ≤ 3 ms); ` +
    `m.generate ${genRate.toFixed(0)} characters/s (goal ≥ 200)`);
  console.log(`training: native ${last.tokens_per_second} tokens/s (the build's run: ${last.step} steps in ${last.seconds} s), wasm ${wasmTokens.toFixed(0)} tokens/s`);
  console.log(`sample at temperature 0.8, seed 1: ${JSON.stringify(generated.slice(0, 160))}`);
  m.dispose();
  console.log();
}
