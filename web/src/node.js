// Entry point for Node (the "node" export condition). The Emscripten loader is built for
// web and workers only, so it has none of the __dirname/require/fetch(file) pitfalls under
// Node's ESM (docs/toolchain.md); here the wasm bytes are read with fs and handed over.
import { readFile } from 'node:fs/promises';

import createAttentionCore from '../dist/core/attention_core.js';
import { AttentionError, createOptionsError, makeApi, partsOption } from './api.js';
import { makeModelLoader } from './lm.js';
import { hasRelaxedSimd } from './relaxed_simd.js';

export { AttentionError, version } from './api.js';

const wasmFile = new URL('../dist/core/attention_core.wasm', import.meta.url);
let shared = null;

// the language model's module and weights, read only when loadModel is first called; the model folders' module
// (dist/hf) when a folder is first opened
const loadModel = makeModelLoader(
  async () => {
    const { default: createLmCore } = await import('../dist/lm/attention_lm.js');
    return createLmCore({ wasmBinary: await readFile(new URL('../dist/lm/attention_lm.wasm', import.meta.url)) });
  },
  async (name, { signal, onProgress } = {}) => {
    const bytes = new Uint8Array(await readFile(new URL(`../models/${name}.safetensors`, import.meta.url), { signal }));
    onProgress?.({ loaded: bytes.length, total: bytes.length }); // read at once: one report
    return bytes;
  },
  AttentionError,
  async () => {
    const relaxed = hasRelaxedSimd(); // Node runs relaxed SIMD only with --experimental-wasm-relaxed-simd
    const dir = relaxed ? '../dist/hf/relaxed/' : '../dist/hf/';
    const { default: create } = await import(`${dir}attention_hf.js`);
    const wasm = await readFile(new URL(`${dir}attention_hf.wasm`, import.meta.url));
    return Object.assign(await create({ wasmBinary: wasm }), { relaxedSimd: relaxed });
  },
);

// the parts (parts.js): each its own module, read when first loaded
const partFactories = {
  vision: () => import('../dist/vision/attention_vision.js'),
  learn: () => import('../dist/learn/attention_learn.js'),
  explain: () => import('../dist/explain/attention_explain.js'),
  fast: () => import('../dist/fast/attention_fast.js'),
};
async function loadPart(name) {
  const [{ default: create }, wasmBinary] = await Promise.all([
    partFactories[name](), readFile(new URL(`../dist/${name}/attention_${name}.wasm`, import.meta.url))]);
  return create({ wasmBinary });
}

/**
 * Instantiates the wasm core (once per process; later calls share it) and returns the API.
 * @returns {Promise<import('../types/index.js').Attention>}
 */
export function createAttention(options = {}) {
  const refused = createOptionsError(options); // threads are for the browser's isolated pages; Node runs one
  if (refused) return Promise.reject(refused);
  const [parts, partsRefused] = partsOption(options);
  if (partsRefused) return Promise.reject(partsRefused);
  shared ??= readFile(wasmFile)
    .then((wasmBinary) => createAttentionCore({ wasmBinary }))
    .then((core) => makeApi(core, null, loadModel, loadPart, () => { shared = null; }))
    .catch((error) => {
      shared = null; // a failed start is not cached: the next call tries again
      throw error;
    });
  return shared.then(async (a) => {
    await Promise.all(parts.map((name) => a.load(name)));
    return a;
  });
}
