// The kernels really run as WebAssembly SIMD: wasm-objdump -d lists f32x4 multiply and add
// inside each attn::simd kernel, and none inside their scalar twins. Read in the fast part, whose benchmark
// entry (attn_forward) links both kernel sets; the core's traces run the same attn::simd functions.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

import { repo } from './helpers.mjs';

const bin = path.join(repo, 'build/wasm/bin');

test('attn::simd kernels compile to f32x4.mul and f32x4.add; the scalar twins do not', () => {
  // the symbol map (emitted beside the build, not shipped) names each function index
  const names = new Map(readFileSync(path.join(bin, 'attention_fast.js.symbols'), 'utf8').trim().split('\n')
    .map((line) => [Number(line.slice(0, line.indexOf(':'))), line.slice(line.indexOf(':') + 1)]));
  const listing = execFileSync('wasm-objdump', ['-d', path.join(bin, 'attention_fast.wasm')], { maxBuffer: 1 << 28 })
    .toString();
  const bodies = new Map(); // function index -> its instructions
  let current = null;
  for (const line of listing.split('\n')) {
    const head = line.match(/^[0-9a-f]+ func\[(\d+)\]/);
    if (head) bodies.set((current = Number(head[1])), []);
    else if (current !== null) bodies.get(current).push(line);
  }
  const body = (prefix) => {
    const found = [...names].filter(([, name]) => name.startsWith(prefix));
    assert.equal(found.length, 1, `one function named ${prefix}`);
    return bodies.get(found[0][0]).join('\n');
  };
  for (const kernel of ['matmul\\28', 'matmul_bt', 'softmax_rows']) {
    const simd = body(`attn::simd::${kernel}`);
    assert.match(simd, /f32x4\.mul/, `attn::simd::${kernel} multiplies four lanes at a time`);
    assert.match(simd, /f32x4\.add/, `attn::simd::${kernel} adds four lanes at a time`);
    assert.doesNotMatch(body(`attn::scalar::${kernel}`), /f32x4/, `attn::scalar::${kernel} stays scalar`);
  }
  assert.match(body('attn::simd::softmax_rows'), /f32x4\.div/);
});
