// 10,000 calls, valid and invalid mixed, leave the wasm heap where it started.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { createAttention } from '../../web/src/node.js';

const PAGE = 65536;

test('10,000 mixed calls leave the wasm heap where it started (± one page)', async () => {
  const a = await createAttention();
  const calls = [
    () => a.trace({ x: [[1, 0, 1, 0], [0, 1, 0, 1], [1, 1, 0, 0]] }),
    () => a.trace({ x: [[1, 2], [3]] }),                                   // ragged: refused in C++
    () => a.example('multi-head'),
    () => a.trace('{"x": [[1, 2]], "heads": 3}'),                          // refused by validate
    () => a.example('bank', 'finance'),
    () => a.trace('{"x": [[1e39]]}'),                                      // refused while reading
    () => a.example('nope'),                                               // unknown example
    () => a.trace({ x: [[3e38, 3e38]] }),                                  // overflows inside compute
    () => a.trace({ x: [[1, 2], [3, 4]], mask: { matrix: [[1, 0], [2, 1]] } }),
    () => a.example('translation'),
  ];
  // warm-up: let every path allocate its one-time statics (example documents, stage texts)
  for (const call of calls) try { call(); } catch { /* refusals are part of the mix */ }
  const before = a.memory();
  let refused = 0;
  for (let i = 0; i < 10000; i++) {
    try {
      calls[i % calls.length]();
    } catch (e) {
      assert.equal(e.name, 'AttentionError', e.message);
      refused++;
    }
  }
  const after = a.memory();
  assert.equal(refused, 6000); // six of the ten calls are refusals
  assert.ok(Math.abs(after.heapInUse - before.heapInUse) <= PAGE,
    `heap in use went from ${before.heapInUse} to ${after.heapInUse} bytes`);
  assert.ok(after.heapSize - before.heapSize <= PAGE, `the heap grew from ${before.heapSize} to ${after.heapSize}`);
  assert.equal(a.example('numpy-3x4').stages.find((s) => s.id === 'weights').data[0].toFixed(4), '0.5065');
});

test('a.trace keeps a bounded number of the structures it has read: 300 different ones hold no more heap than 100', async () => {
  const a = await createAttention();
  const x = Array.from({ length: 64 }, (_, i) => Array.from({ length: 64 }, (_, c) => Math.sin(i + c)));
  const traceLabelled = (k) => a.trace({ x, tokens: { query: x.map((_, i) => `w${k}_${i}`) } }); // a new structure each time
  for (let k = 0; k < 100; k++) traceLabelled(k);
  const before = a.memory().heapInUse;
  for (let k = 100; k < 300; k++) traceLabelled(k);
  const grown = a.memory().heapInUse - before;
  assert.ok(grown <= 4 * PAGE, `200 more structures kept ${grown} more bytes (each holds 16 KiB of x)`);
});

test('a large trace gives its memory back: after a small trace the heap holds what it held before', async () => {
  const a = await createAttention();
  const small = { x: [[1, 0], [0, 1]] };
  a.trace(small);
  const before = a.memory().heapInUse;
  const x = Array.from({ length: 600 }, (_, i) => Array.from({ length: 64 }, (_, c) => Math.cos(i * c)));
  const big = a.trace(JSON.stringify({ x, mask: 'causal' })); // text: not kept by structure
  assert.ok(big.bytes > 6 * 2 ** 20, `a trace of ${big.bytes} bytes`);
  a.trace(small);
  const after = a.memory().heapInUse;
  assert.ok(after - before <= PAGE, `the heap holds ${after - before} more bytes after the large trace`);
});
