// The npm module's API as a Node user calls it (imported by file path; package.test.mjs
// covers the installed tarball).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

import { AttentionError, createAttention, version } from '../../web/src/node.js';
import { cell, fillNumbers } from '../../web/src/stepper/format.js';
import { attnCli, webDir } from './helpers.mjs';

const a = await createAttention();
const stage = (trace, id) => trace.stages.find((s) => s.id === id);

test('numpy-3x4: the article\'s weights and outputs', () => {
  const t = a.example('numpy-3x4');
  const w = stage(t, 'weights');
  assert.ok(w.data instanceof Float32Array);
  assert.deepEqual(w.shape, [1, 3, 3]);
  assert.deepEqual(Array.from(w.data, (v) => v.toFixed(4)),
    ['0.5065', '0.1863', '0.3072', '0.1863', '0.5065', '0.3072', '0.2741', '0.2741', '0.4519']);
  assert.deepEqual(Array.from(stage(t, 'context').data.slice(0, 4), (v) => v.toFixed(4)),
    ['0.8137', '0.4935', '0.5065', '0.1863']);
  assert.equal(t.example.id, 'numpy-3x4');
  assert.equal(t.variant, '');
  assert.ok(t.example.summary.zh.length > 0);
});

test('trace: every stage of the contract, in order, with bilingual titles', () => {
  const t = a.trace({
    x: [[1, 0], [0, 1]], memory: [[1, 1], [0, 1], [1, 0]], positional: 'sinusoidal', mask: 'causal',
    weights: { wo: [[1, 0], [0, 1]] }, online_softmax: { block: 2 },
  });
  // this spec uses every stage but the rotation's, which take pe's place with rotary positions
  assert.deepEqual(t.stages.map((s) => s.id), a.stageIds.filter((id) => id !== 'q_rot' && id !== 'k_rot'));
  const rotated = a.trace({ x: [[1, 0, 1, 0], [0, 1, 1, 0]], heads: 2, kv_heads: 1, positional: 'rotary',
    weights: { wk: [[1, 0], [0, 1], [1, 0], [0, 1]], wv: [[0, 1], [1, 0], [1, 1], [0, 0]] } });
  assert.deepEqual(rotated.stages.map((s) => s.id).slice(0, 6), ['x', 'q', 'k', 'v', 'q_rot', 'k_rot']);
  assert.deepEqual(stage(rotated, 'k_rot').shape, [1, 2, 2]); // one key/value head for the two query heads
  assert.deepEqual(stage(rotated, 'scores').operands, ['q_rot', 'k_rot']);
  assert.deepEqual(rotated.spec.positional, { rotary: 10000 });
  assert.deepEqual(t.axes.tile, ['t1', 't2']);
  const masked = stage(t, 'masked');
  assert.equal(masked.title_zh, '掩码');
  assert.match(masked.formula, /mask_value/);
  assert.equal(masked.data[1], -1e9);
  assert.deepEqual(t.mask.shape, [2, 3]);
  assert.deepEqual(Array.from(t.mask.data), [1, 0, 0, 1, 1, 0]); // causal: query i sees keys j <= i
  assert.deepEqual(stage(t, 'weights').shape, [1, 2, 3]);
  assert.equal(t.spec.heads, 1);
  assert.equal(t.spec.mask_value, -1e9);
});

test('trace: spec as JSON text, and typed-array rows', () => {
  const fromText = a.trace('{"x": [[1, 0, 1, 0], [0, 1, 0, 1], [1, 1, 0, 0]]}');
  const fromTyped = a.trace({ x: [new Float32Array([1, 0, 1, 0]), new Float64Array([0, 1, 0, 1]), [1, 1, 0, 0]] });
  assert.deepEqual(stage(fromText, 'weights').data, stage(fromTyped, 'weights').data);
});

test('errors: the core\'s sentence as an AttentionError, and the instance keeps working', () => {
  const cases = [
    [{ x: [[1, 2], [3]] }, 'row 2 of x has 1 values but row 1 has 2: every row needs the same length.'],
    [{ x: [[1, Number.NaN]] }, 'x[0][1] (row 1, column 2) is NaN, not a finite number.'],
    [{ x: [[1, 2]], weights: { wq: [[Infinity, 0], [0, 1]] } }, 'weights.wq[0][0] (row 1, column 1) is Infinity, not a finite number.'],
    ['{"x": [[1e39]]}', 'x[0][0] (row 1, column 1) is 1e+39, outside the float range (±3.4e38).'],
    [{ x: [[1, 2, 3]], heads: 2 }, 'heads is 2 but d_model 3 is not divisible by it.'],
    [{ x: [[1, 2]], score: 'cosine' }, 'score "cosine" is unknown: use "dot", "scaled_dot", "additive" or "bilinear".'],
    [{ x: [] }, 'x is empty: it needs at least one row.'],
    [null, 'the spec must be an object (or JSON text) with at least "x".'],
    ['{"x": [[1]]', undefined],
  ];
  for (const [spec, sentence] of cases) {
    assert.throws(() => a.trace(spec), (e) => {
      assert.ok(e instanceof AttentionError && e instanceof Error);
      assert.equal(e.name, 'AttentionError');
      if (sentence) assert.equal(e.message, sentence);
      else assert.match(e.message, /^the spec is not valid JSON/);
      return true;
    });
    assert.equal(stage(a.trace({ x: [[1, 0], [0, 1]] }), 'weights').data.length, 4);
  }
  assert.throws(() => a.example('nope'), /example "nope" is unknown/);
  assert.throws(() => a.example('bank', 'sea'), /no variant "sea" \(known: river, finance\)/);
  assert.throws(() => a.example(42), AttentionError);
});

test('examples() and catalog(): the seventeen of docs/spec.md with their variants', () => {
  const ids = a.examples();
  assert.deepEqual(ids, ['numpy-3x4', 'basic-attention', 'translation', 'long-range', 'bank',
    'coreference', 'context-window', 'score-functions', 'multi-head', 'masking', 'positional-encoding', 'complexity', 'online-softmax',
    'se-block', 'eca-block', 'cbam-block', 'coordinate-attention']);
  for (const id of ids) assert.equal(a.example(id).example.id, id);
  const list = a.catalog();
  assert.deepEqual(list.map((e) => e.id), ids);
  assert.equal(list[2].title.zh, '翻译中的交叉注意力：每个中文词回看英文句子');
  assert.deepEqual(list.find((e) => e.id === 'masking').variants, ['causal', 'padding', 'window']);
  const finance = a.example('bank', 'finance');
  assert.equal(finance.variant, 'finance');
  assert.deepEqual(finance.spec.tokens.query, ['银行', '的', '存款', '利率']);
  list[0].id = 'changed'; // copies: the next calls are unaffected
  ids[0] = 'changed';
  assert.equal(a.catalog()[0].id, 'numpy-3x4');
  assert.equal(a.examples()[0], 'numpy-3x4');
});

test('data are copies JS owns: changing one does not change the next trace', () => {
  const first = a.example('numpy-3x4');
  stage(first, 'weights').data.fill(7);
  assert.equal(stage(a.example('numpy-3x4'), 'weights').data[0].toFixed(4), '0.5065');
  // a view into the wasm heap would be detached (emptied) when the heap grows; a copy is not
  const before = Array.from(stage(first, 'weights').data);
  const heap = a.memory().heapSize;
  a.trace({ x: Array.from({ length: 1200 }, (_, i) => [Math.sin(i), Math.cos(i)]) }); // about 30 MiB of stages
  assert.ok(a.memory().heapSize > heap, 'the heap grew');
  assert.deepEqual(Array.from(stage(first, 'weights').data), before);
});

test('version matches package.json, one shared instance', async () => {
  const pkg = JSON.parse(readFileSync(path.join(webDir, 'package.json'), 'utf8'));
  assert.equal(version, pkg.version);
  assert.equal(a.version, pkg.version);
  assert.equal(await createAttention(), a);
});

test('index.d.ts spells the core\'s example, task, vision-stage and model-stage ids', () => {
  const dts = readFileSync(path.join(webDir, 'types/index.d.ts'), 'utf8');
  const union = (name) => dts.match(new RegExp(`export type ${name} =([^;]+);`))[1].match(/'([a-z0-9_-]+)'/g).map((q) => q.slice(1, -1));
  const cliExamples = spawnSync(attnCli, ['examples'], { encoding: 'utf8' }).stdout.trim().split('\n');
  assert.deepEqual(union('ExampleId'), cliExamples, 'ExampleId: attn examples, in order');
  assert.deepEqual(a.examples(), cliExamples);
  assert.deepEqual(union('TaskId'), a.tasks(), 'TaskId: the core\'s training tasks, in order');
  // every vision stage some block's trace has (each example with each of its variants), and no other
  const vision = new Set();
  for (const id of a.examples()) {
    if (a.example(id).kind !== 'vision') continue;
    for (const v of [undefined, ...(a.exampleDocument(id).variants ?? []).map((x) => x.name)]) a.example(id, v).stages.forEach((st) => vision.add(st.id));
  }
  assert.deepEqual(new Set(union('VisionStageId')), vision, 'VisionStageId: the vision blocks\' stages');
  // attn lm stages: the model's own rows are ModelStageId's names, each layer's attention rows StageId's
  const model = JSON.parse(spawnSync(attnCli, ['lm', 'stages'], { encoding: 'utf8' }).stdout);
  assert.deepEqual(union('ModelStageId'), model.filter((st) => st.kind === 'model').map((st) => st.id), 'ModelStageId: attn lm stages, in order');
  const stageIds = union('StageId');
  assert.ok(model.filter((st) => st.kind === 'attention').every((st) => stageIds.includes(st.id)), 'the attention rows are StageIds');
});

test('index.d.ts\'s Spec has every field of the core\'s field tables, and no other; its ScoreKind is the core\'s', () => {
  const dts = readFileSync(path.join(webDir, 'types/index.d.ts'), 'utf8');
  const spec = dts.match(/export interface Spec \{([\s\S]*?)\n\}/)[1].replace(/\/\*\*[\s\S]*?\*\//g, '');
  const { sequence } = a.schema();
  // the top-level fields: each "name?:" (or "name:") at the interface's own level, in the core's order
  const top = [...spec.matchAll(/^ {2}([a-z_]+)\??:/gm)].map((m) => m[1]);
  assert.deepEqual(top, sequence.top, 'Spec lists the core\'s top-level fields in docs/spec.md\'s order');
  // each matrix and vector under its parent (mask.matrix and positional.learned are the Mask and Positional types')
  const typeOf = (name) => (name === 'mask' ? dts.match(/export type Mask =([^;]+);/)[1]
    : name === 'positional' ? dts.match(/export type Positional =([^;]+);/)[1] : spec.match(new RegExp(`^  ${name}\\??:(.*)$`, 'm'))[1]);
  for (const { path: fieldPath, rank } of sequence.tensors) {
    const [parent, child] = fieldPath.split('.');
    const type = typeOf(parent);
    const want = rank === 2 ? 'Matrix' : 'Vector';
    if (!child) assert.match(type, new RegExp(want), `${fieldPath}: a ${want}`);
    else assert.match(type, new RegExp(`\\b${child}\\??: ${want}\\b`), `${fieldPath}: ${child} is a ${want} in Spec's ${parent}`);
  }
  const children = (parent) => [...typeOf(parent).matchAll(/\b([a-z0-9_]+)\??: (Matrix|Vector)/g)].map((m) => `${parent}.${m[1]}`);
  const typed = ['weights', 'additive', 'bilinear', 'mask', 'positional'].flatMap(children);
  assert.deepEqual(typed.sort(), sequence.tensors.filter((f) => f.path.includes('.')).map((f) => f.path).sort(), 'no matrix the table lacks');
  // each number and list of labels under its parent, of its kind (mask.window is the Mask type's)
  for (const { path: fieldPath, kind } of sequence.scalars) {
    const [parent, child] = fieldPath.split('.');
    const want = kind === 'labels' ? 'string\\[\\]' : 'number';
    assert.match(typeOf(parent), new RegExp(child ? `\\b${child}\\??: ${want}` : want), `${fieldPath}: a ${kind} in Spec`);
  }
  // each row's keys are TensorField's and ScalarField's, and no other
  const keysOf = (name) => [...dts.match(new RegExp(`export interface ${name} \\{([\\s\\S]*?)\\n\\}`))[1].replace(/\/\*\*[\s\S]*?\*\//g, '')
    .matchAll(/^ {2}([a-z_]+)\??:/gm)].map((m) => m[1]).sort();
  assert.deepEqual(keysOf('TensorField'), [...new Set(sequence.tensors.flatMap(Object.keys))].sort(), 'TensorField: the core\'s columns');
  assert.deepEqual(keysOf('ScalarField'), [...new Set(sequence.scalars.flatMap(Object.keys))].sort(), 'ScalarField: the core\'s columns');
  assert.deepEqual(sequence.tensors.find((f) => f.path === 'weights.bo'), { path: 'weights.bo', rank: 1, shape: 'd_model', symbol: 'b_o',
    param: 'bo', grad: 'bo', packed: true, score: '', bias_of: 'weights.wo', start: '' }, 'a bias row, as the core wrote it');
  // every kind and every scalar has its label in both languages (the editor draws its controls from these)
  for (const fieldPath of [...Object.keys(sequence.choices), ...sequence.scalars.map((f) => f.path)]) {
    assert.ok(sequence.labels[fieldPath]?.en && sequence.labels[fieldPath]?.zh, `${fieldPath}: a label in en and zh`);
  }
  assert.equal(sequence.scalars.find((f) => f.path === 'mask.window').start, 2, 'a new window mask keeps 2 keys');
  const scoreKind = dts.match(/export type ScoreKind =([^;]+);/)[1].match(/'([a-z_]+)'/g).map((q) => q.slice(1, -1));
  assert.deepEqual(scoreKind, sequence.choices.score);
  assert.ok(a.schema().vision.tensors.some((f) => f.path === 'feature' && f.rank === 3), 'the vision part\'s table, once loaded');
});

test('the stage registry is the core\'s: ids in trace order, and index.d.ts spells the same union', () => {
  const cli = JSON.parse(spawnSync(attnCli, ['stages']).stdout);
  assert.deepEqual(a.stages().map((s) => s.id), cli.map((s) => s.id)); // the module reads what the CLI prints
  assert.deepEqual([...a.stageIds], cli.map((s) => s.id));
  const dts = readFileSync(path.join(webDir, 'types/index.d.ts'), 'utf8');
  const union = dts.match(/export type StageId =([^;]+);/)[1].match(/'([a-z_]+)'/g).map((q) => q.slice(1, -1));
  assert.deepEqual(union, [...a.stageIds], 'types/index.d.ts StageId must list the registry\'s ids in order');
  const weights = a.stages().find((s) => s.id === 'weights');
  assert.deepEqual([weights.symbol, weights.per_head, weights.rows, weights.cols], ['α', true, 'query', 'key']);
  const t = a.example('translation');
  assert.deepEqual(t.stages.find((s) => s.id === 'weights').operands, ['exp', 'row_sum']);
  assert.deepEqual(t.axes.query, ['猫', '坐', '在', '垫子', '上']);
  assert.deepEqual(t.axes.key, ['The', 'cat', 'sat', 'on', 'the', 'mat']);
  // each trace's axes are its own copy: changing one trace's changes no other (the core keeps them per structure)
  t.axes.query[0] = 'changed';
  assert.equal(a.example('translation').axes.query[0], '猫');
  const cbam = a.example('cbam-block');
  cbam.stages[0].axes.channels[0] = 'changed';
  assert.notEqual(a.example('cbam-block').stages[0].axes.channels[0], 'changed', 'a vision stage\'s axes likewise');
  assert.equal(t.bytes, t.stages.reduce((sum, s) => sum + s.data.byteLength, 0));
  assert.ok(Number.isFinite(t.compute_ms) && t.compute_ms >= 0, `compute_ms: ${t.compute_ms}`);
  assert.equal(a.exampleDocument('bank').id, 'bank');
  assert.throws(() => a.exampleDocument('nope'), { name: 'AttentionError' });
});

test('vision: a.trace and a.example give vision traces; bad vision specs throw AttentionError with the core\'s sentence', () => {
  const t = a.trace({ kind: 'vision', block: 'eca', feature: [[[1]], [[2]], [[3]]], eca: { w: [1, 10, 100] } });
  assert.equal(t.kind, 'vision');
  assert.deepEqual(Array.from(t.stages.find((s) => s.id === 'conv1d').data), [210, 321, 32]);
  assert.equal(t.stages[0].title_zh, '特征图');
  assert.equal(a.example('se-block').spec.channels[0], 'cat shape');
  for (const [spec, says] of [
    [{ kind: 'vision', block: 'eca', feature: [[[1]]], eca: { w: [1, 2] } }, 'eca.w is 2 wide: the kernel size must be odd, so it has a centre.'],
    [{ kind: 'vision', block: 'se', feature: [[[1]]], se: { w1: [[1]], w2: [[1]] }, heads: 2 }, 'heads belongs to the sequence spec; a vision spec has kind, block, feature, channels and its block\'s parameters.'],
    [{ x: [[1]], feature: [[[1]]] }, 'feature belongs to a vision spec: add "kind": "vision".'],
    [{ kind: 'vision', block: 'ca', feature: [[[1]]], ca: { w1: [[1]], wh: [[1]], ww: [[1]], bn: { gamma: [1], beta: [0], mean: [0], var: [-1] } } }, 'ca.bn.var[0] is −1: a variance cannot be negative.'],
  ]) assert.throws(() => a.trace(spec), { name: 'AttentionError', message: says });
  assert.throws(() => a.explain(t, 'conv1d', { index: 3 }), { name: 'AttentionError', message: 'stage conv1d has 3 values; there is no value 4.' });
});

test('numbers are formatted one way: the CLI table and its notes read as the page\'s cell() and fillNumbers()', () => {
  const t = a.example('numpy-3x4');
  const table = spawnSync(attnCli, ['example', 'numpy-3x4']).stdout.toString();
  const weightsBlock = table.split('== weights')[1].split('\n== ')[0].split('\n');
  const w = t.stages.find((s) => s.id === 'weights').data;
  const rows = weightsBlock.filter((line) => line.startsWith('token_')).map((line) => line.trim().split(/\s+/).slice(1));
  assert.deepEqual(rows.flat(), Array.from(w, cell));
  const note = fillNumbers(t.example.notes.weights.en, t);
  assert.ok(table.includes(note), `the CLI prints the same note: ${note}`);
  assert.match(note, /normalised = 0\.5065, 0\.1863, 0\.3072/);
  // exact halves go to the even digit, as C's printf does in the core: the same value reads the same in caption and cell
  const se = a.example('se-block');
  const z = se.stages.find((s) => s.id === 'pool_avg').data;
  assert.equal(z[1], 0.28125);
  assert.equal(cell(z[1]), '0.2812');
  assert.equal(a.explain(se, 'pool_avg', { index: 1 }).split(' = ').at(-1), cell(z[1]));
  assert.deepEqual([0.00005, 0.00015, -0.28125, 1.00005].map((v) => cell(Math.fround(v))), [Math.fround(0.00005), Math.fround(0.00015), Math.fround(-0.28125), Math.fround(1.00005)].map((v) => {
    const table = spawnSync(attnCli, ['explain', '-', 'x'], { input: JSON.stringify({ x: [[v]] }) }).stdout.toString();
    return JSON.parse(table.trim()).text.split(' = ').at(-1);
  }));
});
