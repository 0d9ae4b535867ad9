// Hostile input through every entry point that reads a spec: the attn CLI and the npm module.
// Each case must be accepted or refused with one short sentence, the CLI and the module must
// agree on which (and on the sentence), and the wasm instance must stay as usable as before.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';

import { createAttention } from '../../web/src/node.js';
import { attnCli, random } from '../node/helpers.mjs';
import { hostileCorpus } from './mutations.mjs';

const a = await createAttention();
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** The CLI's verdict on some bytes: {accepted, sentence, trace}; fails the test on anything else. */
function cliVerdict(input, name) {
  const done = spawnSync(attnCli, ['trace', '-'], { input, maxBuffer: 1 << 30, timeout: 60000 });
  assert.ok(done.status === 0 || done.status === 2, `${name}: exit ${done.status} (signal ${done.signal}): ${done.stderr}`);
  if (done.status === 0) return { accepted: true, trace: JSON.parse(done.stdout) };
  assert.equal(done.stdout.length, 0, `${name}: a refusal prints nothing on stdout`);
  const err = strictUtf8.decode(done.stderr); // throws on invalid UTF-8
  assert.match(err, /^attn: [^\n]+\.\n$/, `${name}: one sentence on one line: ${err.slice(0, 300)}`);
  assert.ok(err.length <= 400, `${name}: ${err.length} characters: ${err.slice(0, 200)}…`);
  return { accepted: false, sentence: err.slice('attn: '.length, -1) };
}

/** The module's verdict on text: {accepted, sentence, trace}; anything but AttentionError fails. */
function moduleVerdict(text, name) {
  try {
    return { accepted: true, trace: a.trace(text) };
  } catch (e) {
    assert.equal(e.name, 'AttentionError', `${name}: ${e.name}: ${String(e.message).slice(0, 200)}`);
    assert.ok(e.message.length <= 400 && !e.message.includes('\n'), `${name}: ${e.message.slice(0, 200)}`);
    return { accepted: false, sentence: e.message };
  }
}

function rowsSumToOne(stage, name) {
  const n = stage.shape[stage.shape.length - 1];
  for (let r = 0; r < stage.data.length / n; r++) {
    let sum = 0;
    for (let j = 0; j < n; j++) sum += stage.data[r * n + j];
    assert.ok(Math.abs(sum - 1) < 1e-4, `${name}: weights row ${r} sums to ${sum}`);
  }
}

/** What an accepted trace must hold: weights rows summing to 1; a vision trace finite, its gates in [0, 1]. */
function checkAccepted(trace, name) {
  if (trace.kind !== 'vision') {
    rowsSumToOne(trace.stages.find((s) => s.id === 'weights'), name);
    return;
  }
  for (const s of trace.stages) {
    const data = Array.from(s.data);
    assert.ok(data.every(Number.isFinite), `${name}: ${s.id} holds a value that is not finite`);
    if (['gate', 'channel_gate', 'spatial_gate', 'gate_h', 'gate_w'].includes(s.id)) assert.ok(data.every((v) => v >= 0 && v <= 1), `${name}: ${s.id} outside [0, 1]`);
  }
}

test('fuzz: every example spec mutated, and large inputs, through the CLI and the npm module', () => {
  const seeds = [];
  for (const { id, variants } of a.catalog()) {
    for (const variant of ['', ...variants]) seeds.push({ id: variant ? `${id}/${variant}` : id, spec: a.example(id, variant).spec });
  }
  const cases = hostileCorpus(seeds, 20);
  const before = a.memory();
  const counts = new Map(); // category -> {accepted, refused}
  let slowest = { ms: 0, name: '' };
  for (const c of cases) {
    const bytes = c.bytes ?? Buffer.from(c.text);
    const started = performance.now();
    const cli = cliVerdict(bytes, c.name);
    const ms = performance.now() - started;
    if (ms > slowest.ms) slowest = { ms, name: c.name };
    let text = null;
    try { text = strictUtf8.decode(bytes); } catch { /* bytes that are not UTF-8 reach only the CLI */ }
    if (text !== null) {
      const mod = moduleVerdict(text, c.name);
      assert.equal(mod.accepted, cli.accepted, `${c.name}: the CLI ${cli.accepted ? 'accepted' : `refused (${cli.sentence})`}, the module ${mod.accepted ? 'accepted' : `refused (${mod.sentence})`}`);
      if (!cli.accepted) assert.equal(mod.sentence, cli.sentence, `${c.name}: the same sentence from native and wasm`);
      if (mod.accepted) checkAccepted(mod.trace, c.name);
    }
    if (cli.accepted) checkAccepted(cli.trace, c.name);
    const tally = counts.get(c.category) ?? { accepted: 0, refused: 0 };
    tally[cli.accepted ? 'accepted' : 'refused']++;
    counts.set(c.category, tally);
  }
  const after = a.memory();
  console.log(`fuzz: ${cases.length} cases, slowest through the CLI ${slowest.ms.toFixed(0)} ms (${slowest.name})`);
  for (const [category, { accepted, refused }] of counts) console.log(`fuzz: ${category.padEnd(16)} accepted ${accepted}, refused ${refused}`);
  assert.ok(cases.length > 500, `${cases.length} cases`);
  assert.ok([...counts.values()].every((t) => t.refused > 0), 'every category finds something to refuse');
  assert.ok(after.heapInUse - before.heapInUse <= 1 << 20, `heap in use went from ${before.heapInUse} to ${after.heapInUse}`);
});

/** f() returns or throws an AttentionError of one short line; anything else (TypeError, RangeError, an abort) fails. */
function answersOrRefuses(f, name) {
  try {
    return { value: f() };
  } catch (e) {
    assert.equal(e?.name, 'AttentionError', `${name}: ${e?.name}: ${String(e?.message).slice(0, 200)}`);
    assert.ok(e.message.length <= 400 && !e.message.includes('\n'), `${name}: ${e.message.slice(0, 200)}`);
    return { refused: e.message };
  }
}

test('fuzz: the fast path, gradients, training and explain with hostile arguments; the instance stays whole', () => {
  const rand = random(24);
  const pick = (xs) => xs[Math.floor(rand() * xs.length)];
  const odd = [0, -1, 1.5, 2 ** 31, 2 ** 32 + 1, 2 ** 53, 1e300, -0, NaN, Infinity, '1', null, undefined, {}, [], 10n, true];
  const floats = (n, scale) => Float32Array.from({ length: n }, () => (rand() * 2 - 1) * scale);
  const before = a.memory();
  const tally = { attention: [0, 0], grad: [0, 0], explain: [0, 0], train: [0, 0] };
  const count = (kind, r) => tally[kind][r.refused === undefined ? 0 : 1]++;
  const reference = Array.from(a.example('numpy-3x4').stages.find((s) => s.id === 'weights').data);
  for (let k = 0; k < 300; k++) {
    // the fast path: sizes, types and values (3e38 overflows, NaN is named)
    const d = rand() < 0.9 ? pick([1, 2, 4, 8, 64]) : pick(odd);
    const rows = () => Math.floor(rand() * 6) + (rand() < 0.1 ? 0 : 1);
    const dd = typeof d === 'number' && Number.isInteger(d) && d > 0 && d <= 64 ? d : 4;
    const scale = pick([1, 1, 1, 1e3, 3e38]);
    const nk = rows();
    const args = { q: floats(rows() * dd, scale), k: floats(nk * dd, scale), v: floats((rand() < 0.9 ? nk : rows()) * dd, scale), d,
      heads: rand() < 0.9 ? 1 : pick(odd), causal: rand() < 0.9 ? rand() < 0.5 : pick(odd) };
    if (rand() < 0.05) args.k = args.v = pick(odd);
    if (rand() < 0.05 && args.q.length) args.q[0] = NaN;
    const att = answersOrRefuses(() => a.attention(args), `attention #${k}`);
    if (att.value) assert.ok(att.value.every(Number.isFinite), `attention #${k}: an answer holds no NaN`);
    count('attention', att);
    // gradients: a random small spec with a target, its values sometimes huge
    const n = 1 + Math.floor(rand() * 4), m = 1 + Math.floor(rand() * 4);
    const big = rand() < 0.2 ? 3e38 : 1;
    const spec = { x: Array.from({ length: n }, () => Array.from(floats(m, 1))), target: Array.from({ length: n }, () => Array.from(floats(m, big))) };
    if (rand() < 0.2) spec.heads = pick([...odd, 2, m]);
    const g = answersOrRefuses(() => a.grad(spec), `grad #${k}`);
    if (g.value) assert.ok(Number.isFinite(g.value.loss) && g.value.stage_grads.every((st) => st.data.every(Number.isFinite)), `grad #${k}: finite`);
    count('grad', g);
    // explain: indices of every kind
    const t = a.example(pick(['numpy-3x4', 'multi-head', 'masking']));
    const cell = { head: rand() < 0.7 ? 0 : pick(odd), i: rand() < 0.7 ? Math.floor(rand() * 4) : pick(odd), j: rand() < 0.7 ? Math.floor(rand() * 4) : pick(odd) };
    const e = answersOrRefuses(() => a.explain(t, pick(['weights', 'scores', 'context', 'exp', 'row_sum']), cell), `explain #${k}`);
    if (e.value) assert.equal(typeof e.value, 'string');
    count('explain', e);
    const eg = answersOrRefuses(() => a.explainGrad({ x: [[1, 0], [0, 1]], target: [[0, 1], [1, 0]] }, 'weights', cell), `explainGrad #${k}`);
    count('explain', eg);
    // training: step counts of every kind
    if (k % 10 === 0) {
      const run = a.trainer(a.task('alignment'));
      const r = answersOrRefuses(() => run.step(rand() < 0.5 ? 1 + Math.floor(rand() * 5) : pick(odd)), `train #${k}`);
      if (r.value) assert.ok(r.value.every(Number.isFinite));
      count('train', r);
      run.dispose();
    }
  }
  for (const [kind, [ok, refused]] of Object.entries(tally)) {
    console.log(`fuzz: ${kind.padEnd(10)} answered ${ok}, refused ${refused}`);
    assert.ok(ok > 0 && refused > 0, `${kind}: both answers and refusals`);
  }
  assert.deepEqual(Array.from(a.example('numpy-3x4').stages.find((s) => s.id === 'weights').data), reference, 'an ordinary trace afterwards');
  const after = a.memory();
  assert.ok(after.heapInUse - before.heapInUse <= 1 << 20, `heap in use went from ${before.heapInUse} to ${after.heapInUse}`);
});

test('reproducer: a 162 MB spec is refused at once and the instance stays usable', () => {
  const row = `[${'1,'.repeat(8999)}1]`;
  const huge = `{"x":[${`${row},`.repeat(8999)}${row}]}`;
  assert.ok(huge.length > 160e6);
  const started = performance.now();
  assert.throws(() => a.trace(huge), { name: 'AttentionError', message: 'the spec is 155 MiB of text, over the limit of 16 MiB.' });
  const ms = performance.now() - started;
  console.log(`162 MB spec refused in ${ms.toFixed(1)} ms`);
  assert.ok(ms < 1000, `${ms} ms`);
  const heapBefore = a.memory().heapSize;
  for (const [n, d] of [[3, 4], [64, 64], [256, 64]]) {
    const x = Array.from({ length: n }, (_, i) => Array.from({ length: d }, (_, c) => Math.sin(i + c)));
    const t = a.trace({ x });
    assert.equal(t.stages.find((s) => s.id === 'weights').shape.join('×'), `1×${n}×${n}`);
  }
  assert.ok(a.memory().heapSize - heapBefore < 64 << 20, 'the heap did not balloon');
});

test('reproducer: many keys, tall x, many heads, a wide additive score, a huge learned table: refused fast, named', () => {
  const cases = [
    [`{"x":[[1]],${Array.from({ length: 1e6 }, (_, i) => `"k${i}":1`).join(',')}}`, 'the spec has more than 64 fields.'],
    [JSON.stringify({ x: Array(3600).fill([1]) }), /^the trace for n_q 3600, n_k 3600, d_model 1 and 1 heads would need 248 MiB, over the limit of 64 MiB/],
    [JSON.stringify({ x: Array(112).fill(Array(1024).fill(0.1)), heads: 1024 }), 'heads is 1024; at most 64.'],
    [JSON.stringify({ x: Array(1000).fill([0.1]), score: 'additive', additive: { w1: [Array(1000).fill(0.1)], w2: [Array(1000).fill(0.1)], v: Array(1000).fill(0.1) } }),
      /^the additive score would evaluate tanh 1e\+09 times \(heads · n_q · n_k · d_a\), over the limit of 3\.4e\+07/],
    [`{"x":[[1]],"positional":{"learned":[${Array(5000).fill('[1]').join(',')}]}}`, /^positional\.learned has more than 4096 entries/],
  ];
  for (const [text, message] of cases) {
    const started = performance.now();
    assert.throws(() => a.trace(text), { name: 'AttentionError', message });
    const ms = performance.now() - started;
    assert.ok(ms < 1000, `${ms.toFixed(0)} ms for ${text.slice(0, 60)}`);
    const cli = cliVerdict(Buffer.from(text), text.slice(0, 40));
    assert.equal(cli.accepted, false);
    assert.ok(message instanceof RegExp ? message.test(cli.sentence) : cli.sentence === message, cli.sentence);
  }
});

test('reproducer: sentences quote at most 80 characters, stay valid UTF-8 and say the real limit', () => {
  const long = cliVerdict(Buffer.from(`{"x":[[1]],"${'k'.repeat(10e6)}":1}`), '10 MB key');
  assert.ok(long.sentence.length < 300, long.sentence.length);
  assert.match(long.sentence, /^the spec has an unknown field "k{80}…"/);
  const bytes = cliVerdict(Buffer.concat([Buffer.from('{"x":[[1]], '), Buffer.from([0xff, 0xfe, 0xc0]), Buffer.from('}')]), 'raw bytes');
  assert.match(bytes.sentence, /^the spec is not valid JSON/);
  assert.equal(cliVerdict(Buffer.from('{"x":[[1]],"heads":2147483648}'), 'heads').sentence, 'heads is 2147483648; at most 64.');
  assert.equal(cliVerdict(Buffer.from('{"x":[[1]],"mask":{"window":16777217}}'), 'window').sentence, 'mask.window is 16777217; at most 4096.');
  const bench = spawnSync(attnCli, ['bench', '--d', '0']);
  assert.equal(bench.status, 2);
  assert.match(bench.stderr.toString(), /^attn: --d takes sizes from 1 to 4096, not "0"\./);
});

test('reproducer: ambiguous specs are refused, naming what is ambiguous', () => {
  const cases = [
    ['{"x":[[1]],"x":[[2]]}', 'the spec has the field "x" twice: give each field once.'],
    ['{"x":[[1],[2]],"weights":{"wq":[[1]],"wq":[[2]]}}', 'weights has the field "wq" twice: give each field once.'],
    ['{"x":[[1,2]],"heads":2.00000001}', 'heads is 2.00000001 but must be a whole number.'],
    ['{"x":[[1]],"mask":{"matrix":[[1e-46]]}}', 'mask.matrix[0][0] (row 1, column 1) is 1e-46 but must be 0 (masked) or 1 (kept).'],
    ['{"x":[[1]],"score":"dot","additive":{}}', 'additive is given but score is "dot": remove additive, or set score to "additive".'],
    ['{"x":[[1]],"bilinear":{"w":[[1]]}}', 'bilinear is given but score is "scaled_dot": remove bilinear, or set score to "bilinear".'],
    ['{"x":[[1],[2]],"mask":"causal","mask_value":1e9}', 'mask_value must be negative (seed 000 uses -1e9).'],
  ];
  for (const [text, message] of cases) {
    assert.throws(() => a.trace(text), { name: 'AttentionError', message });
    assert.equal(cliVerdict(Buffer.from(text), text).sentence, message);
  }
});

test('reproducer: a masked key never wins, even against a kept score below mask_value', () => {
  const spec = { x: [[100000], [-100000]], score: 'dot', mask: { matrix: [[0, 1], [1, 1]] } };
  const t = a.trace(spec);
  const stage = (id) => Array.from(t.stages.find((s) => s.id === id).data);
  assert.deepEqual(stage('masked'), [-1e9, -1e10, -1e10, 1e10]); // the masked stage shows mask_value, as seed 000 writes it
  assert.deepEqual(stage('weights'), [0, 1, 0, 1]);              // row 1's only kept key takes all the weight
  assert.deepEqual(t.empty_rows, []);
  const native = cliVerdict(Buffer.from(JSON.stringify(spec)), 'native').trace;
  assert.deepEqual(native.stages.find((s) => s.id === 'weights').data, [0, 1, 0, 1]);
  // a row with no kept key stays uniform, as the seed's code gives, and is reported
  const empty = a.trace({ x: [[1], [2]], mask: { matrix: [[0, 0], [1, 1]] } });
  assert.deepEqual(Array.from(empty.stages.find((s) => s.id === 'weights').data.subarray(0, 2)), [0.5, 0.5]);
  assert.deepEqual(empty.empty_rows, [0]);
});

test('reproducer: JavaScript values JSON cannot carry throw AttentionError with a sentence', () => {
  const cyclic = { x: [[1]] };
  cyclic.self = cyclic;
  let deep = [1];
  for (let i = 0; i < 5000; i++) deep = [deep];
  const cases = [
    [{ x: [[1n]] }, 'x[0][0] (row 1, column 1) is a BigInt (1n); use a Number.'],
    [cyclic, 'self is the same object again inside itself (a cycle), which JSON cannot write.'],
    [{ x: deep }, /^x(\[0\])+\[?… is nested more than 32 levels deep/],
    [{ x: [[1]], tokens: { query: ['\ud800'] } }, 'tokens.query[0] (label 1) is a text with a lone UTF-16 surrogate (half of a character), which is not valid Unicode.'],
    ['{"x":[[1]],"tokens":{"query":["\ud800"]}}', 'the spec is a text with a lone UTF-16 surrogate (half of a character), which is not valid Unicode.'],
    [{ x: [[NaN]] }, 'x[0][0] (row 1, column 1) is NaN, not a finite number.'],
  ];
  for (const [spec, message] of cases) assert.throws(() => a.trace(spec), { name: 'AttentionError', message });
  assert.throws(() => a.trace({ x: [[1]] }, { budget: 'huge' }), { name: 'AttentionError', message: /options\.budget is "huge"/ });
  const after = a.trace({ x: [[1, 0], [0, 1]] }).stages.find((s) => s.id === 'weights').data; // still working
  assert.deepEqual(Array.from(after, (v) => v.toFixed(4)), ['0.6698', '0.3302', '0.3302', '0.6698']);
});

test('the interactive budget: what the page computes between two frames', () => {
  const x = Array.from({ length: 1024 }, (_, i) => Array.from({ length: 64 }, (_, c) => Math.cos(i * c)));
  assert.deepEqual(a.trace({ x }).stages.find((s) => s.id === 'weights').shape, [1, 1024, 1024]); // fine for the module
  assert.throws(() => a.trace({ x }, { budget: 'interactive' }),
    { name: 'AttentionError', message: /over the playground's limit \(the npm module and the attn CLI go further\) of 16 MiB/ });
  assert.equal(a.limits.budget.interactive.traceBytes, 16 << 20);
  assert.equal(a.limits.maxPositions, 4096);
});
