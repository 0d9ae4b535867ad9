// wasm/relaxed_simd.mjs, which turns clang 14's prototype relaxed madd into the standard f32x4.relaxed_madd in the
// model folders' relaxed-SIMD twins: it rewrites the instruction and nothing else (never the same bytes inside an
// immediate), walks every module we ship to its end, refuses a module it cannot walk, and the twins it made hold the
// standard instruction only. web/src/relaxed_simd.js's probe says what the engine runs.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

import { PROTOTYPE_MADD, rewriteRelaxedMadd, STANDARD_MADD, walkSimd } from '../../wasm/relaxed_simd.mjs';
import { MODULES } from '../../web/module_facts.mjs';
import { repo } from './helpers.mjs';

const leb = (n) => (n < 128 ? [n] : [(n & 0x7f) | 0x80, n >> 7]);
const madd = (op) => [0xfd, ...leb(op)];
const v128zero = [0xfd, 0x0c, ...new Array(16).fill(0)];

/** A module of one () -> v128 function whose body is `code` (without its locals' count and end). */
function moduleOf(code) {
  const body = [0x00, ...code, 0x0b];
  return new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, 0x01, 0x05, 0x01, 0x60, 0x00, 0x01, 0x7b, 0x03, 0x02, 0x01, 0x00,
    0x0a, body.length + 2, 0x01, body.length, ...body]);
}

test('the prototype madd is rewritten where it is an instruction, not where its bytes are an immediate', () => {
  // i32.const whose LEB128 is the very bytes fd af 01, dropped; then madd(0, 0, 0)
  const code = [0x41, ...madd(PROTOTYPE_MADD), 0x1a, ...v128zero, ...v128zero, ...v128zero, ...madd(PROTOTYPE_MADD)];
  const { bytes, count } = rewriteRelaxedMadd(moduleOf(code));
  assert.equal(count, 1);
  assert.deepEqual([...bytes], [...moduleOf([0x41, ...madd(PROTOTYPE_MADD), 0x1a, ...v128zero, ...v128zero, ...v128zero, ...madd(STANDARD_MADD)])]);
});

test('a module it cannot walk is refused, naming the byte', () => {
  assert.throws(() => rewriteRelaxedMadd(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8])), /not a WebAssembly module/);
  assert.throws(() => rewriteRelaxedMadd(moduleOf([0x44])), /ends inside an instruction|overruns/);
  assert.throws(() => rewriteRelaxedMadd(moduleOf([0xc5])), /an unknown instruction 0xc5 at byte \d+/);
  const truncated = moduleOf([...v128zero]).slice(0, 30);
  assert.throws(() => rewriteRelaxedMadd(truncated), /runs past/);
});

test('every module we ship is walked to its end; the twins hold the standard instruction, the plain modules neither', () => {
  const dist = path.join(repo, 'web/dist');
  for (const { name, target, relaxed } of MODULES) {
    const plain = path.join(dist, name, `${target}.wasm`);
    if (!existsSync(plain)) {
      assert.ok(!relaxed, `${name}: not built`); // Attention Lab's module is built into the site, not web/dist
      continue;
    }
    // the plain module: walked with nothing to rewrite
    assert.equal(rewriteRelaxedMadd(readFileSync(plain)).count, 0, `${name}: a prototype madd in the plain module`);
    if (!relaxed) continue;
    const twin = readFileSync(path.join(dist, name, relaxed, `${target}.wasm`));
    assert.equal(rewriteRelaxedMadd(twin).count, 0, `${name}'s twin: a prototype madd left`);
    // the standard opcode is there, as instructions (not bytes that happen to match inside data)
    let seen = 0;
    walkSimd(twin, (op) => { if (op === STANDARD_MADD) seen += 1; });
    assert.ok(seen >= 8, `${name}'s twin: ${seen} f32x4.relaxed_madd`);
    // validated by an engine that runs relaxed SIMD (Node with the flag), refused by one that does not
    const validate = (flags) => spawnSync(process.execPath, [...flags, '-e',
      `process.exit(WebAssembly.validate(require('fs').readFileSync(${JSON.stringify(path.join(dist, name, relaxed, `${target}.wasm`))})) ? 0 : 1)`]).status;
    assert.equal(validate(['--experimental-wasm-relaxed-simd']), 0, `${name}'s twin does not validate`);
    assert.equal(validate([]), 1, `${name}'s twin validates without relaxed SIMD: the probe could not tell them apart`);
  }
});

test('the probe says what the engine runs: no relaxed SIMD in Node without the flag, relaxed SIMD with it', () => {
  const probe = (flags) => spawnSync(process.execPath, [...flags, '--input-type=module', '-e',
    `import { hasRelaxedSimd } from ${JSON.stringify(path.join(repo, 'web/src/relaxed_simd.js'))}; console.log(hasRelaxedSimd())`], { encoding: 'utf8' }).stdout.trim();
  assert.equal(probe([]), 'false');
  assert.equal(probe(['--experimental-wasm-relaxed-simd']), 'true');
});
