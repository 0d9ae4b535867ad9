// The heatmaps' colour scales, checked as numbers: readable text on every colour, a weights scale
// that darkens steadily (so more weight always looks stronger), and small differences visible.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { contrast, inkFor, signedColor, weightColor } from '../../web/src/stepper/colors.js';

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
