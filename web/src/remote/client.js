// The page's side of the core's Web Worker (worker.js): what every element on a page asks the core.
// The facts that never change (the stage registry, the limits, the examples and their texts) come once,
// when the worker starts, and are read synchronously; everything the core computes is a promise. A
// refusal rejects with an AttentionError carrying the core's sentence. The worker may ask the page for a
// part's bytes ({part}), which the one-file script loads from a file beside itself (start_worker_inline.js).
import { AttentionError } from '../attention_error.js';
import { coreBytes, partModule, startWorker } from './start_worker.js';

export class RemoteCore {
  /** Starts the worker and its core (threadsUrl: the wasm-threads module, for a cross-origin-isolated page). */
  static async start(threadsUrl = null) {
    // its own task: making the worker's script (the core inlined, about 1 MB) is not added to the task
    // that ran the page's script and defined the elements
    await new Promise((resolve) => setTimeout(resolve, 0));
    const core = new RemoteCore(startWorker());
    const packed = coreBytes(); // the one-file script's own copy of the core, packed (a string), or null (the worker fetches it)
    const facts = await core.call('start', [threadsUrl, packed]);
    core.registry = Object.freeze(facts.registry);
    core.stageIds = Object.freeze(facts.registry.map((s) => s.id));
    core.limits = Object.freeze(facts.limits);
    core.fieldTables = facts.schema; // the sequence spec's (vision: null here; the page's packer is the worker's)
    core.examplesList = facts.catalog;
    core.documents = new Map(Object.entries(facts.documents));
    core.threads = facts.threads;
    return core;
  }

  constructor(worker) {
    this.worker = worker;
    this.pending = new Map(); // id -> {resolve, reject, progress}
    this.nextId = 1;
    this.handles = new WeakMap(); // trace or gradient result -> its handle in the worker
    worker.onmessage = ({ data }) => {
      if (data.part !== undefined) return this.sendPart(data.part);
      const p = this.pending.get(data.id);
      if (!p) return;
      if (data.progress !== undefined) return p.progress?.(data.progress);
      this.pending.delete(data.id);
      if (data.error === undefined) p.resolve(data.result);
      else p.reject(Object.assign(new AttentionError(data.error), { cancelled: data.cancelled }));
    };
    // a worker that cannot start (or dies) fails every call waiting on it, with a sentence
    worker.onerror = (event) => {
      event.preventDefault?.();
      this.broken = `the core's worker could not run (${event.message || 'no reason given'}).`;
      for (const p of this.pending.values()) p.reject(new AttentionError(this.broken));
      this.pending.clear();
    };
  }

  /** A part's bytes and glue, or the sentence of why they could not be loaded, to the worker that asked. */
  async sendPart(name) {
    try {
      const { bytes, glue } = await partModule(name); // bytes packed, as a string: the worker unpacks them
      this.worker.postMessage({ partBytes: name, bytes, glue });
    } catch (error) {
      this.worker.postMessage({ partBytes: name, error: String(error?.message ?? error) });
    }
  }

  /** One operation of the worker: a promise of its result (progress(fraction) for long work). */
  call(op, args, progress = null, transfer = []) {
    if (this.broken) return Promise.reject(new AttentionError(this.broken));
    const id = this.nextId++;
    const result = new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, progress });
      this.worker.postMessage({ id, op, args }, transfer);
    });
    result.id = id;
    return result;
  }

  // the facts, read at start
  stages() { return this.registry; }
  schema() { return this.fieldTables; }
  catalog() { return this.examplesList; }
  examples() { return this.examplesList.map((e) => e.id); }
  /** The training tasks' ids (the learn part's: it loads on this first call). */
  tasks() { return this.call('tasks', []); }
  exampleDocument(id) {
    if (!this.documents.has(id)) throw new AttentionError(`example "${String(id).slice(0, 80)}" is unknown: see examples().`);
    return this.documents.get(id);
  }

  /** A trace as the package's a.trace returns it (plain data), computed in the worker. */
  async trace(spec, options = {}) {
    return this.received(await this.call('trace', [spec, options]));
  }

  async example(id, variant = '') {
    const trace = this.received(await this.call('example', [id, variant]));
    trace.example = this.documents.get(id) ?? trace.example;
    return trace;
  }

  received(trace) {
    this.handles.set(trace, trace.handle);
    delete trace.handle;
    return trace;
  }

  /** The core's arithmetic behind a cell of a trace's stage (a.explain's text). */
  async explain(trace, stage, cell) {
    const handle = this.handles.get(trace);
    let answer = await this.call('explain', [handle, stage, cell]);
    // the worker keeps the newest traces only: an older one is sent back whole
    if (answer.gone) answer = await this.call('explain', [0, stage, cell, { kind: trace.kind, spec: trace.spec }]);
    return answer.text;
  }

  /** a.grad's result for a grad spec: {loss, grads, stage_grads}, kept for explainGrad. */
  async grad(spec) {
    const { handle, result } = await this.call('grad', [spec]);
    return this.gradient({ handle, result }, spec);
  }

  /** A gradient computed in the worker ({handle, result}): its result, with what explainGrad needs. */
  gradient({ handle, result }, spec) {
    this.handles.set(result, { handle, spec });
    return result;
  }

  /** The chain rule behind a cell of dL/d(stage) of a gradient from grad() (a.explainGrad's text). */
  async explainGrad(result, stage, cell) {
    const { handle, spec } = this.handles.get(result);
    let answer = await this.call('explainGrad', [handle, stage, cell]);
    if (answer.gone) answer = await this.call('explainGrad', [0, stage, cell, spec]);
    return answer.text;
  }

  task(id) { return this.call('task', [id]); }

  /** A training run in the worker: {steps, done, handle}; train it with trainTogether. */
  async trainer(spec) {
    const { handle, steps } = await this.call('trainer', [spec]);
    return { handle, steps, done: 0 };
  }

  /**
   * Trains runs together, count steps (fewer if budgetMs runs out first): {losses: per run, error}.
   * Each run's done is updated.
   */
  async trainTogether(runs, count, budgetMs) {
    const answer = await this.call('trainTogether', [runs.map((r) => r.handle), count, budgetMs]);
    runs.forEach((r, k) => { r.done = answer.done[k]; });
    return answer;
  }

  setLearningRate(run, lr) { return this.call('setLearningRate', [run.handle, lr]); }
  trainerSpec(run) { return this.call('trainerSpec', [run.handle]); }
  dispose(run) { if (run) this.call('dispose', [run.handle]).catch(() => {}); }

  /** One data item through a run's weights: {trace, gradients} (gradients with loss fields, else null). */
  async inspect(run, item, lossFields) {
    const { trace, gradients } = await this.call('trainerInspect', [run.handle, item, lossFields]);
    return { trace: this.received(trace), gradients: gradients && { spec: gradients.spec, result: this.gradient(gradients, gradients.spec) } };
  }

  /**
   * Long work (the complexity example's measurements): {result: a promise, cancel()}. progress(fraction)
   * is called as it goes; a cancelled job rejects with error.cancelled set.
   */
  long(op, args, progress) {
    const result = this.call(op, args, progress);
    return { result, cancel: () => this.call('cancel', [result.id]).catch(() => {}) };
  }
}
