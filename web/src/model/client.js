// The page's side of the model worker: each call a promise. view() is "latest wins": while one text is
// being traced, newer keystrokes replace each other and only the last is traced next, so a fast typist
// or a paste never queues work (the picture follows the text within one trace).
//
// A worker that dies (closed, crashed, or silent too long: ../remote/worker_calls.js) fails every call waiting
// on it with a sentence, onLost(sentence) is told (the element shows it), and the next call starts a new worker:
// the models loaded so far are loaded into it again first, so that call gets its answer. A lesson's model
// (lessonStart) is not: its training is lost, and the lesson says so until it starts again.
import { AttentionError } from '../attention_error.js';
import { WorkerCalls } from '../remote/worker_calls.js';
import ModelWorker from './worker.js?worker&inline';

/** The language model's wasm, packed (unpack_wasm.js), that web/build-site.mjs puts in place. */
const LM_WASM = '__ATTN_LM_WASM__';

export class ModelClient {
  constructor() {
    // first: a script built without web/build-site.mjs has no wasm in it, and says so before any worker
    // starts; the worker unpacks the string, off the page's main thread
    // ("not built": scripts/serve.sh served the pages before linking that module; every call says so)
    this.notBuilt = /^not built$/.test(LM_WASM); // a test, not ===: the minifier would fold a comparison with the placeholder
    if (!this.notBuilt && !/^lzma\/1:\d+:/.test(LM_WASM)) throw new Error('this script holds no language model wasm: it was not built by web/build-site.mjs');
    this.loads = new Map(); // model name -> the bytes it was loaded from, for a new worker
    this.onLost = null;
    this.calls = new WorkerCalls({
      spawn: () => new ModelWorker(),
      what: 'the model\'s worker',
      restart: (calls) => {
        if (this.notBuilt) return;
        calls.post({ wasm: LM_WASM });
        // the worker runs its calls in order: these loads come before the call that started it
        for (const [name, bytes] of this.loads) calls.call('load', [name, bytes]).catch(() => {});
      },
      lost: (sentence) => this.onLost?.(sentence),
    });
    this.viewBusy = false;
    this.viewQueued = null;
  }

  /** The worker now running the model; for tests, which may close it. */
  get worker() { return this.calls.worker; }

  call(op, ...args) {
    if (this.notBuilt) return Promise.reject(new AttentionError('the language model\'s module is not built yet.', 'ERR_ATTN_LOAD_FAILED'));
    const result = this.calls.call(op, args);
    if (op === 'load') {
      // kept once loaded, for a new worker
      result.then(() => this.loads.set(args[0], args[1]), () => {});
    }
    return result;
  }

  /** The trace of text (null when a newer one was asked for meanwhile): {model, text, view}, or the core's sentence. */
  view(model, text, k, draw) {
    return new Promise((resolve, reject) => {
      if (this.viewQueued) this.viewQueued.superseded();
      this.viewQueued = { model, text, k, draw, resolve, reject, superseded: () => resolve(null) };
      this.pump();
    });
  }

  async pump() {
    if (this.viewBusy || !this.viewQueued) return;
    const job = this.viewQueued;
    this.viewQueued = null;
    this.viewBusy = true;
    try {
      job.resolve({ model: job.model, text: job.text, view: await this.call('view', job.model, job.text, job.k, job.draw) });
    } catch (error) {
      job.reject(error);
    } finally {
      this.viewBusy = false;
      this.pump();
    }
  }
}
