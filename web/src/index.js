// Entry point for browsers and bundlers (the "default" export condition). The wasm file
// sits beside the loader; `new URL(…, import.meta.url)` lets Vite and other bundlers find
// and copy it, and lets a plain <script type="module"> fetch it from the same folder.
import createAttentionCore from '../dist/core/attention_core.js';
import { makeApi } from './api.js';

export { AttentionError, stageIds, version } from './api.js';

const wasmFile = new URL('../dist/core/attention_core.wasm', import.meta.url);
let shared = null;

/**
 * Instantiates the wasm core (once per page; later calls share it) and returns the API.
 * @param {{wasmUrl?: string | URL}} [options] where to fetch attention_core.wasm from, if it was moved
 * @returns {Promise<import('../types/index.js').Attention>}
 */
export function createAttention(options = {}) {
  const load = () => {
    const url = String(options.wasmUrl ?? wasmFile);
    return createAttentionCore({ locateFile: () => url }).then(makeApi);
  };
  if (options.wasmUrl) return load();
  shared ??= load().catch((error) => {
    shared = null; // a failed start is not cached: the next call tries again
    throw error;
  });
  return shared;
}
