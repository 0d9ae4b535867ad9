// The page's side of the model worker: each call a promise. view() is "latest wins": while one text is
// being traced, newer keystrokes replace each other and only the last is traced next, so a fast typist
// or a paste never queues work (the picture follows the text within one trace).
import ModelWorker from './worker.js?worker&inline';

/** The language model's wasm, packed (../remote/unpack_inline.js), that web/build-site.mjs puts in place. */
const LM_WASM = '__ATTN_LM_WASM__';

export class ModelClient {
  constructor() {
    // first: a script built without web/build-site.mjs has no wasm in it, and says so before any worker
    // starts; the worker unpacks the string, off the page's main thread
    if (!/^lzma\/1:\d+:/.test(LM_WASM)) throw new Error('this script holds no language model wasm: it was not built by web/build-site.mjs');
    this.worker = new ModelWorker();
    this.worker.postMessage({ wasm: LM_WASM });
    this.pending = new Map();
    this.nextId = 1;
    this.worker.onmessage = ({ data: { id, result, error } }) => {
      const p = this.pending.get(id);
      if (!p) return; // failed already, when the worker broke
      this.pending.delete(id);
      if (error !== undefined) p.reject(new Error(error));
      else p.resolve(result);
    };
    // a worker that cannot start (or dies) fails every call waiting on it, with a sentence
    this.worker.onerror = (event) => {
      event.preventDefault?.();
      this.broken = `the model's worker could not run (${event.message || 'no reason given'}).`;
      for (const p of this.pending.values()) p.reject(new Error(this.broken));
      this.pending.clear();
    };
    this.viewBusy = false;
    this.viewQueued = null;
  }

  call(op, ...args) {
    const id = this.nextId++;
    if (this.broken) return Promise.reject(new Error(this.broken));
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, op, args });
    });
  }

  /** The trace of text (null when a newer one was asked for meanwhile): {model, text, view}, or the core's sentence. */
  view(model, text, k) {
    return new Promise((resolve, reject) => {
      if (this.viewQueued) this.viewQueued.superseded();
      this.viewQueued = { model, text, k, resolve, reject, superseded: () => resolve(null) };
      this.pump();
    });
  }

  async pump() {
    if (this.viewBusy || !this.viewQueued) return;
    const job = this.viewQueued;
    this.viewQueued = null;
    this.viewBusy = true;
    try {
      job.resolve({ model: job.model, text: job.text, view: await this.call('view', job.model, job.text, job.k) });
    } catch (error) {
      job.reject(error);
    } finally {
      this.viewBusy = false;
      this.pump();
    }
  }
}
