// Entry point for Node (the "node" export condition). The Emscripten loader is built for
// web and workers only, so it has none of the __dirname/require/fetch(file) pitfalls under
// Node's ESM (docs/toolchain.md); here the wasm bytes are read with fs and handed over.
import { readFile } from 'node:fs/promises';

import createAttentionCore from '../dist/core/attention_core.js';
import { makeApi } from './api.js';

export { AttentionError, version } from './api.js';

const wasmFile = new URL('../dist/core/attention_core.wasm', import.meta.url);
let shared = null;

/**
 * Instantiates the wasm core (once per process; later calls share it) and returns the API.
 * @returns {Promise<import('../types/index.js').Attention>}
 */
export function createAttention() {
  shared ??= readFile(wasmFile)
    .then((wasmBinary) => createAttentionCore({ wasmBinary }))
    .then(makeApi)
    .catch((error) => {
      shared = null; // a failed start is not cached: the next call tries again
      throw error;
    });
  return shared;
}
