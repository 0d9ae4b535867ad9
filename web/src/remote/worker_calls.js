// Calls to a Web Worker as promises, and the worker's death noticed: the page's side of the core's worker
// (client.js), of the model mode's (../model/client.js) and of a model folder's (../model/folder_element.js),
// whose workers answer through serve.js. A worker that is closed (worker.terminate(), the
// browser's task manager) or crashes says nothing, and every call waiting on it used to wait for ever: the
// stepper never drew again, model mode's Generate stayed "Stop". Three signs of death are watched:
//   1. the worker's 'error' event (an exception it did not catch, or a script that cannot start);
//   2. a Web Lock the worker holds while it lives (worker_life.js): the browser releases it when the worker is
//      gone, and the page's request for the same lock is then granted, within milliseconds (where the browser
//      has Web Locks: Chromium has them over http and from file:// alike);
//   3. a call waiting with nothing heard from the worker for stallMs (long work posts its progress, so only a
//      worker that is gone or stuck is this quiet; a test may lower calls.stallMs).
// Then every waiting call is refused with one sentence, the worker is closed, and the next call starts a new
// one (restart() runs again: a worker's first messages, which its owner posts there).
import { AttentionError } from '../attention_error.js';
import { holdMessage, lifeName } from './worker_life.js';

/** How long a call may wait with nothing heard from its worker (the longest work a page asks is a few seconds). */
export const STALL_MS = 20000;

export class WorkerCalls {
  /**
   * spawn(): a new Worker; restart(calls): posts what a fresh worker needs first (its module, its start);
   * what: the worker's name in sentences ("the core's worker"); other(data): a message that answers no call
   * (the worker asking the page for something); lost(sentence): told when a worker is found dead, calls waiting
   * or not. Every refusal is an AttentionError: the worker's sentence, or the worker's death.
   */
  constructor({ spawn, restart = () => {}, what, other = () => {}, lost = () => {}, stallMs = STALL_MS }) {
    Object.assign(this, { spawn, restart, what, other, lost, stallMs });
    this.pending = new Map(); // id -> {resolve, reject, progress}
    this.nextId = 1;
    this.generation = 0; // which worker: a handle a dead worker gave out means nothing to the next
    this.start();
  }

  /** A fresh worker, its death watched, and restart() posted to it first. */
  start() {
    this.generation++;
    this.dead = null;
    const worker = this.spawn();
    this.worker = worker;
    this.heard = performance.now();
    worker.onmessage = ({ data }) => {
      if (worker !== this.worker) return; // a worker already given up on
      this.heard = performance.now();
      if (data?.alive !== undefined) return data.alive === this.life && this.watchLife(worker, data.alive);
      if (data?.id === undefined || !this.pending.has(data.id)) return this.other(data);
      const p = this.pending.get(data.id);
      if (data.progress !== undefined) return p.progress?.(data.progress);
      this.pending.delete(data.id);
      if (data.error === undefined) p.resolve(data.result);
      else p.reject(Object.assign(new AttentionError(data.error), { cancelled: !!data.cancelled }));
    };
    worker.onerror = (event) => {
      event.preventDefault?.();
      this.die(worker, event.message ? `it stopped on an error: ${String(event.message).slice(0, 200)}` : 'it stopped on an error');
    };
    this.life = lifeName();
    if (this.life) worker.postMessage(holdMessage(this.life));
    this.restart(this);
  }

  /** The worker holds its life's lock: ask for it too, and the browser hands it over when the worker is gone. */
  watchLife(worker, name) {
    if (!navigator.locks?.request) return;
    const abort = new AbortController();
    this.stopWatching = () => abort.abort();
    navigator.locks.request(name, { signal: abort.signal }, () => this.die(worker, 'it was closed or crashed'))
      .catch(() => {}); // aborted: this page closed it itself
  }

  /** The generation of the worker the next call goes to (a new worker's, after a death). */
  fresh() {
    if (this.dead) this.start();
    return this.generation;
  }

  /** Posts a message that answers no call (a part's bytes). */
  post(message, transfer = []) {
    this.worker.postMessage(message, transfer);
  }

  /** One operation of the worker: a promise of its result (progress(fraction) for long work); .id names it. */
  call(op, args, progress = null, transfer = []) {
    this.fresh(); // the next call after a death starts a new worker
    const id = this.nextId++;
    if (this.pending.size === 0) this.heard = performance.now(); // quiet until now was no fault of the worker's
    const result = new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, progress });
      this.worker.postMessage({ id, op, args }, transfer);
    });
    result.id = id;
    this.watchStall();
    return result;
  }

  /** While calls wait: a worker heard from by none of them for stallMs is taken for dead. */
  watchStall() {
    if (this.stallTimer || !this.pending.size) return;
    const worker = this.worker;
    const check = () => {
      this.stallTimer = null;
      if (worker !== this.worker || !this.pending.size) return;
      const quiet = performance.now() - this.heard;
      if (quiet >= this.stallMs) this.die(worker, `it did not answer for ${Math.round(quiet / 1000)} s`);
      else this.stallTimer = setTimeout(check, Math.min(1000, this.stallMs - quiet + 1));
    };
    this.stallTimer = setTimeout(check, Math.min(1000, this.stallMs));
  }

  /** A dead worker: closed, and every call waiting on it refused with one sentence (told to lost() too). */
  die(worker, why) {
    if (worker !== this.worker || this.dead) return;
    const sentence = `${this.what} stopped (${why}), and what it was computing is lost; the next step starts it again.`;
    this.dead = sentence;
    this.stopWatching?.();
    this.stopWatching = null;
    clearTimeout(this.stallTimer);
    this.stallTimer = null;
    worker.terminate();
    const waiting = [...this.pending.values()];
    this.pending.clear();
    for (const p of waiting) p.reject(new AttentionError(sentence));
    this.lost(sentence);
  }
}
