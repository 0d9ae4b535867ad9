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


// ---- Issue 50, the fourth round: the language model (web/src/lm.js over the lm module) -----------------------------
// Every call's work, memory and answer are estimated from the model's config before the work starts (lm_bounds() in
// core/src/lm/model.cpp), a text's length is checked before it is copied into the wasm heap, numbers that overflowed
// are refused, options are objects. Each refusal: an AttentionError of one sentence, in well under a second, the
// module's heap no larger after it, and the next ordinary call still answers as before.

const en = await a.loadModel('en');
const enNext = en.next('The cat sat on the', 3);

/** docs/model.md's tensors of a config, in the file's order. */
function tensorTable(c, V) {
  const { d_model: d, d_mlp: dm } = c;
  const table = [['wte', [V, d]], ['wpe', [c.n_ctx, d]]];
  for (let l = 0; l < c.n_layer; l++) {
    const h = `h.${l}.`;
    table.push([`${h}ln_1.weight`, [d]], [`${h}ln_1.bias`, [d]]);
    for (const w of 'qkvo') table.push([`${h}attn.w${w}`, [d, d]], [`${h}attn.b${w}`, [d]]);
    if (dm) table.push([`${h}ln_2.weight`, [d]], [`${h}ln_2.bias`, [d]], [`${h}mlp.w1`, [d, dm]], [`${h}mlp.b1`, [dm]], [`${h}mlp.w2`, [dm, d]], [`${h}mlp.b2`, [d]]);
  }
  return [...table, ['ln_f.weight', [d]], ['ln_f.bias', [d]]];
}

/**
 * A weight file written by hand: fill(name, count) gives a tensor's values (F32 files), or null for zeros (ones for
 * LayerNorm weights); edit(headerText) may change the header.
 */
function weightFile(shape, V, { fill = () => null, dtype = 'F16', edit = (h) => h } = {}) {
  const c = { positional: 'learned', ln_eps: 1e-5, ...shape };
  const vocab = ['<unk>', ...Array.from({ length: V - 1 }, (_, i) => String.fromCodePoint(i < 95 ? 32 + i : 0x4e00 + i - 95))];
  const width = dtype === 'F32' ? 4 : 2;
  const header = {};
  const blobs = [];
  let at = 0;
  for (const [name, dims] of tensorTable(c, V)) {
    const count = dims.reduce((x, y) => x * y, 1);
    let blob = new Uint8Array(count * width);
    const values = fill(name, count);
    if (values) blob = new Uint8Array(Float32Array.from(values).buffer);
    else if (name.endsWith('.weight') && dims.length === 1) {
      blob = dtype === 'F32' ? new Uint8Array(new Float32Array(count).fill(1).buffer) : new Uint8Array(new Uint16Array(count).fill(0x3c00).buffer);
    }
    header[name] = { dtype, shape: dims, data_offsets: [at, at + blob.length] };
    blobs.push(blob);
    at += blob.length;
  }
  header.__metadata__ = { config: JSON.stringify(c), vocab: JSON.stringify(vocab), corpus: '[]', probe: '' };
  const text = new TextEncoder().encode(edit(JSON.stringify(header)));
  const out = new Uint8Array(8 + text.length + at);
  new DataView(out.buffer).setBigUint64(0, BigInt(text.length), true);
  out.set(text, 8);
  let offset = 8 + text.length;
  for (const blob of blobs) out.set(blob, offset), offset += blob.length;
  return out;
}

/** A repeatable stream of N(0, sd) numbers (Box–Muller over a small LCG). */
function normals(seed, sd) {
  let s = seed >>> 0;
  const u = () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) + 0.5) / 2 ** 32;
  return (count) => Float32Array.from({ length: count }, () => sd * Math.sqrt(-2 * Math.log(u())) * Math.cos(2 * Math.PI * u()));
}

/**
 * f (a call on model m, or a promise of one) is refused with an AttentionError of one line matching sentence, within
 * a second, and m's module heap is no larger after it; then en still answers as before.
 */
async function modelRefused(m, f, sentence) {
  const heap = m.memory().heapSize;
  const started = performance.now();
  await assert.rejects(async () => f(), (e) => e instanceof AttentionError && sentence.test(e.message) && !e.message.includes('\n'), String(sentence));
  const ms = performance.now() - started;
  assert.ok(ms < 1000, `${sentence}: refused after ${ms.toFixed(0)} ms`);
  assert.equal(m.memory().heapSize, heap, `${sentence}: the heap grew`);
  assert.deepEqual(en.next('The cat sat on the', 3), enNext, 'the next ordinary call');
}

test('issue 50 #1 a text is measured before it is copied into the heap: a long text, probe, training text or corpus', async () => {
  const long = 'z'.repeat(2 ** 27);
  await modelRefused(en, () => en.trace(long), /^the text has more than 128 characters \(134217728 UTF-16 units\) but the model reads at most 128 at once \(its context, n_ctx\)\.$/);
  await modelRefused(en, () => en.next(long, 2), /more than 128 characters/);
  await modelRefused(en, () => en.heads('xy'.repeat(9000)), /^the probe text has more than 8192 characters/);
  const nine = 'ab\n%\n'.repeat(1.9 * 2 ** 20); // 9.5 MB
  await modelRefused(en, () => en.trainer(nine), /^the training text is over the limit of 8 MiB of UTF-8 text\.$/);
  await modelRefused(en, () => a.freshModel(nine), /^corpus is over the limit of 8 MiB of UTF-8 text\.$/);
  // 3 bytes of UTF-8 a character: 3 Mi characters are 9 MiB, refused after encoding, still before the heap
  await modelRefused(en, () => en.trainer('猫'.repeat(3 * 2 ** 20)), /^the training text is over the limit of 8 MiB of UTF-8 text\.$/);
});

test('issue 50 #1 one call\'s work and memory are bounded: a trainer\'s batch and step(count)', async () => {
  const text = 'The cat sat on the mat. '.repeat(40);
  const scratch = await a.loadModel('en'); // trained below: en itself keeps its weights
  await modelRefused(scratch, () => scratch.trainer(text, { batch: 300 }),
    /^a training step of 300 windows of 128 characters would take about [\d.]+ billion multiply-adds, over the limit of 4\.29 billion a call: give a batch of at most \d+\.$/);
  const run = scratch.trainer(text, { batch: 8 });
  await modelRefused(scratch, () => run.step(5000), /^step\(count\): 5000 steps of 8 windows are over the limit of 68\.7 billion multiply-adds one call may train for: ask for at most \d+ steps at a time\.$/);
  assert.equal(run.done, 0, 'no step was taken');
  assert.equal(run.step(2).length, 2);
  run.dispose();
  scratch.dispose();
});

test('issue 50 #1 a legal but large model (8 × 8 × d 384, MLP 1536, context 512, 2000 characters): every call over the budget is refused before its work', async () => {
  const large = await a.loadModel(weightFile({ n_layer: 8, n_head: 8, d_model: 384, d_mlp: 1536, n_ctx: 512 }, 2000));
  const heap = large.memory().heapSize;
  await modelRefused(large, () => large.next('a'.repeat(512), 2), /^next on 512 characters would take about [\d.]+ billion multiply-adds, over the limit of 4\.29 billion a call: give it at most \d+ characters\.$/);
  await modelRefused(large, () => large.step('a'.repeat(400)), /^a generation step on 400 characters would take about/);
  await modelRefused(large, () => large.trace('a'.repeat(300)), /^a trace on 300 characters would/);
  await modelRefused(large, () => large.attribution('a'.repeat(300), 3), /^a trace on 300 characters would/);
  await modelRefused(large, () => large.layerGrad('a'.repeat(200), 1), /^a layer's gradient on 200 characters would/);
  await modelRefused(large, () => large.heads('abcabcabc'), /^the head scores would take about [\d.]+ billion multiply-adds, over the limit of 4\.29 billion a call/);
  await modelRefused(large, () => large.generate('a', { n: 8000 }), /^generating 8000 characters would take about .*: generate at most \d+ at once\.$/);
  await modelRefused(large, () => large.trainer('abcd '.repeat(400), { batch: 2 }), /^a training step of 2 windows of 512 characters would .*: (give a batch of at most 1|this model is too large to train here)\.$/);
  assert.equal(large.memory().heapSize, heap);
  assert.equal(large.next('abc', 2).length, 2, 'a call within the budget still answers');
  large.dispose();
});

test('issue 50 #2 numbers that overflowed are refused where they leave the core, never null or NaN', async () => {
  const shape = { n_layer: 2, n_head: 2, d_model: 16, d_mlp: 32, n_ctx: 16 };
  // every logit overflows: ln_f's β of 3e38 dotted with embeddings of ones
  const m = await a.loadModel(weightFile(shape, 40, { dtype: 'F32', fill: (name, count) => (name === 'ln_f.bias' ? new Float32Array(count).fill(3e38) : name === 'wte' ? new Float32Array(count).fill(1) : null) }));
  for (const [what, f] of [['next', () => m.next('ABC', 3)], ['step', () => m.step('ABC')], ['trace', () => m.trace('ABC')],
    ['attribution', () => m.attribution('ABC', 3)], ['layerGrad', () => m.layerGrad('ABCD', 0)], ['generate', () => m.generate('AB', { n: 3 })]]) {
    await modelRefused(m, f, /overflowed the float range: its weights are too large for float32\.$/).catch((e) => assert.fail(`${what}: ${e.message}`));
  }
  // a training step whose loss overflowed reported 0: refused before the update, the weights kept
  const before = m.save();
  const run = m.trainer('ABCDEFGHIJ'.repeat(10), { batch: 2 });
  await modelRefused(m, () => run.step(1), /^the model's training loss overflowed the float range/);
  assert.equal(run.done, 0);
  assert.deepEqual(m.save(), before, 'the weights are as they were');
  run.dispose();
  m.dispose();
  // the attention's scores overflow: heads() returned null scores
  const random = normals(50, 1), huge = normals(51, 1e20);
  const scores = await a.loadModel(weightFile(shape, 40, { dtype: 'F32', fill: (name, count) => (/attn\.w[qk]$/.test(name) ? huge(count) : /^(wte|wpe)$/.test(name) ? random(count) : null) }));
  await modelRefused(scores, () => scores.heads('ABCABC'), /^the model's head scores overflowed the float range/);
  scores.dispose();
});

test('issue 50 #2 the temperature is 0 or from 10^-3, in npm as in the CLI; p(<unk>) = 1 leaves the others finite', async () => {
  for (const t of [1e-300, 5e-324, 0.0005]) {
    await modelRefused(en, () => en.generate('ab', { temperature: t }), new RegExp(`^temperature is ${String(t).replace(/[.+]/g, '\\$&')} but must be 0 \\(greedy\\) or from 0\\.001 to 100\\.$`));
  }
  assert.equal([...en.generate('ab', { n: 8, temperature: 1e-3, seed: 3 })].length, 8);
  const unk = await a.loadModel(weightFile({ n_layer: 1, n_head: 2, d_model: 8, d_mlp: 0, n_ctx: 16 }, 40, {
    dtype: 'F32',
    fill: (name, count) => (name === 'ln_f.weight' ? new Float32Array(count) : name === 'ln_f.bias' ? new Float32Array(count).fill(1)
      : name === 'wte' ? Float32Array.from({ length: count }, (_, k) => (k < 8 ? 1e4 : 0.01 * (k % 7))) : null),
  }));
  const last = unk.trace('ABC').stages.find((s) => s.id === 'probs').data;
  assert.equal(last[2 * 40], 1, '<unk> takes all of the probability');
  const top = unk.attribution('ABC', 3);
  assert.deepEqual(top.map((c) => c.char), unk.next('ABC', 3).map((c) => c.char));
  for (const c of top) assert.ok(Number.isFinite(c.p) && c.p > 0 && c.p <= 1, JSON.stringify(c));
  unk.dispose();
});

test('issue 50 #7 loadModel of a detached buffer or a Proxy, and options that are not objects: AttentionErrors, not TypeErrors', async () => {
  const detached = new ArrayBuffer(64);
  structuredClone(detached, { transfer: [detached] });
  await modelRefused(en, () => a.loadModel(detached), /^loadModel: the ArrayBuffer is detached/);
  const bytes = new Uint8Array(64);
  structuredClone(bytes.buffer, { transfer: [bytes.buffer] });
  await modelRefused(en, () => a.loadModel(bytes), /^loadModel: the bytes' ArrayBuffer is detached/);
  await modelRefused(en, () => a.loadModel(new Proxy(new Uint8Array(64), {})), /^loadModel takes 'zh', 'en', the bytes/);
  await modelRefused(en, () => a.loadModel(new Proxy(new ArrayBuffer(64), {})), /^loadModel takes 'zh', 'en', the bytes/);
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  for (const [f, sentence] of [
    [() => en.generate('ab', null), /^generate: options must be an object such as \{n, temperature, seed\}, not null\.$/],
    [() => en.generate('ab', 5), /^generate: options must be an object .*, not number\.$/],
    [() => en.generate('ab', [1]), /not an array/],
    [() => en.generate('ab', proxy), /not a revoked Proxy/],
    [() => en.generate('ab', { get n() { throw new Error('no'); } }), /^generate: its options could not be read \(no\)\.$/],
    [() => en.trainer('abc', 'fast'), /^trainer: options must be an object/],
    [() => en.explain('abc', 'ln_1', 7), /^explain: options must be an object/],
    [() => a.freshModel('abc', null), /^freshModel: options must be an object such as \{nLayer, nHead, dModel\}, not null\.$/],
  ]) await modelRefused(en, f, sentence);
  assert.equal(en.generate('ab', { n: 4, temperature: 0 }), en.generate('ab', { n: 4, temperature: 0, seed: 9 }));
});

test('issue 50 #7 #8 a weight file\'s header: a key given twice, and nesting past 32 levels checked before it is parsed', async () => {
  const small = { n_layer: 1, n_head: 1, d_model: 8, d_mlp: 0, n_ctx: 16 };
  await modelRefused(en, () => a.loadModel(weightFile(small, 20, { edit: (h) => `${h.slice(0, -1)}, "__metadata__": {}}` })),
    /^weight file: its header has the key "__metadata__" twice: each key must be given once\.$/);
  await modelRefused(en, () => a.loadModel(weightFile(small, 20, { edit: (h) => h.replace('\\"n_ctx\\":16', '\\"n_ctx\\":16,\\"n_ctx\\":512') })),
    /^weight file: __metadata__\.config has the key "n_ctx" twice/);
  const deep = new Uint8Array(8 + (12 << 20)).fill(0x5b); // 12 MiB of "[": 1.8 s and 865 MB before
  new DataView(deep.buffer).setBigUint64(0, BigInt(12 << 20), true);
  const heap = en.memory().heapSize;
  const started = performance.now();
  await assert.rejects(a.loadModel(deep), (e) => e instanceof AttentionError && /^weight file: its header nests arrays and objects more than 32 levels deep\.$/.test(e.message));
  assert.ok(performance.now() - started < 1000);
  assert.ok(en.memory().heapSize <= heap + (14 << 20), 'the heap grew by the file\'s copy at most');
  assert.deepEqual(en.next('The cat sat on the', 3), enNext);
});

test('issue 46: the core\'s and the vision part\'s one call, called straight, refuses hostile requests in one sentence and keeps tracing', async () => {
  const { readFile } = await import('node:fs/promises');
  const dist = new URL('../../web/dist/', import.meta.url);
  for (const [name, factory] of [['core', 'attention_core'], ['vision', 'attention_vision']]) {
    const { default: create } = await import(new URL(`${name}/${factory}.js`, dist));
    const m = await create({ wasmBinary: await readFile(new URL(`${name}/${factory}.wasm`, dist)) });
    const encoder = new TextEncoder();
    /** attn_call(operation, request, payload bytes) → [answer text or null, the sentence]. */
    const call = (operation, request, payload = new Uint8Array(0)) => {
      const parts = [encoder.encode(operation), encoder.encode(request), payload];
      const at = parts.map((bytes) => {
        const p = m._malloc(Math.max(bytes.length, 1));
        new Uint8Array(m.HEAPF32.buffer).set(bytes, p);
        return p;
      });
      try {
        const answer = m._attn_call(at[0], parts[0].length, at[1], parts[1].length, at[2], parts[2].length);
        return [answer ? m.UTF8ToString(answer) : null, m.UTF8ToString(m._attn_error())];
      } finally {
        at.forEach((p) => m._free(p));
      }
    };
    const spec = encoder.encode(JSON.stringify(name === 'core' ? plain : { kind: 'vision', block: 'se', feature: [[[1, 2], [3, 4]]], se: { w1: [[1]], b1: [0], w2: [[1]], b2: [0] } }));
    const before = m._attn_heap_in_use();
    const cases = [
      ['no_such_operation', '{}', spec, /^there is no operation "no_such_operation"\.$/],
      ['trace', '[1]', spec, /^the request of trace is not a JSON object\.$/],
      ['trace', '{"numbers":', spec, /^the request of trace is not a JSON object\.$/],
      // a packed spec whose count of floats is more than its payload holds, or that has no count: refused before any is read
      ['trace_packed', '{}', new Uint8Array([...new Uint8Array(Uint32Array.of(spec.length).buffer), ...spec]), /^the payload of trace_packed is not a packed spec/],
      ['trace_packed', '{}', new Uint8Array([255, 255, 255, 255]), /^the payload of trace_packed is not a packed spec/],
      ['trace_packed', '{}', new Uint8Array([1, 0]), /^the payload of trace_packed is not a packed spec/],
      ['trace', '{"interactive":"yes"}', spec, /^interactive must be true or false\.$/],
      ['trace', '{}', encoder.encode('{"x": [[1, 2]'), /JSON|spec/],
      ['trace', '{"interactive":1}', spec, /^interactive must be true or false\.$/],
      ['cached_text', '{"id":-1}', undefined, /^id is -1 but must be a whole number from 0 to 2147483647\.$/],
      ['spec_of_trace', '{"serial":"1"}', undefined, /^serial must be a number\.$/],
    ];
    for (const [operation, request, payload, sentence] of cases) {
      const [answer, error] = call(operation, request, payload);
      assert.equal(answer, null, `${name} ${operation} ${request}: refused`);
      assert.match(error, sentence, `${name} ${operation} ${request}`);
    }
    assert.equal(JSON.parse(call('cached_text', '{"id":123456}')[0]), null, 'a text no longer kept: null, not a refusal');
    const [answer] = call('trace', '{}', spec);
    assert.equal(JSON.parse(answer).kind, name === 'core' ? 'sequence' : 'vision', `${name}: the next trace`);
    assert.ok(m._attn_heap_in_use() <= before + 65536, `${name}: the refusals kept no memory beyond the one result`);
  }
});

test('issue 46: a lone surrogate in a request\'s string reaches the core as U+FFFD, so the refusal is the operation\'s own sentence', () => {
  refused(() => a.example('bank\ud800'), /^example "bank\uFFFD" is unknown/);
  refused(() => a.explain(a.trace(plain), '\udc00'), /^"\uFFFD" is not a stage id\.$/);
});
