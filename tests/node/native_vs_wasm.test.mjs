// The same specs through the native attn CLI and through the wasm module: every stage,
// every value within 1e-5 (they run the same C++; only the compiler and SIMD width differ).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { createAttention } from '../../web/src/node.js';
import { maxDiff, nativeTrace, random, randomSpec } from './helpers.mjs';

const SPECS = 120;
const TOLERANCE = 1e-5;

test(`native CLI and wasm agree on ${SPECS} random specs, every stage within ${TOLERANCE}`, async () => {
  const a = await createAttention();
  const rand = random(20261129);
  const seen = { score: new Set(), mask: new Set(), heads: new Set(), cross: new Set(), pe: new Set() };
  let stages = 0;
  let worst = 0;
  for (let i = 0; i < SPECS; i++) {
    const spec = randomSpec(rand, i);
    seen.score.add(spec.score);
    seen.mask.add(JSON.stringify(spec.mask ?? 'none').slice(0, 8));
    seen.heads.add(spec.heads);
    seen.cross.add('memory' in spec);
    seen.pe.add(JSON.stringify(spec.positional ?? 'none').slice(0, 8));
    const native = nativeTrace(spec);
    const wasm = a.trace(spec);
    assert.deepEqual(wasm.stages.map((s) => s.id), native.stages.map((s) => s.id), `spec ${i}: stage ids`);
    assert.deepEqual(wasm.spec, native.spec, `spec ${i}: normalised spec`);
    assert.deepEqual(wasm.mask && { shape: wasm.mask.shape, data: Array.from(wasm.mask.data) }, native.mask, `spec ${i}: mask`);
    wasm.stages.forEach((s, k) => {
      const n = native.stages[k];
      assert.deepEqual(s.shape, n.shape, `spec ${i} ${s.id}: shape`);
      assert.equal(s.formula, n.formula);
      const { worst: w, first } = maxDiff(s.data, n.data, TOLERANCE);
      assert.equal(first, -1, `spec ${i} ${s.id}: first difference at [${first}]: wasm ${s.data[first]} vs native ` +
        `${n.data[first]}; max |diff| ${w}\n${JSON.stringify(spec)}`);
      worst = Math.max(worst, w);
      stages++;
    });
  }
  assert.deepEqual([seen.score.size, seen.mask.size, seen.heads.size, seen.cross.size, seen.pe.size], [4, 4, 8, 2, 3],
    'the random specs cover every score, mask kind, head count 1-8, self/cross and positional kind');
  console.log(`native vs wasm: ${SPECS} specs, ${stages} stages, max |diff| ${worst}`);
});

test('vision: the four blocks\' examples and random vision specs agree native vs wasm; a vision example traces in well under a millisecond', async () => {
  const a = await createAttention();
  const { spawnSync } = await import('node:child_process');
  const { attnCli } = await import('./helpers.mjs');
  const rand = random(7);
  const r = (lo, hi) => lo + Math.floor(rand() * (hi - lo + 1));
  const values = (n) => Array.from({ length: n }, () => Math.round((rand() * 4 - 2) * 1000) / 1000);
  const matrix = (rows, cols) => Array.from({ length: rows }, () => values(cols));
  const specs = ['se-block', 'eca-block', 'cbam-block', 'coordinate-attention'].map((id) => a.example(id).spec);
  for (let i = 0; i < 24; i++) {
    const [c, h, w, m] = [r(1, 6), r(1, 9), r(1, 9), r(1, 4)];
    const block = ['se', 'eca', 'cbam', 'ca'][i % 4];
    const feature = Array.from({ length: c }, () => matrix(h, w));
    const k = [1, 3, 5][r(0, 2)];
    const params = {
      se: { w1: matrix(c, m), w2: matrix(m, c), b2: values(c) },
      eca: { w: values(k) },
      cbam: { w1: matrix(c, m), w2: matrix(m, c), spatial: [matrix(k, k), matrix(k, k)], spatial_bias: 0.5 },
      ca: { w1: matrix(c, m), wh: matrix(m, c), ww: matrix(m, c), bn: { gamma: values(m), beta: values(m), mean: values(m), var: values(m).map(Math.abs) } },
    }[block];
    specs.push({ kind: 'vision', block, feature, [block]: params });
  }
  let worst = 0;
  for (const [i, spec] of specs.entries()) {
    const native = JSON.parse(spawnSync(attnCli, ['trace', '-'], { input: JSON.stringify(spec) }).stdout);
    const wasm = a.trace(spec);
    assert.equal(wasm.kind, 'vision');
    assert.deepEqual(wasm.stages.map((s) => s.id), native.stages.map((s) => s.id), `vision spec ${i}`);
    assert.deepEqual(wasm.spec, native.spec);
    wasm.stages.forEach((s, k) => {
      assert.deepEqual(s.shape, native.stages[k].shape);
      assert.deepEqual(s.operands, native.stages[k].operands, `vision spec ${i} ${s.id}: the core's operands`);
      assert.deepEqual(s.axes, native.stages[k].axes, `vision spec ${i} ${s.id}: the core's axis labels`);
      const lengths = s.shape.length === 3 ? [s.axes.channels, s.axes.rows, s.axes.cols] : s.shape.length === 2 ? [s.axes.rows, s.axes.cols] : [s.axes.cols];
      assert.deepEqual(lengths.map((l) => l.length), s.shape, `vision spec ${i} ${s.id}: a label for every row and column`);
      // every operand is an earlier stage of the same trace
      assert.ok(s.operands.every((o) => wasm.stages.findIndex((x) => x.id === o) < k && wasm.stages.some((x) => x.id === o)));
      const { worst: d, first } = maxDiff(s.data, native.stages[k].data, TOLERANCE);
      assert.equal(first, -1, `vision spec ${i} ${s.id}: wasm ${s.data[first]} vs native ${native.stages[k].data[first]}`);
      worst = Math.max(worst, d);
    });
  }
  const times = ['se-block', 'eca-block', 'cbam-block', 'coordinate-attention'].map((id) => {
    for (let k = 0; k < 200; k++) a.example(id);
    const t0 = performance.now();
    for (let k = 0; k < 1000; k++) a.example(id);
    return `${id} ${((performance.now() - t0)).toFixed(1)} µs`;
  });
  console.log(`vision native vs wasm: ${specs.length} specs, max |diff| ${worst}; a.example per call: ${times.join(', ')}`);
});

test('one writer for the arithmetic: the page\'s captions (wasm) and the CLI\'s explain (native) say the same for every cell', async () => {
  const { spawnSync } = await import('node:child_process');
  const { attnCli } = await import('./helpers.mjs');
  const { shownStages } = await import('../../web/src/stepper/steps.js');
  const { exact } = await import('../../web/src/stepper/format.js');
  const a = await createAttention();
  let compared = 0;
  for (const id of a.examples()) {
    const t = a.example(id);
    for (const stage of shownStages(t)) {
      const lines = spawnSync(attnCli, ['explain', '-', stage.id], { input: JSON.stringify(t.spec) }).stdout.toString().trim().split('\n');
      for (const { i, j, index, text } of lines.map((l) => JSON.parse(l))) {
        if (i >= 48 || j >= 48) continue; // the page draws at most 48 × 48
        // a vision stage's values are numbered row-major (index); a sequence stage's by row and column
        assert.equal(a.explain(t, stage.id, t.kind === 'vision' ? { index } : { i, j }), text, `${id} ${stage.id}[${index ?? `${i}][${j}`}]`);
        compared++;
      }
    }
  }
  const t = a.example('numpy-3x4');
  const w = t.stages.find((s) => s.id === 'weights').data;
  const detail = a.explain(t, 'weights', { i: 0, j: 1, detail: true });
  assert.ok(detail.endsWith(`= ${exact(w[1])}`), `the core's exact digits are the page's: ${detail}`);
  assert.throws(() => a.explain(t, 'weights', { i: 9, j: 0 }), { name: 'AttentionError' });
  console.log(`explain: ${compared} cells, native and wasm word for word`);
});
