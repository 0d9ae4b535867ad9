// createAttention over the core and its parts, without the language models: what the page's worker starts
// (remote/worker.js), so a page of steppers names no model file (a bundler would copy them into the app, a
// library build inline them); index.js, the package's entry, adds the models' loader. attention_core.wasm is
// found with `new URL(…, import.meta.url)` (core_file.js), which Vite and other bundlers follow (and copy), and
// which a plain <script type="module"> resolves against the package folder.
import createAttentionCore from '../dist/core/attention_core.js';
import { coreWasmUrl, setFilesUrl } from './core_file.js';
import { AttentionError, createOptionsError, makeApi, partsOption } from './api.js';
import { moduleFailure } from './module_failure.js';
import { loadPart } from './part_files.js';

export { AttentionError, version } from './api.js';

let shared = null;
let sharedCore = null;
let sharedThreaded = null;

// The wasm-threads build (dist/core-threads): a.attention splits its rows between workers. It needs
// SharedArrayBuffer, which browsers give only to cross-origin-isolated pages (COOP and COEP headers).
// It runs a.attention only, beside the one-thread module that runs everything else: a -pthread build catches
// C++ exceptions only as JavaScript-based ones, which made every trace three times slower (docs/toolchain.md).
// The path is a variable so bundlers leave it alone: a bundle gets the one-thread module unless it
// passes threadsUrl to where it copied dist/core-threads/.
const threadsPath = '../dist/core-threads/attention_core.js';
const threadsPossible = () => globalThis.crossOriginIsolated === true && typeof SharedArrayBuffer === 'function';

// The options that decide the one module a page shares (filesUrl, loadPart), as the first call gave them: a later
// call that names others is refused rather than silently given the first one's module (a.dispose() forgets it)
let decided = null;

/**
 * Instantiates the wasm core (once per page; later calls share it) and returns the API.
 * @param {{wasmUrl?: string | URL, threads?: boolean, threadsUrl?: string | URL, parts?: string[], filesUrl?: string | URL,
 *   loadPart?: (name: string) => Promise<object>, wasmBinary?: Uint8Array}} [options]
 *   wasmUrl: where to fetch attention_core.wasm from, if it was moved; threads: use the wasm-threads
 *   module when the page is cross-origin isolated (a.threads tells what was loaded; elsewhere, or if it
 *   cannot load, the one-thread module); threadsUrl: where its attention_core.js is, if it was moved;
 *   parts: the parts to load before resolving (default all: "vision", "learn", "explain", "fast"); filesUrl: the
 *   folder the package's dist/ and models/ are served from, if they were moved (a CDN, a copy in public/);
 *   loadPart: how a part's module is instantiated, if its files were moved (default: dist/{name}/ beside this
 *   file); wasmBinary: the core's .wasm bytes, when the caller has them (nothing is fetched then)
 * @param {{loadModel?: Function, onThreads?: Function, onDispose?: Function}} [models] index.js's: the language
 *   models' loader, what to do when the threads module is asked for and possible, and what to forget on dispose
 * @returns {Promise<import('../types/index.js').Attention>}
 */
export function createAttention(options = {}, { loadModel = null, onThreads = null, onDispose = null } = {}) {
  const refused = createOptionsError(options);
  if (refused) return Promise.reject(refused);
  const [parts, partsRefused] = partsOption(options);
  if (partsRefused) return Promise.reject(partsRefused);
  const asked = { filesUrl: options.filesUrl == null ? null : String(options.filesUrl), loadPart: options.loadPart ?? null };
  if (decided && (asked.filesUrl !== decided.filesUrl || asked.loadPart !== decided.loadPart)) {
    const which = asked.filesUrl !== decided.filesUrl ? 'filesUrl' : 'loadPart';
    return Promise.reject(new AttentionError(`createAttention: options.${which} differs from the first call's, whose module this page shares: pass the same, or call a.dispose() first.`, 'ERR_ATTN_OPTIONS'));
  }
  if (!decided) setFilesUrl(asked.filesUrl);
  decided = asked;
  return coreApi(options, { loadModel, onThreads, disposed: () => {
    forget();
    onDispose?.();
  } }).then(async (a) => {
    await Promise.all(parts.map((name) => a.load(name)));
    return a;
  });
}

/** a.dispose(): the next createAttention() instantiates a fresh module, with its own options. */
function forget() {
  shared = sharedThreaded = sharedCore = decided = null;
}

/** The API over the one-thread core (and the threads module, when asked for and possible); models: createAttention's. */
function coreApi(options, models) {
  const { loadModel, onThreads, disposed } = models;
  const parts = options.loadPart ?? loadPart;
  if (options.wasmUrl) {
    const url = String(options.wasmUrl);
    return createAttentionCore({ locateFile: () => url }).then((core) => makeApi(core, null, loadModel, parts));
  }
  if (options.threads && threadsPossible()) {
    onThreads?.();
    const url = String(options.threadsUrl ?? new URL(threadsPath, import.meta.url));
    sharedThreaded ??= import(/* @vite-ignore */ url)
      .then(({ default: createThreadedCore }) => Promise.all([oneThreadCore(options.wasmBinary), createThreadedCore()]))
      .then(([core, threaded]) => makeApi(core, threaded, loadModel, parts, disposed))
      .catch(() => {
        sharedThreaded = null; // not there (a bundle without it) or refused: the one-thread module instead
        return coreApi({ ...options, threads: false }, models);
      });
    return sharedThreaded;
  }
  shared ??= oneThreadCore(options.wasmBinary)
    .then((core) => makeApi(core, null, loadModel, parts, disposed))
    .catch((error) => {
      shared = null; // a failed start is not cached: the next call tries again
      throw error;
    });
  return shared;
}

/** The one-thread module, instantiated once per page (both APIs use it). */
function oneThreadCore(wasmBinary) {
  const url = wasmBinary ? null : coreWasmUrl();
  const where = wasmBinary ? { wasmBinary } : { locateFile: () => String(url) };
  sharedCore ??= createAttentionCore(where).catch(async (error) => {
    sharedCore = null;
    throw new AttentionError(`the core could not be loaded: ${(await moduleFailure(url, error)).message}.`, 'ERR_ATTN_LOAD_FAILED');
  });
  return sharedCore;
}
