// The page's side of the core's Web Worker (worker.js): what every element on a page asks the core.
// The facts that never change (the stage registry, the limits, the examples and their texts) come once,
// when the worker starts, and are read synchronously; everything the core computes is a promise. A
// refusal rejects with an AttentionError carrying the core's sentence.
// A worker that dies (closed, crashed, or silent too long: worker_calls.js) fails every call waiting on it
// with a sentence, and the next call starts a new one; what the dead one kept (traces for captions, training
// runs) is sent again or said to be lost.
import { AttentionError } from '../attention_error.js';
import { startWorker } from './start_worker.js';
import { WorkerCalls } from './worker_calls.js';

/** What a call about a training run of a worker that has since died is refused with. */
const RUN_LOST = 'this training run was lost with the core\'s worker, which stopped; start it again (Reset).';

export class RemoteCore {
  /** Starts the worker and its core (threadsUrl: the wasm-threads module, for a cross-origin-isolated page). */
  static async start(threadsUrl = null) {
    // its own task: starting the worker (in the classic bundle, making its script with the wasm inlined) is
    // not added to the task that ran the page's script and defined the elements
    await new Promise((resolve) => setTimeout(resolve, 0));
    const core = new RemoteCore(threadsUrl);
    const facts = await core.started;
    core.registry = Object.freeze(facts.registry);
    core.stageIds = Object.freeze(facts.registry.map((s) => s.id));
    core.limits = Object.freeze(facts.limits);
    core.fieldTables = facts.schema; // the sequence spec's (vision: null here; the page's packer is the worker's)
    core.examplesList = facts.catalog;
    core.documents = new Map(Object.entries(facts.documents));
    core.threads = facts.threads;
    return core;
  }

  constructor(threadsUrl = null) {
    this.handles = new WeakMap(); // trace or gradient result -> {handle, generation} in the worker that made it
    this.lostListeners = new Set();
    this.calls = new WorkerCalls({
      lost: (sentence) => { for (const listener of this.lostListeners) listener(sentence); },
      spawn: startWorker,
      what: 'the core\'s worker',
      // a new worker's first call: its core, started (the page read the facts from the first worker's answer)
      restart: (calls) => {
        this.started = calls.call('start', [threadsUrl]);
        this.started.catch(() => {}); // the calls after it are refused with its sentence
      },
    });
  }

  /** Calls listener(sentence) whenever the worker is found dead, a call waiting or not; returns how to stop. */
  onLost(listener) {
    this.lostListeners.add(listener);
    return () => this.lostListeners.delete(listener);
  }

  /** The worker now running the core (a new one after a death); for tests, which may close it. */
  get worker() { return this.calls.worker; }

  /** One operation of the worker: a promise of its result (progress(fraction) for long work). */
  call(op, args, progress = null, transfer = []) {
    return this.calls.call(op, args, progress, transfer);
  }

  /** The handle a result has in the worker running now (0: none, as it came from a worker that died). */
  handleOf(result) {
    const kept = this.handles.get(result);
    return kept && kept.generation === this.calls.fresh() ? kept : { ...kept, handle: 0 };
  }

  /** A training run of a worker that has since died is refused with a sentence. */
  liveRun(run) {
    if (run.generation !== this.calls.fresh()) throw new AttentionError(RUN_LOST);
    return run.handle;
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
    this.handles.set(trace, { handle: trace.handle, generation: this.calls.generation });
    delete trace.handle;
    return trace;
  }

  /** The core's arithmetic behind a cell of a trace's stage (a.explain's text). */
  async explain(trace, stage, cell) {
    const { handle } = this.handleOf(trace);
    let answer = handle ? await this.call('explain', [handle, stage, cell]) : { gone: true };
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
    this.handles.set(result, { handle, spec, generation: this.calls.generation });
    return result;
  }

  /** The chain rule behind a cell of dL/d(stage) of a gradient from grad() (a.explainGrad's text). */
  async explainGrad(result, stage, cell) {
    const { handle, spec } = this.handleOf(result);
    let answer = handle ? await this.call('explainGrad', [handle, stage, cell]) : { gone: true };
    if (answer.gone) answer = await this.call('explainGrad', [0, stage, cell, spec]);
    return answer.text;
  }

  task(id) { return this.call('task', [id]); }

  /** A guided-path figure's numbers, computed by the core in the worker (a.figure: docs/figures.md). */
  figure(name, request = {}) { return this.call('figure', [name, request]); }

  /** A training run in the worker: {steps, done, handle}; train it with trainTogether. */
  async trainer(spec) {
    const { handle, steps } = await this.call('trainer', [spec]);
    return { handle, steps, done: 0, generation: this.calls.generation };
  }

  /**
   * Trains runs together, count steps (fewer if budgetMs runs out first): {losses: per run, error}.
   * Each run's done is updated.
   */
  async trainTogether(runs, count, budgetMs) {
    const answer = await this.call('trainTogether', [runs.map((r) => this.liveRun(r)), count, budgetMs]);
    runs.forEach((r, k) => { r.done = answer.done[k]; });
    return answer;
  }

  async setLearningRate(run, lr) { return this.call('setLearningRate', [this.liveRun(run), lr]); }
  async trainerSpec(run) { return this.call('trainerSpec', [this.liveRun(run)]); }
  dispose(run) { if (run && run.generation === this.calls.generation && !this.calls.dead) this.call('dispose', [run.handle]).catch(() => {}); }

  /** One data item through a run's weights: {trace, gradients} (gradients with loss fields, else null). */
  async inspect(run, item, lossFields) {
    const { trace, gradients } = await this.call('trainerInspect', [this.liveRun(run), item, lossFields]);
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
