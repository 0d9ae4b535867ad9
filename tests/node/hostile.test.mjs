// Issue 24's third hostile round, case by case through the npm API: every call below is refused with one
// AttentionError sentence (or computed), and after each an ordinary trace still gives its numbers.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { AttentionError, createAttention } from '../../web/src/node.js';

const a = await createAttention();
const plain = { x: [[1, 0], [0, 1], [1, 1]], tokens: { query: ['a', 'b', 'c'] } };
const weightsOf = (t) => Array.from(t.stages.find((s) => s.id === 'weights').data);
const reference = weightsOf(a.trace(plain));

/** f is refused with an AttentionError whose one-line message matches sentence; then a trace still works. */
function refused(f, sentence) {
  assert.throws(f, (e) => e instanceof AttentionError && sentence.test(e.message) && !e.message.includes('\n'), String(sentence));
  assert.deepEqual(weightsOf(a.trace(plain)), reference, 'the next ordinary trace');
}

test('#7 a getter or toJSON that calls the API while its spec is read is refused; the outer trace is not corrupted', () => {
  const reentrant = { tokens: { query: ['a', 'b', 'c'] }, get x() { a.trace({ x: [[5, 5]] }); return plain.x; } };
  refused(() => a.trace(reentrant), /getter or toJSON in a spec called the attention API/);
  const viaToJSON = { x: plain.x, tokens: { toJSON() { a.trace({ x: [[5, 5]] }); return { query: ['a', 'b', 'c'] }; } } };
  refused(() => a.trace(viaToJSON), /getter or toJSON|could not be read/);
  refused(() => a.grad({ get x() { a.trace({ x: [[5, 5]] }); return [[1, 0], [0, 1]]; }, target: [[0, 1], [1, 0]] }), /getter or toJSON/);
});

test('#7 labels holding the old separator (\\u001f) never make a trace show another spec\'s labels', () => {
  const first = a.trace({ x: [[1, 0], [0, 1]], tokens: { query: ['p\u001fq', 'r'] } });
  const second = a.trace({ x: [[1, 0], [0, 1]], tokens: { query: ['p', 'q\u001fr'] } });
  assert.ok(JSON.stringify(first.axes).includes('p\\u001fq'));
  assert.ok(JSON.stringify(second.axes).includes('q\\u001fr'), JSON.stringify(second.axes).slice(0, 200));
  assert.ok(!JSON.stringify(second.axes).includes('p\\u001fq'));
});

test('#9 overflow is a refusal, never null or NaN: a.grad with a target of 3e38, a.attention with values of 3e38', () => {
  refused(() => a.grad({ x: [[1, 0], [0, 1]], target: [[3e38, 3e38], [0, 0]] }), /loss overflowed the float range/);
  const big = new Float32Array(8).fill(3e38);
  refused(() => a.attention({ q: big, k: big, v: big, d: 4 }), /overflowed the float range/);
  const ok = a.attention({ q: new Float32Array([1, 0, 0, 1]), k: new Float32Array([1, 0, 0, 1]), v: new Float32Array([1, 2, 3, 4]), d: 2 });
  assert.ok(ok.every(Number.isFinite));
});

test('#10 indices are whole numbers in range, named: no head 2**32 + 1 read as head 1, no 1e300 read as 0', () => {
  const t = a.example('translation');
  refused(() => a.explain(t, 'weights', { head: 2 ** 32 + 1, i: 1, j: 2 }), /^explain: head is 4294967297 but must be a whole number from 0 to 63\.$/);
  refused(() => a.explain(t, 'weights', { head: 1e300, i: 1, j: 2 }), /^explain: head is 1e\+300/);
  refused(() => a.explain(t, 'weights', { i: 2 ** 31, j: 0 }), /^explain: i is 2147483648 but must be a whole number from 0 to 2147483647\.$/);
  refused(() => a.explain(t, 'weights', { i: '1', j: 0 }), /^explain: i is string but must be a whole number/);
  refused(() => a.explain(t, 'weights', { head: 3, i: 0, j: 0 }), /^head 4 is out of range: stage weights has 1 head\.$/);
  refused(() => a.explainGrad({ x: [[1, 0], [0, 1]], target: [[0, 1], [1, 0]] }, 'weights', { j: -1 }), /^explainGrad: j is -1/);
  const v = a.example('se-block');
  refused(() => a.explain(v, v.stages[0].id, { index: 2 ** 32 }), /^explain: index is 4294967296/);
  refused(() => a.trainer(a.task('alignment')).step(2 ** 53), /count is 9007199254740992/);
});

test('#11 a.attention(null), revoked Proxies, toJSON giving a BigInt or a cycle: AttentionErrors, not TypeErrors', () => {
  refused(() => a.attention(null), /attention takes one object/);
  refused(() => a.attention(7), /attention takes one object/);
  const { proxy, revoke } = Proxy.revocable({ x: [[1]] }, {});
  revoke();
  refused(() => a.trace(proxy), /could not be read|must be an object/);
  refused(() => a.trace({ x: [[1, 2]], tokens: { toJSON: () => 10n } }), /BigInt|could not be read/);
  const cycle = {};
  cycle.self = cycle;
  refused(() => a.trace({ x: [[1, 2]], tokens: { toJSON: () => cycle } }), /could not be read|cycle|deeper/);
  const rows = new Float32Array(4);
  structuredClone(rows.buffer, { transfer: [rows.buffer] }); // detaches rows
  refused(() => a.attention({ q: rows, k: rows, v: rows, d: 2 }), /q is empty/);
});

test('#11 createAttention({threads: "yes"}) is refused in Node as in the browser', async () => {
  await assert.rejects(createAttention({ threads: 'yes' }), (e) => e instanceof AttentionError && /options.threads is yes but must be true or false/.test(e.message));
  assert.equal(await createAttention({ threads: false }), a);
});

test('#5 training is bounded per call: a.train and trainer().step(count) past 2^32 multiply-adds are refused before the first step', () => {
  const spec = a.task('alignment');
  spec.train.steps = 1000000;
  refused(() => a.train(spec), /over the limit of 4294 million one call may train for: ask for at most \d+ steps at a time\.$/);
  const run = a.trainer(a.task('alignment'));
  refused(() => run.step(100000), /ask for at most \d+ steps/);
  assert.equal(run.done, 0, 'no step was taken');
  assert.equal(run.step(2).length, 2);
  run.dispose();
});

test('#3 a gradient the trace budget accepts but the gradient\'s does not (n = 1830, d = 1) is refused at once', () => {
  const n = 1830;
  const spec = { x: Array.from({ length: n }, (_, i) => [(i % 7) / 7]), target: Array.from({ length: n }, () => [0.5]) };
  const start = performance.now();
  refused(() => a.grad(spec), /over the gradient's limit of 16 MiB/);
  assert.ok(performance.now() - start < 1000);
});

