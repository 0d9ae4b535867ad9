// a.figure: the guided path's figures from the npm module's learn part are the native core's (attn figure),
// the part loads on demand, and a bad request is refused in the core's sentence.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { test } from 'node:test';

import { AttentionError, createAttention } from '../../web/src/node.js';
import { attnCli } from './helpers.mjs';

const a = await createAttention({ parts: [] });

function nativeFigure(name, request) {
  return JSON.parse(execFileSync(attnCli, ['figure', name, '-'], { input: JSON.stringify(request) }));
}

/** Every number of two answers within 1e-6 relative, every other value equal; fails naming the path. */
function assertClose(wasm, native, where = 'figure') {
  if (typeof native === 'number') {
    assert.equal(typeof wasm, 'number', `${where}: ${wasm} is not a number`);
    assert.ok(Math.abs(wasm - native) <= 1e-6 * Math.abs(native), `${where}: ${wasm} (wasm) vs ${native} (native)`);
  } else if (Array.isArray(native)) {
    assert.equal(wasm.length, native.length, `${where}: ${wasm.length} entries vs ${native.length}`);
    native.forEach((v, i) => assertClose(wasm[i], v, `${where}[${i}]`));
  } else if (native && typeof native === 'object') {
    assert.deepEqual(Object.keys(wasm), Object.keys(native), `${where}: fields`);
    for (const key of Object.keys(native)) assertClose(wasm[key], native[key], `${where}.${key}`);
  } else {
    assert.equal(wasm, native, where);
  }
}

test('a.figure needs the learn part, loaded on demand', async () => {
  assert.throws(() => a.figure('why-sqrt-dk'), (e) => e instanceof AttentionError && e.part === 'learn');
  await a.load('learn');
  assert.deepEqual(a.figure('why-sqrt-dk', { d_k: [8], trials: 3 }).d_k, [8]);
});

test('a.figure("why-sqrt-dk") = attn figure why-sqrt-dk (native) within 1e-6, defaults and a request', async () => {
  await a.load('learn');
  for (const request of [{}, { d_k: [3, 64, 1000], n_keys: 7, trials: 31, seed: 12 }]) {
    const wasm = a.figure('why-sqrt-dk', request);
    assertClose(wasm, nativeFigure('why-sqrt-dk', request), `why-sqrt-dk ${JSON.stringify(request)}`);
    assert.ok(wasm.unscaled.max_weight.at(-1) > 0.9 && wasm.scaled.max_weight.at(-1) < 0.6);
  }
  // JSON text is a request too, and no request is the defaults
  assert.deepEqual(a.figure('why-sqrt-dk', '{"d_k": [4], "trials": 5}'), a.figure('why-sqrt-dk', { d_k: [4], trials: 5 }));
  assert.deepEqual(a.figure('why-sqrt-dk').d_k, [4, 8, 16, 32, 64, 128, 256, 512]);
});

test('a.figure("rnn-limits") = attn figure rnn-limits (native) within 1e-6', async () => {
  await a.load('learn');
  const x = Array.from({ length: 20 }, (_, i) => Array.from({ length: 5 }, (_, c) => Math.sin(1.3 * i + 0.7 * c) + 0.1 * c));
  for (const request of [{ x }, { x: x.slice(0, 3), hidden: 33, seed: 4, gain: 2.5 }]) {
    const wasm = a.figure('rnn-limits', request);
    assertClose(wasm, nativeFigure('rnn-limits', request), `rnn-limits ${request.x.length} rows`);
  }
});

test('a.figure("cnn-rnn-attention"): the native counts exactly, measured times finite and positive', async () => {
  await a.load('learn');
  const request = { n: [4, 33, 300], d: 8, kernel: 7 };
  const wasm = a.figure('cnn-rnn-attention', request);
  const native = nativeFigure('cnn-rnn-attention', request);
  const counted = ({ rows }) => rows.map(({ microseconds, ...row }) => row);
  assert.deepEqual(counted(wasm), counted(native));
  for (const row of wasm.rows) {
    for (const kind of ['rnn', 'cnn', 'attention']) assert.ok(Number.isFinite(row.microseconds[kind]) && row.microseconds[kind] > 0, `${row.n} ${kind}`);
  }
});

test('a bad request: an AttentionError with the CLI\'s sentence, and the part keeps working', async () => {
  await a.load('learn');
  for (const [name, request] of [
    ['why-sqrt-dk', { d_k: [4, 0] }],
    ['why-sqrt-dk', { trials: 1001 }],
    ['rnn-limits', {}],
    ['rnn-limits', { x: [[1, 2]] }],
    ['cnn-rnn-attention', { kernel: 4 }],
    ['cnn-rnn-attention', { n: [1024], d: 256 }],
    ['softmax', {}],
  ]) {
    const cli = spawnSync(attnCli, ['figure', name, '-'], { input: JSON.stringify(request) });
    assert.equal(cli.status, 2);
    assert.equal(cli.stdout.length, 0);
    const sentence = cli.stderr.toString().replace(/^attn: /, '').trim();
    assert.throws(() => a.figure(name, request), (e) => e instanceof AttentionError && e.message === sentence, `${name} ${JSON.stringify(request)}: ${sentence}`);
  }
  assert.throws(() => a.figure('why-sqrt-dk', [1]), { name: 'AttentionError', message: /request must be an object/ });
  assert.throws(() => a.figure(7), { name: 'AttentionError', message: /takes a figure's name/ });
  assert.throws(() => a.figure('why-sqrt-dk', { d_k: [NaN] }), { name: 'AttentionError', message: /d_k\[0\] \(entry 1\) is NaN, not a finite number/ });
  assert.equal(a.figure('why-sqrt-dk', { d_k: [2], trials: 1 }).trials, 1);
});
