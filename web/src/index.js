// Entry point for browsers and bundlers (the "default" export condition). attention_core.wasm is found
// with `new URL(…, import.meta.url)` (core_file.js), which Vite and other bundlers follow (and copy),
// and which a plain <script type="module"> resolves against the package folder.
import createAttentionCore from '../dist/core/attention_core.js';
import { coreWasmUrl } from './core_file.js';
import { AttentionError, createOptionsError, makeApi, partsOption } from './api.js';
import { makeModelLoader } from './lm.js';
import { loadPart } from './part_files.js';

export { AttentionError, version } from './api.js';

let shared = null;

// The language model's module and weights, fetched only when loadModel is first called. The paths are
// variables so bundlers leave them alone (copy dist/lm and models/ beside the package's files).
// A literal `new URL(\`../models/${name}…\`, import.meta.url)` was inlined by Vite: both models, 0.6 MB,
// in every embed of the stepper.
const lmPath = '../dist/lm/attention_lm.js';
const modelsPath = '../models/';
const loadModel = makeModelLoader(
  async () => (await import(/* @vite-ignore */ String(new URL(lmPath, import.meta.url)))).default({
    // the glue does not name its .wasm (USE_ES6_IMPORT_META=0): it is beside it
    locateFile: (file) => String(new URL(lmPath.replace(/[^/]*$/, file), import.meta.url)),
  }),
  async (name) => {
    const response = await fetch(new URL(`${modelsPath}${name}.safetensors`, import.meta.url));
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    return new Uint8Array(await response.arrayBuffer());
  },
  AttentionError,
);
let sharedCore = null;

let sharedThreaded = null;

// The wasm-threads build (dist/core-threads): a.attention splits its rows between workers. It needs
// SharedArrayBuffer, which browsers give only to cross-origin-isolated pages (COOP and COEP headers).
// It runs a.attention only, beside the one-thread module that runs everything else: with this
// toolchain a C++ exception in a -pthread build is never caught (docs/toolchain.md), so the threads
// module could not refuse a spec with its sentence.
// The path is a variable so bundlers leave it alone: a bundle gets the one-thread module unless it
// passes threadsUrl to where it copied dist/core-threads/.
const threadsPath = '../dist/core-threads/attention_core.js';
const threadsPossible = () => globalThis.crossOriginIsolated === true && typeof SharedArrayBuffer === 'function';

/**
 * Instantiates the wasm core (once per page; later calls share it) and returns the API.
 * @param {{wasmUrl?: string | URL, threads?: boolean, threadsUrl?: string | URL, parts?: string[],
 *   loadPart?: (name: string) => Promise<object>, wasmBinary?: Uint8Array}} [options]
 *   wasmUrl: where to fetch attention_core.wasm from, if it was moved; threads: use the wasm-threads
 *   module when the page is cross-origin isolated (a.threads tells what was loaded; elsewhere, or if it
 *   cannot load, the one-thread module); threadsUrl: where its attention_core.js is, if it was moved;
 *   parts: the parts to load before resolving (default all: "vision", "learn", "explain", "fast"); loadPart: how a part's
 *   module is instantiated, if its files were moved (default: dist/{name}/ beside this file); wasmBinary:
 *   the core's .wasm bytes, when the caller has them (nothing is fetched then)
 * @returns {Promise<import('../types/index.js').Attention>}
 */
export function createAttention(options = {}) {
  const refused = createOptionsError(options);
  if (refused) return Promise.reject(refused);
  const [parts, partsRefused] = partsOption(options);
  if (partsRefused) return Promise.reject(partsRefused);
  return coreApi(options).then(async (a) => {
    await Promise.all(parts.map((name) => a.load(name)));
    return a;
  });
}

/** The API over the one-thread core (and the threads module, when asked for and possible). */
function coreApi(options) {
  const parts = options.loadPart ?? loadPart;
  if (options.wasmUrl) {
    const url = String(options.wasmUrl);
    return createAttentionCore({ locateFile: () => url }).then((core) => makeApi(core, null, loadModel, parts));
  }
  if (options.threads && threadsPossible()) {
    const url = String(options.threadsUrl ?? new URL(threadsPath, import.meta.url));
    sharedThreaded ??= import(/* @vite-ignore */ url)
      .then(({ default: createThreadedCore }) => Promise.all([oneThreadCore(options.wasmBinary), createThreadedCore()]))
      .then(([core, threaded]) => makeApi(core, threaded, loadModel, parts))
      .catch(() => {
        sharedThreaded = null; // not there (a bundle without it) or refused: the one-thread module instead
        return coreApi({ ...options, threads: false });
      });
    return sharedThreaded;
  }
  shared ??= oneThreadCore(options.wasmBinary)
    .then((core) => makeApi(core, null, loadModel, parts))
    .catch((error) => {
      shared = null; // a failed start is not cached: the next call tries again
      throw error;
    });
  return shared;
}

/** The one-thread module, instantiated once per page (both APIs use it). */
function oneThreadCore(wasmBinary) {
  const where = wasmBinary ? { wasmBinary } : { locateFile: () => String(coreWasmUrl()) };
  sharedCore ??= createAttentionCore(where).catch((error) => {
    sharedCore = null;
    throw error;
  });
  return sharedCore;
}
