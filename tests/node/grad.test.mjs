// a.grad: the npm module's gradients are the native core's (attn grad) on random specs of every kind,
// finite differences of a.trace() agree with them, and bad loss fields are refused by name.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { test } from 'node:test';

import { createAttention } from '../../web/src/node.js';
import { attnCli, random, randomSpec } from './helpers.mjs';

const a = await createAttention();
const lastStage = (t) => (t.stages.find((s) => s.id === 'output') ?? t.stages.find((s) => s.id === 'concat'));

function flat(value) {
  return Array.isArray(value) ? value.flat(Infinity) : Object.values(value).flatMap(flat);
}

test('a.grad = attn grad (native) on 40 random specs, mse and cross-entropy', () => {
  const rand = random(17);
  let compared = 0;
  for (let i = 0; i < 40; i++) {
    const spec = randomSpec(rand, i);
    let t;
    try { t = a.trace(spec); } catch { continue; } // the random specs include refusals: not this test's business
    const [, rows, cols] = [0, ...lastStage(t).shape.slice(-2)];
    const withLoss = i % 2
      ? { ...spec, loss: 'cross_entropy', labels: Array.from({ length: rows }, (_, r) => (r + i) % cols) }
      : { ...spec, target: Array.from({ length: rows }, (_, r) => Array.from({ length: cols }, (_, c) => Math.sin(r + 2 * c))) };
    const wasm = a.grad(withLoss);
    const native = JSON.parse(execFileSync(attnCli, ['grad', '-'], { input: JSON.stringify(withLoss) }));
    assert.ok(Math.abs(wasm.loss - native.loss) <= 1e-5 * Math.max(1, Math.abs(native.loss)), `loss ${wasm.loss} vs ${native.loss}`);
    assert.deepEqual(Object.keys(wasm.grads), Object.keys(native.grads));
    const [w, n] = [flat(wasm.grads), flat(native.grads)];
    w.forEach((x, k) => assert.ok(Math.abs(x - n[k]) <= 1e-5 * Math.max(1, Math.abs(n[k])), `grads differ at ${k}: ${x} vs ${n[k]}`));
    assert.deepEqual(wasm.stage_grads.map((s) => s.id), native.stage_grads.map((s) => s.id));
    assert.deepEqual(wasm.stage_grads.map((s) => s.id), t.stages.map((s) => s.id), 'one gradient per stage of the trace');
    compared++;
  }
  assert.ok(compared >= 20, `only ${compared} specs compared`);
});

test('a.grad against finite differences of a.trace(): W_q of the basic-attention example', () => {
  const spec = a.example('basic-attention').spec;
  const target = lastStage(a.trace(spec)).data;
  const [rows, cols] = lastStage(a.trace(spec)).shape.slice(-2);
  const goal = Array.from({ length: rows }, (_, r) => Array.from({ length: cols }, (_, c) => Math.cos(r - c)));
  const g = a.grad({ ...spec, target: goal });
  const lossOf = (s) => {
    const y = lastStage(a.trace(s)).data;
    let sum = 0;
    for (let k = 0; k < y.length; k++) sum += (y[k] - goal[Math.floor(k / cols)][k % cols]) ** 2;
    return sum / y.length;
  };
  assert.ok(Math.abs(lossOf(spec) - g.loss) < 1e-5);
  assert.ok(target.length === rows * cols);
  const wq = spec.weights.wq;
  for (const [i, j] of [[0, 0], [1, 2], [2, 1]]) {
    const h = 1 / 256;
    const at = (delta) => ({ ...spec, weights: { ...spec.weights, wq: wq.map((row, r) => row.map((v, c) => (r === i && c === j ? v + delta : v))) } });
    const fd = (lossOf(at(h)) - lossOf(at(-h))) / (2 * h);
    assert.ok(Math.abs(fd - g.grads.wq[i][j]) <= 1e-3 + 1e-2 * Math.abs(fd), `dL/dwq[${i}][${j}] = ${g.grads.wq[i][j]}, finite difference ${fd}`);
  }
});

test('bad loss fields: one sentence naming the field, and the module keeps working', () => {
  for (const [spec, says] of [
    [{ x: [[1, 0]] }, /has no "target"/],
    [{ x: [[1, 0]], target: [[1]] }, /target is 1 × 1 but the last stage is 1 × 2/],
    [{ x: [[1, 0]], loss: 'hinge', target: [[1, 0]] }, /loss "hinge" is unknown/],
    [{ x: [[1, 0]], loss: 'cross_entropy', labels: [5] }, /labels\[0\] \(entry 1\) is 5; at most 1/],
    // traced and explained, not yet differentiated: said in one sentence, not a wrong gradient
    [{ x: [[1, 0]], positional: 'rotary', target: [[0, 1]] }, /^positional is rotary, whose backward pass the core does not have yet/],
    [{ x: [[1, 0, 1, 0]], heads: 2, kv_heads: 1, weights: { wk: [[1, 0], [0, 1], [1, 0], [0, 1]], wv: [[1, 0], [0, 1], [1, 0], [0, 1]] },
      target: [[0, 1, 0, 1]] }, /^kv_heads is 1, fewer than heads, and the core's backward pass has no shared key\/value heads yet/],
  ]) assert.throws(() => a.grad(spec), { name: 'AttentionError', message: says });
  assert.throws(() => a.trainer({ x: [[1, 0]], positional: 'rotary', train: { data: [{ x: [[1, 0]], target: [[0, 1]] }], params: ['wq'], optimizer: { adam: { lr: 0.01 } }, steps: 1 } }),
    { name: 'AttentionError', message: /^positional is rotary/ });
  assert.ok(a.grad({ x: [[1, 0]], target: [[0, 1]] }).loss > 0);
});

test('a.train and a.trainer: the same losses and trained weights as attn train (native); onStep every step; dispose frees', () => {
  const data = [
    { x: [[1, 0, 0], [0, 1, 0]], memory: [[0, 1, 0], [1, 0, 0], [0, 0, 1]], target: [[0, 1, 0], [1, 0, 0]] },
    { x: [[0, 1, 0], [0, 0, 1], [1, 0, 0]], memory: [[1, 0, 0], [0, 0, 1], [0, 1, 0]], target: [[1, 0, 0], [0, 0, 1], [0, 1, 0]] },
  ];
  const spec = {
    x: data[0].x, memory: data[0].memory,
    weights: { wq: [[0.2, -0.1, 0], [0.1, 0.3, 0.1], [0, 0, 0.2]], wk: [[0.1, 0, 0.2], [0, -0.2, 0.1], [0.3, 0.1, 0]] },
    train: { data, params: ['wq', 'wk'], optimizer: { adam: { lr: 0.05 } }, steps: 25 },
  };
  const seen = [];
  const { losses, spec: trained } = a.train(spec, { onStep: ({ step, loss }) => seen.push([step, loss]) });
  assert.deepEqual(seen.map(([k]) => k), Array.from({ length: 25 }, (_, k) => k + 1));
  const lines = execFileSync(attnCli, ['train', '-'], { input: JSON.stringify(spec) }).toString().trim().split('\n').map((l) => JSON.parse(l));
  const nativeLosses = lines.slice(0, 25).map((l) => l.loss), nativeSpec = lines[25];
  losses.forEach((l, k) => assert.ok(Math.abs(l - nativeLosses[k]) < 1e-5, `step ${k + 1}: ${l} vs ${nativeLosses[k]}`));
  trained.weights.wq.flat().forEach((w, k) => assert.ok(Math.abs(w - nativeSpec.weights.wq.flat()[k]) < 1e-5));
  assert.ok(losses[24] < losses[0], 'the loss falls');
  // step by step gives the same as all at once
  const run = a.trainer(spec);
  const parts = [...run.step(10), ...run.step(15)];
  assert.deepEqual(parts, Array.from(losses));
  run.dispose();
  assert.throws(() => run.step(), { name: 'AttentionError', message: 'this trainer was disposed of.' });
  // a hundred trainers made and disposed of leave the heap as it was
  const before = a.memory().heapInUse;
  for (let k = 0; k < 100; k++) a.trainer(spec).dispose();
  assert.ok(a.memory().heapInUse - before < 64 * 1024, `${a.memory().heapInUse - before} bytes kept`);
  assert.throws(() => a.trainer({ ...spec, train: { ...spec.train, params: ['bq'] } }), { name: 'AttentionError', message: 'train.params names bq but the spec has no bq: give its starting values.' });
});

test('a.task: the training tasks are the core\'s (the same JSON as attn task), and alignment trains in the module', () => {
  assert.deepEqual(a.tasks(), ['alignment', 'positions-pe', 'positions-no-pe', 'scaling-sqrt-dk', 'scaling-none']);
  for (const id of a.tasks()) {
    const native = JSON.parse(execFileSync(attnCli, ['task', id]));
    assert.deepEqual(a.task(id), native, id);
  }
  assert.throws(() => a.task('copy'), { name: 'AttentionError', message: /training task "copy" is unknown/ });
  const run = a.trainer(a.task('alignment'));
  const losses = run.step(60);
  run.dispose();
  assert.ok(losses[59] < 0.5 * losses[0], `the alignment loss falls: ${losses[0]} → ${losses[59]}`);
});

test('a.explainGrad: every stage\'s sentence ends in its gradient, exactly; bad cells and stages are refused', () => {
  const spec = { x: [[1, 0.5, -1, 2], [0, 1, 0.25, 1], [1, 1, 0, -0.5]], heads: 2, mask: 'causal', positional: 'sinusoidal',
    weights: { wq: [[1, 0, 0.5, 1], [0, 1, 1, 0], [1, -1, 0, 0], [0, 0, 1, 1]], wo: [[1, 0.5, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0.5], [0, 0, 0, 1]] },
    target: [[0, 1, 0, 0], [1, 0, 0, 0], [0.5, 0, 0.5, 0]] };
  const g = a.grad(spec);
  for (const s of g.stage_grads) {
    const merged = ['q', 'k', 'v'].includes(s.id);
    const cell = merged ? { i: 1, j: 3 } : { head: s.shape.length === 3 ? s.shape[0] - 1 : 0, i: 1, j: 0 };
    const said = a.explainGrad(spec, s.id, { ...cell, detail: true });
    const [rows, cols] = s.shape.slice(-2);
    const index = merged ? (Math.floor(cell.j / cols) * rows + cell.i) * cols + (cell.j % cols) : ((cell.head ?? 0) * rows + cell.i) * cols + cell.j;
    const last = said.split(' = ').at(-1).split(':')[0].replace('−', '-');
    assert.equal(Math.fround(Number(last)), s.data[index], `${s.id}: ${said}`);
    assert.match(said, /^∂L\/∂/);
  }
  assert.match(a.explainGrad(spec, 'weights', { head: 1, i: 2, j: 1 }), /^∂L\/∂α\[3\]\[2\] = Σ_c ∂L\/∂c\[3\]\[c\]·v\[2\]\[c\] = /);
  assert.throws(() => a.explainGrad(spec, 'weights', { i: 9 }), { name: 'AttentionError', message: 'stage weights has no cell (10, 1).' });
  // the largest index JS lets through reaches the core's cell check, not a narrower bound of its own
  assert.throws(() => a.explainGrad(spec, 'weights', { i: 2 ** 31 - 1 }), { name: 'AttentionError', message: 'stage weights has no cell (2147483648, 1).' });
  assert.throws(() => a.explainGrad(spec, 'nope'), { name: 'AttentionError', message: '"nope" is not a stage id.' });
  assert.throws(() => a.explainGrad({ x: [[1]] }, 'weights'), { name: 'AttentionError' });
});

test('trainer: setLearningRate changes the next step; an overflowing step throws with the losses before it and is not counted', () => {
  const spec = a.task('alignment');
  const [slow, fast] = [a.trainer(spec), a.trainer(spec)];
  slow.step(5), fast.step(5);
  fast.setLearningRate(0.5);
  const [s, f] = [slow.step(20), fast.step(20)];
  assert.notDeepEqual(Array.from(s), Array.from(f), 'a new rate changes the run');
  assert.throws(() => fast.setLearningRate(-1), { name: 'AttentionError', message: 'the learning rate must be a positive number.' });
  assert.throws(() => fast.setLearningRate('0.1'), { name: 'AttentionError' });
  for (const lr of [NaN, Infinity]) // JSON would carry them as null: refused in JS with the core's words
    assert.throws(() => fast.setLearningRate(lr), { name: 'AttentionError', message: `setLearningRate(lr): lr is ${lr} but must be a positive number.` });
  const wild = a.trainer({ ...spec, train: { ...spec.train, optimizer: { sgd: { lr: 1e36 } } } });
  let error;
  try { wild.step(10); } catch (e) { error = e; }
  assert.match(error?.message ?? '', /^training overflowed the float range at step \d+: /);
  assert.equal(error.losses.length, wild.done, 'the losses of the steps that ran come with the refusal');
  assert.ok(wild.done < 10);
  assert.ok(Object.values(wild.spec().weights).flat(2).every(Number.isFinite), 'the weights stay finite');
  for (const r of [slow, fast, wild]) r.dispose();
});

test('a.task: every data item carries its own tokens, and a trace of an item with them labels its axes', () => {
  const spec = a.task('alignment');
  for (const item of spec.train.data) assert.equal(item.tokens.query.length, item.x.length);
  const item = spec.train.data[5];
  const t = a.trace({ ...spec, train: undefined, loss: undefined, x: item.x, memory: item.memory, tokens: item.tokens });
  assert.deepEqual(t.axes.query, item.tokens.query);
  assert.deepEqual(a.task('positions-pe').train.data[0].tokens.query.length, 6);
});
