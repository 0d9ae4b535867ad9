// Entry point for browsers and bundlers (the "default" export condition). The Emscripten
// loader finds attention_core.wasm beside itself with `new URL(…, import.meta.url)`, which
// Vite and other bundlers follow (and copy, or inline in a library build), and which a plain
// <script type="module"> resolves against the package folder.
import createAttentionCore from '../dist/core/attention_core.js';
import { makeApi } from './api.js';

export { AttentionError, version } from './api.js';

let shared = null;

/**
 * Instantiates the wasm core (once per page; later calls share it) and returns the API.
 * @param {{wasmUrl?: string | URL}} [options] where to fetch attention_core.wasm from, if it was moved
 * @returns {Promise<import('../types/index.js').Attention>}
 */
export function createAttention(options = {}) {
  if (options.wasmUrl) {
    const url = String(options.wasmUrl);
    return createAttentionCore({ locateFile: () => url }).then(makeApi);
  }
  shared ??= createAttentionCore()
    .then(makeApi)
    .catch((error) => {
      shared = null; // a failed start is not cached: the next call tries again
      throw error;
    });
  return shared;
}
