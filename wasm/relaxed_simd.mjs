// Makes a relaxed-SIMD module loadable: clang 14 (Emscripten 3.1.6) emits f32x4.relaxed_madd only in its prototype
// encoding (0xfd 175, which no engine reads now), the standard one is 0xfd 261 (0x105). Both are two bytes of
// LEB128, so the instruction is rewritten in place and no size in the module moves. The code section is decoded
// instruction by instruction (every immediate of the instructions a module of ours can hold), so that only
// opcodes are rewritten, never the same bytes inside a constant, a memory offset or a data segment; an
// instruction this file does not know stops the build rather than being stepped over (a SIMD opcode outside the
// ranges with immediates is taken to have none, which holds for every SIMD opcode defined). The operands stay as they
// are: the C++ (kernels/simd4.hpp, madd) passes them in the standard instruction's order, a·b + c.
//
// usage: node --experimental-wasm-relaxed-simd wasm/relaxed_simd.mjs IN.wasm OUT.wasm
//   prints how many instructions it rewrote; exits 1 if none (the twin was built without the flag) or if the
//   result does not validate (the flag lets Node 20's V8 validate relaxed SIMD).
import { readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

export const PROTOTYPE_MADD = 175; // 0xaf 0x01 after the 0xfd prefix
export const STANDARD_MADD = 261; // 0x85 0x02

class Reader {
  constructor(bytes, at = 0) {
    this.b = bytes;
    this.at = at;
  }
  byte() {
    if (this.at >= this.b.length) throw new Error(`the module ends inside an instruction at byte ${this.at}`);
    return this.b[this.at++];
  }
  /** An unsigned LEB128 of at most 32 bits. */
  u32() {
    let value = 0;
    for (let shift = 0; shift < 35; shift += 7) {
      const b = this.byte();
      value += (b & 0x7f) * 2 ** shift;
      if (!(b & 0x80)) return value;
    }
    throw new Error(`an over-long LEB128 at byte ${this.at}`);
  }
  /** A signed LEB128 of at most `bits` bits, skipped. */
  skipSigned(bits) {
    for (let n = 0; n < Math.ceil(bits / 7); ++n) if (!(this.byte() & 0x80)) return;
    throw new Error(`an over-long LEB128 at byte ${this.at}`);
  }
  skip(n) {
    if (this.at + n > this.b.length) throw new Error(`the module ends inside an instruction at byte ${this.at}`);
    this.at += n;
  }
  memarg() {
    this.u32();
    this.u32();
  }
}

const VALUE_TYPES = new Set([0x7f, 0x7e, 0x7d, 0x7c, 0x7b, 0x70, 0x6f]);

function blockType(r) {
  const b = r.b[r.at];
  if (b === 0x40 || VALUE_TYPES.has(b)) r.skip(1);
  else r.skipSigned(33);
}

/** The 0xfd (SIMD) instruction after its prefix; returns its number. */
function simd(r) {
  const op = r.u32();
  if (op <= 11 || op === 92 || op === 93) r.memarg(); // loads, v128.store, load32/64_zero
  else if (op === 12 || op === 13) r.skip(16); // v128.const, i8x16.shuffle
  else if (op >= 21 && op <= 34) r.skip(1); // extract_lane / replace_lane
  else if (op >= 84 && op <= 91) { r.memarg(); r.skip(1); } // load_lane / store_lane
  return op;
}

function misc(r) {
  const op = r.u32(); // 0xfc
  if (op <= 7) return; // saturating truncations
  if (op === 8) { r.u32(); r.skip(1); } // memory.init
  else if (op === 9 || op === 13 || (op >= 15 && op <= 17)) r.u32(); // data.drop, elem.drop, table.grow/size/fill
  else if (op === 10) r.skip(2); // memory.copy
  else if (op === 11) r.skip(1); // memory.fill
  else if (op === 12 || op === 14) { r.u32(); r.u32(); } // table.init, table.copy
  else throw new Error(`an unknown instruction 0xfc ${op} at byte ${r.at}`);
}

function atomic(r) {
  const op = r.u32(); // 0xfe
  if (op === 3) r.skip(1); // atomic.fence
  else if (op <= 2 || (op >= 0x10 && op <= 0x4e)) r.memarg();
  else throw new Error(`an unknown instruction 0xfe ${op} at byte ${r.at}`);
}

/** Walks one function body [r.at, end), calling visit(op, at, length) at each SIMD instruction (at: its opcode's first byte after 0xfd). */
function body(r, end, visit) {
  const locals = r.u32();
  for (let i = 0; i < locals; ++i) { r.u32(); r.skip(1); }
  while (r.at < end) {
    const op = r.byte();
    if (op <= 0x01 || op === 0x05 || op === 0x0b || op === 0x0f || op === 0x19 || op === 0x1a || op === 0x1b || op === 0xd1) continue;
    if (op >= 0x02 && op <= 0x04 || op === 0x06) blockType(r);
    else if (op >= 0x07 && op <= 0x09 || op === 0x0c || op === 0x0d || op === 0x10 || op === 0x12 || op === 0x18 || op === 0xd2) r.u32();
    else if (op === 0x0e) { const n = r.u32(); for (let i = 0; i <= n; ++i) r.u32(); }
    else if (op === 0x11 || op === 0x13) { r.u32(); r.u32(); }
    else if (op === 0x1c) { const n = r.u32(); r.skip(n); }
    else if (op >= 0x20 && op <= 0x26) r.u32();
    else if (op >= 0x28 && op <= 0x3e) r.memarg();
    else if (op === 0x3f || op === 0x40 || op === 0xd0) r.skip(1);
    else if (op === 0x41) r.skipSigned(32);
    else if (op === 0x42) r.skipSigned(64);
    else if (op === 0x43) r.skip(4);
    else if (op === 0x44) r.skip(8);
    else if (op >= 0x45 && op <= 0xc4) continue;
    else if (op === 0xfc) misc(r);
    else if (op === 0xfe) atomic(r);
    else if (op === 0xfd) {
      const at = r.at;
      const simdOp = simd(r);
      visit(simdOp, at, r.at - at);
    } else throw new Error(`an unknown instruction 0x${op.toString(16)} at byte ${r.at - 1}`);
  }
  if (r.at !== end) throw new Error(`a function body overruns its size at byte ${end}`);
}

/**
 * Walks every function body of a module, calling visit(op, at, length) at each SIMD instruction: op its number,
 * at the byte of its opcode after the 0xfd prefix, length the opcode's bytes. Throws, naming the byte, on a module
 * it cannot walk.
 */
export function walkSimd(bytes, visit) {
  if (bytes.length < 8 || bytes[0] !== 0 || bytes[1] !== 0x61 || bytes[2] !== 0x73 || bytes[3] !== 0x6d) throw new Error('not a WebAssembly module: no \\0asm at its start');
  const r = new Reader(bytes, 8);
  while (r.at < bytes.length) {
    const id = r.byte();
    const size = r.u32();
    const end = r.at + size;
    if (end > bytes.length) throw new Error(`section ${id} runs past the module's end`);
    if (id === 10) {
      const functions = r.u32();
      for (let f = 0; f < functions; ++f) {
        const length = r.u32();
        const stop = r.at + length;
        if (stop > end) throw new Error(`function ${f}'s body runs past the code section`);
        body(r, stop, visit);
      }
    }
    r.at = end;
  }
}

/** The module's bytes with every prototype f32x4 madd rewritten into f32x4.relaxed_madd; returns {bytes, count}. */
export function rewriteRelaxedMadd(input) {
  const bytes = Uint8Array.from(input);
  let count = 0;
  walkSimd(bytes, (op, at, length) => {
    if (op !== PROTOTYPE_MADD) return;
    if (length !== 2) throw new Error(`a relaxed madd encoded in ${length} bytes at byte ${at}`);
    bytes[at] = STANDARD_MADD & 0x7f | 0x80;
    bytes[at + 1] = STANDARD_MADD >> 7;
    count += 1;
  });
  return { bytes, count };
}

// run as a script (a path with spaces or a link is still this file)
if (process.argv[1] && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href) {
  const [input, output] = process.argv.slice(2);
  const { bytes, count } = rewriteRelaxedMadd(readFileSync(input));
  if (count === 0) {
    console.error(`${input}: no f32x4 madd to rewrite (was it compiled with -mrelaxed-simd -DATTN_RELAXED_MADD?)`);
    process.exit(1);
  }
  if (!WebAssembly.validate(bytes)) {
    console.error(`${input}: rewritten, the module does not validate (run node with --experimental-wasm-relaxed-simd)`);
    process.exit(1);
  }
  writeFileSync(output, bytes);
  console.log(`${output}: ${count} f32x4.relaxed_madd`);
}
