// a.trace's binary transfer (web/src/packed_spec.js): a spec object's matrices cross as floats beside a
// small JSON skeleton. It must give the text path's trace to the bit — every stage, the normalised spec,
// the axes — and the text path's refusals word for word; a spec that itself says "$f32" gets no say.
// Also the other packing: model mode's wasm, LZMA in base64 (web/src/model/unpack_wasm.js), whose damaged
// strings are refused at once with a sentence instead of running the decoder on and on.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

import { createAttention } from '../../web/src/node.js';
import { UnpackError, unpackWasm } from '../../web/src/model/unpack_wasm.js';
import { random, randomSpec, repo } from './helpers.mjs';

const a = await createAttention();

function same(objectTrace, textTrace, what) {
  assert.deepEqual(objectTrace.stages.map((s) => s.id), textTrace.stages.map((s) => s.id), what);
  objectTrace.stages.forEach((s, k) => {
    const t = textTrace.stages[k];
    assert.deepEqual(s.shape, t.shape, `${what}: ${s.id} shape`);
    assert.deepEqual(new Uint32Array(s.data.buffer, s.data.byteOffset, s.data.length), new Uint32Array(t.data.buffer, t.data.byteOffset, t.data.length), `${what}: ${s.id} bit for bit`);
  });
  assert.deepEqual(objectTrace.spec, textTrace.spec, `${what}: normalised spec`);
  assert.deepEqual(objectTrace.axes, textTrace.axes, `${what}: axes`);
}

const outcome = (f) => { try { return f(); } catch (e) { return e.message; } };

/** a.tracePaths() without keptSpecs, which every trace moves (the specs kept for trace.spec: spec store test below). */
const paths = () => {
  const { keptSpecs, ...counts } = a.tracePaths();
  return counts;
};

test('the fast paths are taken: every worked example\'s spec object crosses packed, and its repeat hits the kept structure', () => {
  for (const id of a.examples()) {
    const spec = a.example(id).spec;
    const before = paths();
    a.trace(structuredClone(spec));
    const first = paths();
    a.trace(structuredClone(spec));
    const second = paths();
    assert.equal(first.text, before.text, `${id}: a spec object is never sent as JSON text`);
    assert.equal(first.packedParsed + first.packedHit, before.packedParsed + before.packedHit + 1, `${id}: sent packed`);
    assert.equal(first.packedParsed - before.packedParsed, first.packedKept - before.packedKept, `${id}: a parsed structure is kept`);
    assert.deepEqual(second, { ...first, packedHit: first.packedHit + 1 }, `${id}: the repeat is a cache hit, no parse`);
  }
  const before = paths();
  a.trace(JSON.stringify({ x: [[1, 0], [0, 1]] }));
  a.example('translation'); // traced above: its spec text is kept
  assert.deepEqual(paths(), { ...before, text: before.text + 1, example: before.example + 1, exampleHit: before.exampleHit + 1 },
    'text and examples are counted on their own paths');
  // every example's spec text crosses from the core to the module that traces it (the core, or the vision part),
  // which keeps it: its repeat is not parsed
  for (const id of a.examples()) {
    a.example(id);
    const kept = paths();
    a.example(id);
    assert.deepEqual(paths(), { ...kept, example: kept.example + 1, exampleHit: kept.exampleHit + 1 }, `${id}: the repeat is the kept spec`);
  }
  // a vision spec's text: read by the core (which sends it on), counted once, where it is traced
  const text = paths();
  a.trace(JSON.stringify(a.example('se-block').spec));
  assert.equal(paths().text, text.text + 1, 'a vision spec as text counts as one text trace');
});

test('every example and 200 random specs: the same trace as their JSON text, or the same sentence', () => {
  for (const id of a.examples()) {
    const t = a.example(id); // the vision blocks too: their feature maps' channels and layers cross as floats
    same(a.trace(structuredClone(t.spec)), a.trace(JSON.stringify(t.spec)), id);
  }
  const rand = random(29);
  let traced = 0, refused = 0;
  for (let i = 0; i < 200; i++) {
    const spec = randomSpec(rand, i);
    if (i % 3 === 0 && spec.x?.[0]) spec.x = spec.x.map((row) => Float32Array.from(row)); // typed rows too
    if (i % 5 === 0) spec.weights = { ...spec.weights, wk: [[1, 2, 3]] }; // refused by the core: W_k's shape
    if (i % 7 === 0) spec.x = [...spec.x, [1]]; // refused: a ragged row (the text path reads it)
    const viaObject = outcome(() => a.trace(spec));
    const viaText = outcome(() => a.trace(JSON.stringify(spec, (k, v) => (ArrayBuffer.isView(v) ? Array.from(v) : v))));
    if (typeof viaText === 'string') {
      assert.equal(viaObject, viaText, `spec ${i}: the same refusal`);
      refused++;
    } else {
      same(viaObject, viaText, `spec ${i}`);
      traced++;
    }
  }
  assert.ok(traced > 60 && refused > 40, `${traced} traced, ${refused} refused`);
});

test('hostile and edge values go the text path: −0, float overflow, ragged rows, and "$f32" written by the caller', () => {
  const base = { x: [[1, -0], [0.5, 2]], weights: { wq: [[1, 0], [0, 1]] } };
  same(a.trace(base), a.trace(JSON.stringify(base)), '−0');
  assert.equal(outcome(() => a.trace({ x: [[1, 1e39]] })), outcome(() => a.trace('{"x": [[1, 1e39]]}')));
  assert.equal(outcome(() => a.trace({ x: [[1, 2], [3]] })), 'row 2 of x has 1 values but row 1 has 2: every row needs the same length.');
  // a caller's own reference must not read the module's numbers
  const sneaky = { x: [[1, 2]], memory: { $f32: [0, 1, 2] } };
  assert.equal(outcome(() => a.trace(sneaky)), outcome(() => a.trace(JSON.stringify(sneaky))));
  assert.match(outcome(() => a.trace(sneaky)), /memory must be an array of rows/);
  const inTokens = { x: [[1, 2]], tokens: { query: ['$f32'] } };
  same(a.trace(inTokens), a.trace(JSON.stringify(inTokens)), '"$f32" as a label');
});

test('an older trace\'s spec is still its own after newer traces, and the caller\'s later edits do not reach it', () => {
  const spec = { x: [[1, 0], [0, 1]], weights: { wq: [[2, 0], [0, 2]] } };
  const first = a.trace(spec);
  spec.weights.wq[0][0] = 7; // the caller edits the object afterwards
  const second = a.trace(spec);
  assert.equal(first.spec.weights.wq[0][0], 2, 'read after a newer trace, from its own numbers');
  assert.equal(second.spec.weights.wq[0][0], 7);
});

test('an older trace\'s spec is still its own after a refused trace of the same structure', () => {
  const first = a.trace({ x: [[1, 2]] });
  assert.throws(() => a.trace({ x: [[3e38, 3e38]] }), /overflowed the float range/); // refused while computing
  assert.deepEqual(first.spec.x, [[1, 2]]);
  const ca = a.example('coordinate-attention').spec;
  const kept = a.trace(ca);
  const negative = structuredClone(ca);
  negative.ca.bn.var[1] = -0.5;
  assert.throws(() => a.trace(negative), /a variance cannot be negative/); // refused by the refill's check
  assert.deepEqual(kept.spec.ca.bn.var, ca.ca.bn.var);
});

test('a hit traces a copy of the kept structure: numbers the validator refuses leave it kept, and the next good ones still hit', () => {
  for (const [spec, bad, refusal] of [
    [{ x: [[1, 2], [3, 4]], weights: { wq: [[1, 0], [0, 1]] } }, (s) => { s.weights.wq[1][0] = NaN; }, /weights\.wq\[1\]\[0\]/],
    [structuredClone(a.example('coordinate-attention').spec), (s) => { s.ca.bn.var[0] = -1; }, /a variance cannot be negative/],
  ]) {
    const first = a.trace(spec);
    const refused = structuredClone(spec);
    bad(refused);
    const before = paths();
    assert.throws(() => a.trace(refused), refusal);
    const good = structuredClone(spec);
    good.x ? (good.x[0][0] = 9) : (good.feature[0][0][0] = 9);
    const again = a.trace(good);
    const after = paths();
    assert.equal(after.packedParsed, before.packedParsed, 'neither the refused numbers nor the good ones after them parsed the skeleton again');
    assert.equal(after.packedHit, before.packedHit + 1, 'the good ones were a hit on the kept structure');
    same(again, a.trace(JSON.stringify(good)), 'the hit after a refusal traces what the text path does');
    assert.deepEqual(first.spec, a.trace(JSON.stringify(spec)).spec, 'the first trace\'s spec is its own');
  }
});

test('vision specs: each channel crosses as floats or, when it cannot, as text with the text path\'s sentence', () => {
  const base = a.example('cbam-block').spec;
  const clone = () => structuredClone(base);
  const cases = [
    ['a ragged channel', (s) => { s.feature[2][1] = s.feature[2][1].slice(1); }],
    ['NaN in a channel', (s) => { s.feature[1][0][0] = NaN; }],
    ['a float overflow in a layer', (s) => { s.cbam.w1[0][0] = 1e39; }],
    ['a typed row and −0', (s) => { s.feature[0][0] = Float32Array.from(s.feature[0][0]); s.feature[0][1][1] = -0; }],
    ['CBAM\'s second kernel the wrong size', (s) => { s.cbam.spatial[1] = [[1]]; }],
    ['"$f32" written by the caller', (s) => { s.feature[0] = { $f32: [0, 8, 8] }; }],
  ];
  for (const [what, change] of cases) {
    const spec = clone();
    change(spec);
    const viaObject = outcome(() => a.trace(spec));
    const viaText = outcome(() => a.trace(JSON.stringify(spec, (k, v) => (ArrayBuffer.isView(v) ? Array.from(v) : Number.isNaN(v) ? 'NaN' : v))));
    if (typeof viaObject === 'string') assert.equal(typeof viaText, 'string', what);
    else same(viaObject, viaText, what);
  }
  // refusals name the channel, as the text path does
  const ragged = clone();
  ragged.feature[2][1] = ragged.feature[2][1].slice(1);
  assert.match(outcome(() => a.trace(ragged)), /^row 2 of feature\[2\] has 7 values but row 1 has 8/);
  // an older vision trace's spec is its own: written from its numbers when read after newer traces
  const first = a.trace(clone());
  const edited = clone();
  edited.feature[0][0][0] = 42;
  const second = a.trace(edited);
  assert.equal(second.spec.feature[0][0][0], 42);
  assert.equal(first.spec.feature[0][0][0], base.feature[0][0][0]);
});

test('one structure again and again with other numbers (the page\'s edits, a.trace in a loop): the text path\'s trace each time', () => {
  const rand = random(31);
  for (const id of ['multi-head', 'score-functions', 'positional-encoding', 'masking']) {
    const base = a.example(id).spec;
    for (let k = 0; k < 6; k++) {
      const spec = structuredClone(base);
      spec.x = spec.x.map((row) => row.map(() => Math.round((rand() * 4 - 2) * 1000) / 1000));
      if (spec.weights?.wq) spec.weights.wq[0][0] = k; // a weight too
      const budget = { budget: k % 2 ? 'interactive' : 'default' };
      same(a.trace(spec, budget), a.trace(JSON.stringify(spec), budget), `${id}, numbers ${k}`);
    }
  }
});

test('vision blocks too: one structure with other numbers in every packed field, and a negative variance refused each time', () => {
  const rand = random(37);
  const jiggle = (value) => (typeof value === 'number' ? Math.round((rand() * 4 - 2) * 1000) / 1000 : value.map(jiggle));
  for (const id of ['se-block', 'eca-block', 'cbam-block', 'coordinate-attention']) {
    const base = a.example(id).spec;
    for (let k = 0; k < 5; k++) {
      const spec = structuredClone(base);
      spec.feature = jiggle(spec.feature);
      const layers = spec[spec.block];
      for (const field of Object.keys(layers)) if (field !== 'bn' && Array.isArray(layers[field])) layers[field] = jiggle(layers[field]);
      if (layers.bn) for (const f of ['gamma', 'beta', 'mean']) layers.bn[f] = jiggle(layers.bn[f]);
      same(a.trace(spec), a.trace(JSON.stringify(spec)), `${id}, numbers ${k}`);
    }
  }
  // what only the numbers can break is checked again on a structure already kept
  const ca = structuredClone(a.example('coordinate-attention').spec);
  a.trace(ca);
  ca.ca.bn.var[1] = -0.5;
  const sentence = 'ca.bn.var[1] is −0.5000: a variance cannot be negative.';
  assert.equal(outcome(() => a.trace(ca)), sentence);
  assert.equal(outcome(() => a.trace(JSON.stringify(ca))), sentence);
  ca.ca.bn.var[1] = 0.25; // and the structure traces again afterwards
  same(a.trace(ca), a.trace(JSON.stringify(ca)), 'coordinate-attention after a refusal');
});

test('trace.spec by handle: the core keeps the last traces\' specs, and drops a large one with the next trace', () => {
  const spec = (k) => ({ x: [[1, k], [k, 1]], tokens: { query: [`a${k}`, `b${k}`] } });
  const first = a.trace(spec(1));
  a.trace(spec(2));
  a.trace(spec(3));
  let before = paths().specText;
  assert.deepEqual(first.spec.x, [[1, 1], [1, 1]]);
  assert.equal(paths().specText, before, 'an older trace\'s spec came from the core\'s store, not from its text');
  const old = a.trace(spec(4));
  for (let k = 5; k < 25; k++) a.trace(spec(k));
  before = paths().specText;
  assert.deepEqual(old.spec.x, [[1, 4], [4, 1]], 'read again from its text once 16 newer traces pushed it out');
  assert.equal(paths().specText, before + 1);
  // a large trace's spec (its trace over a megabyte) is kept only while it is the newest
  const x = Array.from({ length: 300 }, (_, i) => Array.from({ length: 16 }, (_, c) => Math.cos(i + c)));
  const big = a.trace({ x });
  a.trace(spec(30));
  before = paths().specText;
  assert.equal(big.spec.x.length, 300);
  assert.equal(paths().specText, before + 1, 'the large spec was dropped with the next trace');
});

test('a packed wasm cut short or changed is refused at once with one sentence; an intact one unpacks to a valid module', (t) => {
  const script = path.join(repo, 'site/assets/attention-model.js');
  let text;
  try {
    text = readFileSync(script, 'utf8');
  } catch {
    return t.skip('site/assets/attention-model.js is not built (cd web && node build-site.mjs)');
  }
  const found = /"(lzma\/1:\d+:[A-Za-z0-9+/=]+)"/.exec(text);
  if (!found) return t.skip('site/assets/attention-model.js was built before the language model (cd web && node build-site.mjs)');
  const packed = found[1];
  const tag = packed.indexOf(':', 7) + 1;
  const middle = packed.length >> 1;
  const bytes = unpackWasm(packed);
  assert.ok(WebAssembly.validate(bytes), 'the intact string is the language model\'s module');
  const cases = [
    // cut inside the stream's header, its size then read as "unknown": the decoder ran about 4·10⁹ steps
    ['cut inside the header', packed.slice(0, tag + 8), /^its packed wasm ends early/],
    ['cut to half', packed.slice(0, middle - (middle - tag) % 4), /^its packed wasm ends early/],
    ['cut, leaving one letter over', packed.slice(0, middle - (middle - tag) % 4 + 1), /^its packed wasm ends early/],
    ['16 letters changed in the middle', `${packed.slice(0, middle)}AAAAAAAAAAAAAAAA${packed.slice(middle + 16)}`, /^its packed wasm (does not unpack: |unpacked to bytes that are not a valid wasm module)/],
    ['a size the stream does not have', packed.replace(/^lzma\/1:\d+/, 'lzma/1:1000'), /^its packed wasm (unpacks to more than the 1000 bytes|unpacked to bytes that are not a valid wasm module)/],
    ['a size no module has', packed.replace(/^lzma\/1:\d+/, 'lzma/1:999999999'), /^its packed wasm claims 999999999 bytes/],
    ['no tag', packed.slice(tag), /^its wasm is not packed as this worker reads it/],
    ['letters that are not base64', `${packed.slice(0, middle)}!!!!${packed.slice(middle + 4)}`, /^its packed wasm is not base64 text$/],
  ];
  for (const [what, damaged, sentence] of cases) {
    const started = performance.now();
    let error = null;
    try {
      unpackWasm(damaged);
    } catch (e) {
      error = e;
    }
    const ms = performance.now() - started;
    assert.ok(error instanceof UnpackError, `${what}: refused (${error?.message ?? 'unpacked'})`);
    assert.match(error.message, sentence, what);
    assert.ok(!error.message.includes('\n'), `${what}: one line`);
    assert.ok(ms < 1000, `${what}: refused in ${ms.toFixed(0)} ms`);
  }
});
