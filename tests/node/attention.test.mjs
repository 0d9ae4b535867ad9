// The public fast path a.attention({q, k, v, d, heads, causal}): the same numbers as the trace (and
// so as the articles' attention), every refusal one sentence naming the argument, and at
// n = 16384, d = 64 no n × n matrix: the wasm heap grows by the inputs and the output only.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { createAttention } from '../../web/src/node.js';
import { maxDiff, random } from './helpers.mjs';

const a = await createAttention();

test('a.attention equals the trace\'s merged context on random shapes, heads and causal masks', () => {
  const rand = random(99);
  let cases = 0;
  for (let i = 0; i < 60; i++) {
    const heads = 1 + Math.floor(rand() * 4), dh = 1 + Math.floor(rand() * 9), d = heads * dh;
    const causal = rand() < 0.5;
    const nQ = 1 + Math.floor(rand() * 20), nK = causal ? nQ : 1 + Math.floor(rand() * 20);
    const rows = (n) => Array.from({ length: n }, () => Array.from({ length: d }, () => Math.round((rand() * 4 - 2) * 1000) / 1000));
    const x = rows(nQ), memory = rows(nK);
    const trace = a.trace(causal ? { x, heads, mask: 'causal' } : { x, memory, heads });
    const kv = Float32Array.from((causal ? x : memory).flat());
    const out = a.attention({ q: Float32Array.from(x.flat()), k: kv, v: kv, d, heads, causal });
    const concat = trace.stages.find((s) => s.id === 'concat').data;
    const { first, worst } = maxDiff(out, concat, 2e-5);
    assert.equal(first, -1, `case ${i}: n_q ${nQ}, n_k ${nK}, heads ${heads}, d ${d}, causal ${causal}: max |diff| ${worst}`);
    cases++;
  }
  assert.equal(cases, 60);
});

test('a.attention equals the trace across several 64-key blocks (the online softmax\'s rescaling), causal and not', () => {
  const rand = random(41);
  for (const [nQ, nK, causal] of [[70, 200, false], [65, 129, false], [130, 130, true]]) {
    const d = 8;
    const rows = (n) => Array.from({ length: n }, () => Array.from({ length: d }, () => Math.round((rand() * 6 - 3) * 1000) / 1000));
    const x = rows(nQ), memory = causal ? x : rows(nK);
    const trace = a.trace(causal ? { x, mask: 'causal' } : { x, memory });
    const kv = Float32Array.from(memory.flat());
    const out = a.attention({ q: Float32Array.from(x.flat()), k: kv, v: kv, d, causal });
    const { first, worst } = maxDiff(out, trace.stages.find((st) => st.id === 'concat').data, 2e-5);
    assert.equal(first, -1, `n_q ${nQ}, n_k ${nK}, causal ${causal}: max |diff| ${worst}`);
  }
});

test('out: the result written into the caller\'s array (q itself too), the same numbers as a new one', () => {
  const rand = random(7);
  const n = 16, d = 8, values = (m) => Float32Array.from({ length: m }, () => rand() * 2 - 1);
  const q = values(n * d), k = values(2 * n * d), v = values(2 * n * d);
  for (const causal of [false, true]) {
    const fresh = a.attention({ q, k: causal ? q : k, v: causal ? q.map((x) => -x) : v, d, heads: 2, causal });
    const into = new Float32Array(n * d).fill(NaN);
    assert.equal(a.attention({ q, k: causal ? q : k, v: causal ? q.map((x) => -x) : v, d, heads: 2, causal, out: into }), into);
    assert.deepEqual(into, fresh);
  }
  const same = q.slice(); // out may be q: q was copied into the core before anything is written
  a.attention({ q: same, k, v, d, out: same });
  assert.deepEqual(same, a.attention({ q, k, v, d }));
  assert.throws(() => a.attention({ q, k, v, d, out: new Float32Array(n * d - 1) }),
    { name: 'AttentionError', message: `out must be a Float32Array of ${n * d} values (n_q × d, as q), not one of ${n * d - 1} values.` });
  assert.throws(() => a.attention({ q, k, v, d, out: [] }), { name: 'AttentionError', message: 'out must be a Float32Array of 128 values (n_q × d, as q), not an Array.' });
});

test('bad arguments: one sentence naming the argument, and the instance keeps working', () => {
  const f = (n) => new Float32Array(n);
  for (const [args, says] of [
    [{ q: [1, 2], k: f(2), v: f(2), d: 2 }, 'q must be a Float32Array (rows of d values, row-major), not an Array.'],
    [{ q: f(4), k: new Float64Array(4), v: f(4), d: 2 }, 'k must be a Float32Array (rows of d values, row-major), not a Float64Array.'],
    [{ q: f(0), k: f(2), v: f(2), d: 2 }, 'q is empty: it needs at least one row of d values.'],
    [{ q: f(4), k: f(4), v: f(4), d: 0 }, 'd is 0 but must be a whole number from 1 to 1024.'],
    [{ q: f(6), k: f(6), v: f(6), d: 6, heads: 4 }, 'd is 6 but heads is 4: d must be a multiple of heads.'],
    [{ q: f(5), k: f(4), v: f(4), d: 2 }, 'q has 5 values: not a whole number of rows of d = 2.'],
    [{ q: f(4), k: f(4), v: f(2), d: 2 }, 'k has 2 rows but v has 1: keys and values come in pairs.'],
    [{ q: Float32Array.of(1, NaN), k: f(2), v: f(2), d: 2 }, 'q[1] is not a finite number.'],
    [{ q: f(2), k: f(2), v: f(2), d: 2, causal: 1 }, 'causal is a number but must be true or false.'],
    [{ q: f(2), k: Float32Array.of(0, 0, 1, Infinity), v: f(4), d: 2 }, 'k[3] is not a finite number.'],
    [{ q: f(2), k: f(2), v: Float32Array.of(-Infinity, 0), d: 2 }, 'v[0] is not a finite number.'],
  ]) assert.throws(() => a.attention(args), { name: 'AttentionError', message: says });
  assert.throws(() => a.attentionBytes({ nQ: 4, nK: 0, d: 2 }), { name: 'AttentionError', message: 'nK is 0 but must be a whole number from 1 to 16777216.' });
  assert.equal(a.attention({ q: Float32Array.of(1, 0), k: Float32Array.of(1, 0), v: Float32Array.of(3, 4), d: 2 })[1], 4);
});

test('sizes past 2^32 bytes and unbounded work are refused before anything is allocated; the instance keeps working', () => {
  // issue 24's reproducer: 4·(2·q + k + v) bytes wrapped past 2³² before malloc and overran the heap for good
  const kv = new Float32Array(2 ** 28);
  const t0 = performance.now();
  assert.throws(() => a.attention({ q: new Float32Array(4096), k: kv, v: kv, d: 64 }),
    { name: 'AttentionError', message: /need 2049 MiB, over the 1024 MiB one attention\(\) call may hold/ });
  const wide = new Float32Array(1e5);
  assert.throws(() => a.attention({ q: wide, k: wide, v: wide, d: 1 }), { name: 'AttentionError', message: /over the 2\^36 one attention\(\) call may do/ });
  const long = new Float32Array(32768 * 64);
  assert.throws(() => a.attention({ q: long, k: long, v: long, d: 64 }), { name: 'AttentionError', message: /32768 × 32768 scores/ });
  assert.ok(performance.now() - t0 < 1000, 'refused within a second');
  assert.equal(a.example('numpy-3x4').stages.find((st) => st.id === 'weights').data[0].toFixed(4), '0.5065');
  assert.equal(a.attention({ q: Float32Array.of(1, 0), k: Float32Array.of(1, 0), v: Float32Array.of(3, 4), d: 2 })[1], 4);
});

test('n = 16384, d = 64: no n × n matrix (the wasm heap grows by less than 64 MiB), every value finite', () => {
  const n = 16384, d = 64;
  const q = Float32Array.from({ length: n * d }, (_, i) => 0.5 * Math.sin(0.37 * i));
  const heapBefore = a.memory().heapSize;
  const t0 = performance.now();
  const out = a.attention({ q, k: q, v: q, d, causal: true });
  const ms = performance.now() - t0;
  const grew = (a.memory().heapSize - heapBefore) / 2 ** 20;
  console.log(`a.attention n=${n} d=${d} causal: ${(ms / 1000).toFixed(2)} s, wasm heap grew ${grew.toFixed(1)} MiB (an n × n float matrix alone would be 1024 MiB)`);
  assert.ok(grew < 64, `the heap grew ${grew} MiB`);
  assert.equal(out.length, n * d);
  assert.ok(out.every(Number.isFinite));
  // row 1 sees only key 1: its output is v[1] itself
  assert.deepEqual(Array.from(out.subarray(0, d)), Array.from(q.subarray(0, d)));
  // what attentionBytes reports: linear in n (inputs, output, one head's K and a block of accumulators)
  const bytes = a.attentionBytes({ nQ: n, nK: n, d });
  assert.ok(bytes >= 4 * n * d * 4 && bytes < 6 * n * d * 4, `${bytes} bytes`);
  assert.ok(grew * 2 ** 20 <= bytes + 16 * 2 ** 20, 'the heap grew by about what attentionBytes says, no more');
  const half = a.attentionBytes({ nQ: n / 2, nK: n / 2, d });
  assert.ok(Math.abs(bytes / half - 2) < 0.05, `doubling n doubles the memory (${(bytes / half).toFixed(3)}×), it does not quadruple it`);
  // a small call's buffers fit the scratch the kernel keeps: it holds q, k, v and out only (16 × 8: 4 × 512 bytes),
  // and its heap does not grow, call after call
  assert.equal(a.attentionBytes({ nQ: 16, nK: 16, d: 8 }), 4 * 16 * 8 * 4);
  const small = new Float32Array(16 * 8).map((_, i) => Math.sin(i));
  a.attention({ q: small, k: small, v: small, d: 8 });
  const inUse = a.memory().heapInUse;
  for (let i = 0; i < 100; i++) a.attention({ q: small, k: small, v: small, d: 8 });
  assert.equal(a.memory().heapInUse, inUse, 'a small call leaves the heap as it found it');
});
