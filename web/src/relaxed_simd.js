// Whether this engine runs WebAssembly's relaxed SIMD, and so which build of the model folders' module to load: the
// twin whose linear op multiplies and adds in one f32x4.relaxed_madd (fused where the CPU has FMA), in the module's
// "relaxed" subfolder (wasm/parts.json, wasm/CMakeLists.txt), or the plain one. Asked once, by validating the
// smallest module that holds the instruction: () -> v128 of relaxed_madd(0, 0, 0).
const zeros = () => [0xfd, 0x0c, ...new Array(16).fill(0)]; // v128.const 0
const code = [0x00, ...zeros(), ...zeros(), ...zeros(), 0xfd, 0x85, 0x02, 0x0b]; // no locals … f32x4.relaxed_madd, end
const probe = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
  0x01, 0x05, 0x01, 0x60, 0x00, 0x01, 0x7b, // type section: () -> v128
  0x03, 0x02, 0x01, 0x00, // function section: one function of that type
  0x0a, code.length + 2, 0x01, code.length, ...code, // code section
]);

let answer;
/** True where WebAssembly.validate accepts relaxed SIMD (Chromium 114 and later; Node only with a flag). */
export function hasRelaxedSimd() {
  if (answer === undefined) answer = typeof WebAssembly === 'object' && WebAssembly.validate(probe);
  return answer;
}

