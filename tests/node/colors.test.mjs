// The heatmaps' colour scales, checked as numbers: readable text on every colour, a weights scale
// that darkens steadily (so more weight always looks stronger), and small differences visible.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { contrast, inkFor, signedColor, weightColor } from '../../web/src/stepper/colors.js';
import { random } from './helpers.mjs';

const luminance = ([r, g, b]) => 0.2126 * r + 0.7152 * g + 0.0722 * b; // enough for an ordering

test('cell text is at least 4.5:1 on every colour of both scales', () => {
  for (let k = 0; k <= 100; k++) {
    for (const rgb of [weightColor(k / 100), signedColor(k / 50 - 1)]) {
      const ink = inkFor(rgb) === '#000' ? [0, 0, 0] : [255, 255, 255];
      assert.ok(contrast(rgb, ink) >= 4.5, `rgb(${rgb}) with ${inkFor(rgb)}: ${contrast(rgb, ink).toFixed(2)}:1`);
    }
  }
});

test('weights: a larger weight is always darker; white sits at 0 on the signed scale', () => {
  for (let k = 1; k <= 100; k++) assert.ok(luminance(weightColor(k / 100)) < luminance(weightColor((k - 1) / 100)), `at ${k / 100}`);
  assert.deepEqual(signedColor(0), [247, 247, 247]);
  assert.ok(signedColor(-1)[2] > signedColor(-1)[0], 'negative is blue');
  assert.ok(signedColor(1)[0] > signedColor(1)[2], 'positive is red');
});

test('positional-encoding weights of 0.09 and 0.18 are visibly apart (scaled to the matrix\'s largest, 0.18)', () => {
  const [a, b] = [weightColor(0.09 / 0.18), weightColor(1)];
  const distance = Math.hypot(...a.map((c, i) => c - b[i]));
  assert.ok(distance > 100, `only ${distance.toFixed(0)} apart in RGB`);
});

// Each stage's colour scale is a fact of the stage, in the core's registry; checked here against the
// values of every worked example: a stage said to be never negative never is, a probability stays in
// [0, 1], and a stage coloured as signed has a negative value in some example (else it would waste
// half its scale on values that never occur).
test('colour scales from the registry: positive stages never negative, probabilities in [0, 1], signed ones signed somewhere', async () => {
  const { createAttention } = await import('../../web/src/node.js');
  const a = await createAttention();
  const kinds = new Map(a.stages().map((s) => [s.id, s.scale]));
  assert.deepEqual([...new Set(kinds.values())].sort(), ['positive', 'probability', 'signed']);
  const negative = new Set();
  for (const { id, variants } of a.catalog()) {
    for (const variant of ['', ...(variants ?? [])]) {
      const trace = a.example(id, variant);
      for (const stage of trace.stages) {
        assert.equal(stage.scale, trace.kind === 'vision' ? stage.scale : kinds.get(stage.id), `${id} ${stage.id}: the trace carries the registry's scale`);
        const finite = [...stage.data].filter((v) => Number.isFinite(v) && Math.abs(v) < 1e8); // masked scores read mask_value
        if (finite.some((v) => v < 0)) negative.add(`${trace.kind}:${stage.id}`);
        if (stage.scale !== 'signed') assert.ok(finite.every((v) => v >= 0), `${id} ${stage.id} is coloured from 0 but has a negative value`);
        if (stage.scale === 'probability') assert.ok(finite.every((v) => v <= 1 + 1e-6), `${id} ${stage.id} is a probability above 1`);
      }
    }
  }
  // and on specs of random signed numbers with every stage (two heads, causal mask, online softmax, PE,
  // W_o): every stage coloured as signed takes both signs somewhere, the others never go below 0
  const rand = random(27);
  const signed = (r, c) => Array.from({ length: r }, () => Array.from({ length: c }, () => Math.round((rand() * 4 - 2) * 100) / 100));
  // (every other one with rotary positions and one key/value head for the two query heads instead of PE)
  for (let k = 0; k < 8; k++) {
    const rotary = k % 2 === 1;
    const trace = a.trace({
      x: signed(6, 4), weights: { wq: signed(4, 4), wk: signed(4, rotary ? 2 : 4), wv: signed(4, rotary ? 2 : 4), wo: signed(4, 4) },
      heads: 2, mask: 'causal', online_softmax: { block: 2 }, ...(rotary ? { positional: 'rotary', kv_heads: 1 } : { positional: 'sinusoidal' }),
    });
    for (const stage of trace.stages) {
      const finite = [...stage.data].filter((v) => Number.isFinite(v) && Math.abs(v) < 1e8);
      if (finite.some((v) => v < 0)) negative.add(`sequence:${stage.id}`);
      if (stage.scale !== 'signed') assert.ok(finite.every((v) => v >= 0), `random spec ${k}: ${stage.id} is coloured from 0 but has a negative value`);
    }
  }
  const unsigned = [...kinds].filter(([id, scale]) => scale === 'signed' && id !== 'memory' && !negative.has(`sequence:${id}`)).map(([id]) => id);
  assert.deepEqual(unsigned, [], 'coloured as signed, but never negative'); // memory: an input, the reader's sign
  assert.equal(kinds.get('weights'), 'probability');
  assert.equal(kinds.get('exp'), 'positive');
  assert.equal(kinds.get('row_sum'), 'positive');
});
