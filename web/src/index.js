// Entry point for browsers and bundlers (the "default" export condition): createAttention over the core and its
// parts (create_core.js), with the language models' loader, whose module and weights (lm_files.js) are fetched
// only when loadModel is first called.
import { createAttention as createCore } from './create_core.js';
import { AttentionError } from './api.js';
import { hfCore, hfThreadsCore, lmCore, readModel } from './lm_files.js';

export { AttentionError, version } from './api.js';

// A model folder opens in the threaded folders' module when the page asked for threads and can have them (as
// a.attention's threads module), else (or if it cannot load) in the one-thread module.
let folderThreads = false;
const folderCore = () => (folderThreads && hfThreadsCore ? hfThreadsCore().catch(() => hfCore()) : hfCore());
// the loader's own code (lm.js) is fetched then too: a page of steppers never runs it
let modelLoader = null;
const models = () => (modelLoader ??= import('./lm.js').then(({ makeModelLoader }) => makeModelLoader(lmCore, readModel, AttentionError, folderCore)));
const loadModel = async (which, options) => (await models())(which, options);
loadModel.fresh = async (corpus, options) => (await models()).fresh(corpus, options);

/**
 * Instantiates the wasm core (once per page; later calls share it) and returns the API, with loadModel
 * (create_core.js lists the options).
 * @param {Parameters<typeof createCore>[0]} [options]
 * @returns {Promise<import('../types/index.js').Attention>}
 */
export function createAttention(options = {}) {
  return createCore(options, { loadModel, onThreads: () => { folderThreads = true; }, onDispose: () => { folderThreads = false; } });
}
