// The core's Web Worker: the wasm core runs here for every element on a page (<attention-stepper>,
// <attention-trainer>), so the page's main thread only draws. Messages in: {id, op, args}; out:
// {id, result} or {id, error: the core's sentence}, and {id, progress} for long work. Every number comes
// from the C++ core through the package's API (../api.js); nothing here computes attention.
//
// A trace crosses as plain data (its one Float32Array transferred, not copied) with a handle: the
// worker keeps the trace's spec under that handle, so a caption's explain() does not send the spec
// back. The store is bounded; the page sends the spec again for a handle that was dropped.
//
// The core starts alone; a part (the vision blocks, gradients and training, a cell's arithmetic:
// ../parts.js) loads the first time an operation needs it, and the operation then runs again.
import { createAttention } from '../create_core.js';
import { measure, measurePaths } from '../stepper/complexity_measure.js';
import { serveOperations } from './serve.js';

/** Traces (and gradients) kept for explain: the newest this many, for every element of the page together. */
const KEEP = 64;

let attention = null;
let starting = null; // the promise of the start: the operations posted after it wait for it
let nextHandle = 1;
const traces = new Map(); // handle -> {kind, spec}: what explain() needs of a trace
const grads = new Map(); // handle -> the grad spec, for explainGrad()
const trainers = new Map(); // handle -> the API's trainer run
const cancelled = new Set(); // ids of long work the page no longer wants

function keep(store, value) {
  const handle = nextHandle++;
  store.set(handle, value);
  if (store.size > KEEP) store.delete(store.keys().next().value);
  return handle;
}

/** A trace as it crosses: every field read (the spread reads spec and axes, made when first read), its data transferred. */
function send(trace, transfer) {
  const handle = keep(traces, { kind: trace.kind, spec: trace.spec });
  const plain = { ...trace, handle };
  const buffer = trace.stages[0]?.data.buffer;
  if (buffer && !transfer.includes(buffer)) transfer.push(buffer);
  return plain;
}

function trainerOf(handle) {
  const run = trainers.get(handle);
  if (!run) throw new Error('this trainer was disposed of.');
  return run;
}

/** The gradient of a grad spec, kept for explainGrad: {handle, result} (stage_grads' data transferred). */
function gradOf(spec, transfer) {
  const result = attention.grad(spec);
  for (const s of result.stage_grads) transfer.push(s.data.buffer);
  return { handle: keep(grads, spec), result };
}

const ops = {
  /** threadsUrl: the wasm-threads module's, or null. */
  async start(threadsUrl) {
    attention = await createAttention(threadsUrl ? { parts: [], threads: true, threadsUrl } : { parts: [] });
    const catalog = attention.catalog();
    return {
      registry: attention.stages(), limits: attention.limits, schema: attention.schema(), catalog,
      documents: Object.fromEntries(catalog.map((e) => [e.id, attention.exampleDocument(e.id)])),
      threads: attention.threads,
    };
  },
  trace: (transfer, spec, options) => send(attention.trace(spec, options), transfer),
  example: (transfer, id, variant) => send(attention.example(id, variant), transfer),
  /** The caption of a cell: by handle, or (a handle no longer kept) by the trace the page sends back. */
  explain(_transfer, handle, stage, cell, trace = null) {
    const kept = traces.get(handle) ?? trace;
    if (!kept) return { gone: true };
    return { text: attention.explain(kept, stage, cell) };
  },
  grad: (transfer, spec) => gradOf(spec, transfer),
  explainGrad(_transfer, handle, stage, cell, spec = null) {
    const kept = grads.get(handle) ?? spec;
    if (!kept) return { gone: true };
    return { text: attention.explainGrad(kept, stage, cell) };
  },
  task: (_transfer, id) => attention.task(id),
  /** A guided-path figure (rnn-limits, why-sqrt-dk, cnn-rnn-attention): the learn part's, loaded on first use. */
  figure: (_transfer, name, request) => attention.figure(name, request),
  tasks: () => attention.tasks(),
  trainer(_transfer, spec) {
    const run = attention.trainer(spec);
    const handle = nextHandle++;
    trainers.set(handle, run);
    return { handle, steps: run.steps };
  },
  /**
   * Steps every run together, one step each in turn, until count steps are done or budgetMs has passed
   * (so a frame's work stays short): {losses: per run the new losses, done, error: a refused step's sentence}.
   */
  trainTogether(_transfer, handles, count, budgetMs) {
    const runs = handles.map(trainerOf);
    const losses = runs.map(() => []);
    const started = performance.now();
    let error = null;
    for (let k = 0; k < count && !error; k++) {
      for (const [r, run] of runs.entries()) {
        try {
          losses[r].push(...run.step(1));
        } catch (e) {
          error = e.message; // an overflow: the core refused the step and kept the weights
          break;
        }
      }
      if (performance.now() - started > budgetMs) break;
    }
    return { losses, done: runs.map((run) => run.done), error };
  },
  setLearningRate: (_transfer, handle, lr) => trainerOf(handle).setLearningRate(lr),
  trainerSpec: (_transfer, handle) => trainerOf(handle).spec(),
  dispose(_transfer, handle) {
    trainers.get(handle)?.dispose();
    trainers.delete(handle);
  },
  /**
   * One data item through a run's current weights: its trace and, with loss fields, its gradients
   * ({trace, gradients: {handle, result, spec} | null}). item: {x, tokens, memory?}.
   */
  trainerInspect(transfer, handle, item, lossFields) {
    const spec = { ...trainerOf(handle).spec(), x: item.x, tokens: item.tokens };
    if (item.memory) spec.memory = item.memory;
    const trace = attention.trace(spec, { budget: 'interactive' });
    const gradSpec = lossFields && { ...trace.spec, ...lossFields };
    // the grad spec goes with it: a caption of a gradient whose handle was dropped sends it back
    const gradients = gradSpec ? { ...gradOf(gradSpec, transfer), spec: gradSpec } : null;
    return { trace: send(trace, transfer), gradients };
  },
  /** The complexity example's measurements (seconds of work): progress reported, cancel() stops them between samples. */
  measure: (_transfer, sizes, d, { id }) => measure(attention, sizes, d, watch(id)),
  measurePaths: (_transfer, sizes, d, { id }) => measurePaths(attention, sizes, d, watch(id)),
  cancel(_transfer, id) {
    cancelled.add(id);
  },
};

/** What a long job asks between samples: report its progress (0…1), and whether to stop. */
function watch(id) {
  return (fraction) => {
    if (cancelled.delete(id)) throw Object.assign(new Error('cancelled.'), { cancelled: true });
    self.postMessage({ id, progress: fraction });
  };
}

const LONG = new Set(['measure', 'measurePaths']);

/** An operation's result; one that needs a part not loaded yet loads it and runs again (once per part). */
async function run(op, args, id, transfer) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await ops[op](transfer, ...args, ...(LONG.has(op) ? [{ id }] : []));
    } catch (error) {
      if (!error?.part || attempt > 1) throw error;
      transfer.length = 0;
      await attention.load(error.part);
    }
  }
}

// operations run side by side (a long measurement reports its progress and may be cancelled); one posted right after
// the start waits for it, and a failed start refuses it with its sentence
serveOperations(ops, {
  what: 'the core\'s worker',
  run: async (op, args, call) => {
    if (op === 'start') return (starting = ops.start(...args));
    if (!starting) throw new Error('the core is not loaded yet.');
    await starting;
    return run(op, args, call.id, call.transfer);
  },
});
