// Long work watched and stopped, as the ecosystem does it (fetch, onnxruntime-web, transformers.js): loadModel's
// onProgress, an AbortSignal for loading, training and generation, training that gives the event loop a turn
// after every step, dispose(), a `code` on every AttentionError, and a second createAttention() with other
// options refused. The checks count events and their order, not time: a busy machine passes or fails them alike.
import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'node:test';

import { serveStatic, webDir } from './helpers.mjs';

const { createAttention, AttentionError } = await import(pathToFileURL(path.join(webDir, 'src/node.js')));
const zhBytes = statSync(path.join(webDir, 'models/zh.safetensors')).size;
const a = await createAttention({ parts: [] });
const poem = '床前明月光，疑是地上霜。举头望明月，低头思故乡。\n'.repeat(8); // 200 characters: more than one window of n_ctx 128

const isAbort = (e) => e?.name === 'AbortError';

test('every AttentionError has a code to branch on', async () => {
  assert.throws(() => a.trace({ x: [[1, 2], [3]] }), (e) => e instanceof AttentionError && e.code === 'ERR_ATTN_INVALID' && /x/.test(e.message));
  assert.throws(() => a.grad({}), (e) => e.code === 'ERR_ATTN_PART_NOT_LOADED' && e.part === 'learn');
  const m = await a.loadModel('zh');
  m.dispose();
  assert.throws(() => m.generate('床', { n: 2 }), (e) => e instanceof AttentionError && e.code === 'ERR_ATTN_DISPOSED');
  await assert.rejects(a.loadModel('zz'), (e) => e.code === 'ERR_ATTN_INVALID');
});

test('loadModel: onProgress reports the weights\' bytes; an aborted signal stops it with the signal\'s reason', async () => {
  const reports = [];
  const m = await a.loadModel('zh', { onProgress: (p) => reports.push(p) });
  assert.deepEqual(reports, [{ loaded: zhBytes, total: zhBytes }]); // Node reads the file at once: one report
  m.dispose();
  const stop = new AbortController();
  stop.abort();
  await assert.rejects(a.loadModel('zh', { signal: stop.signal }), isAbort);
  const why = new Error('the reader left');
  await assert.rejects(a.loadModel('en', { signal: AbortSignal.abort(why) }), (e) => e === why);
  await assert.rejects(a.loadModel('zh', { signal: 'stop' }), (e) => e.code === 'ERR_ATTN_INVALID' && /options\.signal must be an AbortSignal/.test(e.message));
  await assert.rejects(a.loadModel('zh', { onProgress: 1 }), /onProgress must be a function/);
});

test('m.train gives the event loop a turn after every step, and its signal stops it within one step', async () => {
  const m = await a.loadModel('zh');
  let ticks = 0;
  const timer = setInterval(() => ticks++, 1);
  const steps = [];
  const stop = new AbortController();
  try {
    // a timer keeps ticking while it trains: at least once between two steps
    const ticksAtStep = [];
    const losses = await m.train(poem, { steps: 6, batch: 2, onStep: ({ step }) => { steps.push(step); ticksAtStep.push(ticks); } });
    assert.equal(losses.length, 6);
    assert.ok(losses.every((l) => l > 0 && l < 10), `losses in nats per character: ${losses}`);
    for (let k = 1; k < ticksAtStep.length; k++) assert.ok(ticksAtStep[k] > ticksAtStep[k - 1], `the timer ticked between steps ${k} and ${k + 1}: ${ticksAtStep}`);
    // aborted from a timer while it runs (not from its own callback): no step after the one running then
    steps.length = 0;
    let stoppedAfter = null;
    const run = m.train(poem, { steps: 50, batch: 2, signal: stop.signal, onStep: ({ step }) => {
      steps.push(step);
      if (step === 3) setTimeout(() => { stoppedAfter = steps.length; stop.abort(); }, 0);
    } });
    await assert.rejects(run, isAbort);
    assert.ok(stoppedAfter !== null && stoppedAfter <= 4, `aborted after step ${stoppedAfter}`);
    assert.equal(steps.length, stoppedAfter, `no step ran after the abort: ${steps}`);
    // an aborted signal: not one step
    steps.length = 0;
    await assert.rejects(m.train(poem, { steps: 5, batch: 2, signal: stop.signal, onStep: ({ step }) => steps.push(step) }), isAbort);
    assert.deepEqual(steps, []);
  } finally {
    clearInterval(timer);
    m.dispose();
  }
});

test('m.generate: an aborted signal stops it before it starts; otherwise the signal changes nothing', async () => {
  const m = await a.loadModel('zh');
  const plain = m.generate('床前', { n: 6, temperature: 0 });
  assert.equal(m.generate('床前', { n: 6, temperature: 0, signal: new AbortController().signal }), plain);
  assert.throws(() => m.generate('床前', { n: 6, signal: AbortSignal.abort() }), isAbort);
  m.dispose();
});

test('the browser entry: filesUrl is honoured (progress as the bytes arrive, abort mid-download); other options on a second call are refused', async () => {
  const index = await import(pathToFileURL(path.join(webDir, 'src/index.js')));
  const server = await serveStatic(webDir);
  try {
    const wasmBinary = readFileSync(path.join(webDir, 'dist/core/attention_core.wasm'));
    const b = await index.createAttention({ wasmBinary, parts: [], filesUrl: server.url });
    assert.equal(await index.createAttention({ parts: [], filesUrl: server.url }), b, 'the same options: the same API');
    await assert.rejects(index.createAttention({ parts: [] }), (e) => e instanceof index.AttentionError && e.code === 'ERR_ATTN_OPTIONS' && /options\.filesUrl differs/.test(e.message));
    await assert.rejects(index.createAttention({ filesUrl: server.url, loadPart: async () => ({}) }), (e) => e.code === 'ERR_ATTN_OPTIONS' && /loadPart/.test(e.message));
    // the weights fetched from filesUrl over http, reported chunk by chunk
    const reports = [];
    const m = await b.loadModel('zh', { onProgress: (p) => reports.push(p) });
    assert.ok(reports.length >= 1);
    assert.deepEqual(reports.at(-1), { loaded: zhBytes, total: zhBytes });
    assert.ok(reports.every((r, k) => k === 0 || r.loaded > reports[k - 1].loaded), 'loaded only grows');
    assert.equal(m.generate('床前', { n: 4, temperature: 0 }), (await a.loadModel('zh')).generate('床前', { n: 4, temperature: 0 }));
    // aborted while the bytes arrive
    const stop = new AbortController();
    await assert.rejects(b.loadModel('en', { signal: stop.signal, onProgress: () => stop.abort() }), isAbort);
    b.dispose();
    assert.throws(() => b.example('translation'), (e) => e.code === 'ERR_ATTN_DISPOSED');
    const c = await index.createAttention({ wasmBinary, parts: [], filesUrl: `${server.url}nowhere/` });
    assert.notEqual(c, b, 'after dispose(), a fresh API with its own options');
    // a folder without the files: one sentence, with a code
    await assert.rejects(c.loadModel('en'), (e) => e.code === 'ERR_ATTN_LOAD_FAILED' && /the en model could not be loaded \(HTTP 404/.test(e.message));
    assert.equal(c.example('translation').stages.find((s) => s.id === 'weights').data[1].toFixed(4), '0.8874');
  } finally {
    await server.close();
  }
});

test('a.dispose(): every later call refused with ERR_ATTN_DISPOSED; the next createAttention() is a fresh one', async () => {
  const before = a.example('translation').stages.at(-1).data.slice();
  a.dispose();
  assert.throws(() => a.example('translation'), (e) => e instanceof AttentionError && e.code === 'ERR_ATTN_DISPOSED' && /disposed/.test(e.message));
  await assert.rejects(async () => a.loadModel('zh'), (e) => e.code === 'ERR_ATTN_DISPOSED');
  const fresh = await createAttention({ parts: [] });
  assert.notEqual(fresh, a);
  assert.deepEqual(fresh.example('translation').stages.at(-1).data, before);
});
