// Numbers read from a spec's JSON text: the WebAssembly build reads them through its own fast path
// (core/src/io/strtod_wasm.cpp) in front of the C library's strtod. Every number must come out as the
// float nearest to it, exactly as JavaScript's own Number() then Math.fround() reads it.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { createAttention } from '../../web/src/node.js';
import { random } from './helpers.mjs';

const a = await createAttention();

/**
 * The floats the core read from these number texts, each written as a spec's mask_value (a number
 * that feeds no arithmetic, so any size is fine; it must be negative). The trace's spec gives it
 * back as the shortest decimal of that float.
 */
const read = (texts) => texts.map((t) => Math.fround(a.trace(`{"x": [[1]], "mask_value": -${t}}`).spec.mask_value));
const expected = (t) => Math.fround(-Number(t));

test('hand-picked numbers: the fast path\'s edges and the fallback\'s cases read as Math.fround(Number(text))', () => {
  const texts = ['1', '0.1', '0.5', '1e9', '1e22', '1e23', '1e-22', '1e-23', '123456789012345', '1234567890123456',
    '12345678901234567890', '0.30000000000000004', '9007199254740993', '2.2250738585072014e-308', '5e-324', '1e-45', '1.4e-45',
    '3.4028234663852886e38', '0.000001', '0.0000001234567', '100000000000000000000000', '1.0e+2', '1E2', '2.5E-3',
    '0.1234567890123456789', '7.0000000000000001', '0.5e1', '1.5e-7', '0.00000000000000000000001e22'].filter((t) => Math.fround(Number(t)) > 0); // mask_value is negative: no zero
  const got = read(texts);
  texts.forEach((t, i) => assert.equal(got[i], expected(t), `${t} read as ${got[i]}`));
});

test('5,000 random decimals of 1 to 20 digits and exponents from −60 to 40: every one the nearest float', () => {
  const rand = random(7);
  for (let batch = 0; batch < 5; batch++) {
    const texts = Array.from({ length: 1000 }, () => {
      const digits = 1 + Math.floor(rand() * 20);
      let m = String(1 + Math.floor(rand() * 9));
      for (let k = 1; k < digits; k++) m += String(Math.floor(rand() * 10));
      const point = Math.floor(rand() * (digits + 1));
      const body = point === digits ? m : `${m.slice(0, point) || '0'}.${m.slice(point)}`;
      const e = Math.floor(rand() * 100) - 60;
      return `${body}${rand() < 0.5 ? `e${e}` : ''}`;
    }).filter((t) => Number(t) < 3.4e38 && Math.fround(Number(t)) > 0);
    const got = read(texts);
    texts.forEach((t, i) => assert.equal(got[i], expected(t), `${t} read as ${got[i]}`));
  }
});
