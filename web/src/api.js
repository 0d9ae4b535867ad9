// The friendly API over the wasm modules: one place for both entry points (node.js, index.js).
// Nothing here computes attention: every number comes from the C++ core's trace. What a call's input is
// checked for lives beside it: spec_input.js (a spec), call_args.js (a.attention's arrays, a cell).
//
// [SECTION] options, and the values made when first read
// [SECTION] makeApi: the modules, the parts, then the API's calls in groups
//   (the core's tables · traces · the fast path · learning · words · the language model, the parts, memory)
import { shortText, wholeNumber } from './args.js';
import { AttentionError } from './attention_error.js';
import { MAX_CELL, cellArgs, checkAttentionArgs } from './call_args.js';
import { fieldTree, packSpec, unpackSpecText } from './packed_spec.js';
import { PART_NAMES, partSlots } from './parts.js';
import { leafText, readingSpecObject, specText } from './spec_input.js';
import { deepFreeze, operationCall, operationText, traceCalls } from './trace_reader.js';

export { AttentionError };

/** The package version (kept equal to package.json by a test). */
export const version = '0.1.0';

// [SECTION] options, and the values made when first read

/** createAttention's options checked the same in Node and the browser: the refusal, or null. */
export function createOptionsError(options) {
  if (options === null || typeof options !== 'object') return new AttentionError('createAttention takes an options object, e.g. {threads: true}.');
  if (options.threads !== undefined && typeof options.threads !== 'boolean') {
    return new AttentionError(`options.threads is ${String(options.threads).slice(0, 80)} but must be true or false.`);
  }
  return null;
}

/**
 * Gives obj[key] the value make() returns, made the first time it is read: a trace's spec is JSON the core
 * writes when asked, and parsing it on every trace would cost more than the trace itself for the small
 * examples. Still an ordinary enumerable field (assignable, seen by JSON.stringify and structuredClone).
 */
function valueWhenRead(obj, key, make) {
  let value;
  let made = false;
  Object.defineProperty(obj, key, {
    enumerable: true,
    configurable: true,
    get() {
      if (!made) value = make(), made = true;
      return value;
    },
    set(v) {
      value = v;
      made = true;
    },
  });
}

/**
 * A trace's copy of axes kept per structure ({query: [labels], …}): each list sliced. A copy made when first
 * read (an accessor defined on each stage) and structuredClone were both slower: at CBAM's twelve stages the
 * accessors were a seventh of a trace and the collector's work a sixth.
 */
function copyAxes(axes) {
  const copy = {};
  for (const key in axes) copy[key] = axes[key].slice();
  return copy;
}

/**
 * The texts a module's traces name by id (layout, axes): the same structure, the same id (the module keeps
 * the texts). JS parses each once; the texts never change under an id.
 */
function textsById(read) {
  const parsed = new Map(); // id -> the parsed text
  return (id) => {
    let value = parsed.get(id);
    if (value === undefined) {
      if (parsed.size >= 64) parsed.delete(parsed.keys().next().value); // the module keeps 32 of each kind
      parsed.set(id, (value = JSON.parse(read(id))));
    }
    return value;
  };
}

/** createAttention's `parts` option: the parts to load before it resolves (all of them unless it says). */
export function partsOption(options) {
  const parts = options.parts ?? PART_NAMES;
  if (!Array.isArray(parts) || parts.some((p) => !PART_NAMES.includes(p))) {
    return [null, new AttentionError(`options.parts must list some of ${PART_NAMES.map((p) => `"${p}"`).join(', ')} (the parts to load now; the others load on a.load(name)).`)];
  }
  return [parts, null];
}

// [SECTION] makeApi: the modules, the parts, then the API's calls in groups

/**
 * Wraps an instantiated core module (its one call, attn_call, over wasm/core_call.cpp's operations: trace_reader.js) in the package's API.
 * @param {object} core the module from createAttentionCore(): the sequence stages
 * @param {object} [threaded] the wasm-threads module, which runs a.attention beside the one-thread core (that
 *   does everything else: a threads build catches C++ exceptions only as JavaScript-based ones, which made every
 *   trace three times slower: docs/toolchain.md); null: a.attention runs in the fast part
 * @param {Function} [loadModel] the language model's loader (lm.js)
 * @param {(name: string) => Promise<object>} [loadPart] instantiates a part's module (parts.js)
 * @param {Function} [onDispose] called by a.dispose(): the entry point forgets its shared instance
 */
export function makeApi(core, threaded = null, loadModel = null, loadPart = null, onDispose = null) {
  // the stage registry (ids, symbols, titles, explanations, axes) is the core's: read it once
  const refuse = (sentence) => new AttentionError(sentence);
  const call = operationCall(core, refuse);
  const callText = operationText(core, refuse);
  const registry = deepFreeze(call('stages'));
  const stageInfo = new Map(registry.map((s) => [s.id, s]));
  const stageIds = Object.freeze(registry.map((s) => s.id));
  const limits = deepFreeze(call('limits'));
  // the spec's field tables (attn/spec_fields.hpp): the packer's fields come from them, not from a list here
  const schema = deepFreeze(call('schema'));
  const sequenceTree = fieldTree(schema.tensors);
  const examplesJson = callText('examples');
  const exampleKinds = new Map(JSON.parse(examplesJson).map((e) => [e.id, e.kind])); // id -> "sequence" | "vision"
  const exampleIds = new Set(exampleKinds.keys());
  const documents = new Map(); // example id -> its texts, read from the core once

  function exampleDocument(id) {
    if (!documents.has(id)) documents.set(id, deepFreeze(call('example_document', { id })));
    return documents.get(id);
  }

  const calls = traceCalls(core, refuse);
  // a module's kept texts and the normalised spec of its last trace, by the ids its traces name
  const textsOf = (call) => textsById((id) => call('cached_text', { id }));
  // the normalised spec's JSON text while the module keeps it; else undefined
  const specOfTraceIn = (callText) => (serial) => {
    const text = callText('spec_of_trace', { serial });
    return text === 'null' ? undefined : text;
  };
  const cached = textsOf(call);
  const specOfTrace = specOfTraceIn(callText);

  // the parts, each made the first time it loads
  const parts = partSlots(loadPart, AttentionError);
  const makePart = {
    vision(module) {
      const call = operationCall(module, refuse), callText = operationText(module, refuse);
      const registry = deepFreeze(call('stages'));
      const visionSchema = deepFreeze(call('schema'));
      return {
        module, call, callText, calls: traceCalls(module, refuse), info: new Map(registry.map((s) => [s.id, s])),
        schema: visionSchema, tree: fieldTree(visionSchema.tensors),
        cached: textsOf(call), specOfTrace: specOfTraceIn(callText),
      };
    },
    learn(module) {
      const call = operationCall(module, refuse);
      return {
        module, call, taskIds: call('tasks'),
        finalizer: new FinalizationRegistry((trainer) => call('trainer_free', { trainer })),
      };
    },
    explain: (module) => ({ module, call: operationCall(module, refuse) }),
    fast: (module) => ({ module }),
  };
  /**
   * The module a.attention runs in: the wasm-threads module when loaded, else the fast part. Its kernel's exports
   * take raw floats in the heap and answer a status (wasm/fast_path.cpp), the one module without the one call.
   */
  const fastModule = (call) => threaded ?? parts.need('fast', call).module;
  const load = (name) => parts.load(name, (n, module) => makePart[n](module));
  /** The packer's field tree for a spec's kind (a vision spec's needs the vision part). */
  const treeOf = (vision) => (vision ? parts.need('vision', 'trace of a vision spec').tree : sequenceTree);

  /**
   * A trace from a result of traceCalls: its stages ({id, formula, operands, shape, offset, size} from the
   * core's layout, with the registry's titles) each view their part of the one Float32Array (JS owns it).
   * normalisedText() gives the normalised spec's JSON text and is called only when trace.spec is read.
   */
  function build(result, normalisedText) {
    const vision = result.vision ? parts.loaded.vision : null;
    const layout = vision ? vision.cached(result.layoutId) : cached(result.layoutId);
    const { data } = result;
    const trace = vision
      ? {
        kind: 'vision',
        spec: undefined,
        stages: layout.map((s) => {
          const info = vision.info.get(s.id);
          return {
            id: s.id, symbol: info.symbol, title: info.title, title_zh: info.title_zh, formula: s.formula, explain: info.explain,
            scale: info.scale, operands: s.operands.slice(), axes: copyAxes(s.axes), shape: s.shape.slice(),
            data: data.subarray(s.offset, s.offset + s.size),
          };
        }),
      }
      : {
        kind: 'sequence',
        spec: undefined,
        axes: undefined,
        stages: layout.map((s) => {
          const info = stageInfo.get(s.id);
          return {
            id: s.id, title: info.title, title_zh: info.title_zh, formula: s.formula, term: s.term, explain: info.explain, scale: info.scale,
            operands: s.operands.slice(), shape: s.shape.slice(), data: data.subarray(s.offset, s.offset + s.size),
          };
        }),
      };
    trace.bytes = result.bytes;
    trace.compute_ms = result.computeMs;
    valueWhenRead(trace, 'spec', () => JSON.parse(normalisedText()));
    if (result.vision) return trace;
    trace.axes = copyAxes(cached(result.axesId)); // the caller's to change, as every trace field is
    if (result.mask) {
      trace.mask = result.mask;
      trace.empty_rows = result.emptyRows;
    }
    return trace;
  }

  const exampleSpecs = new Map(); // "id\nvariant" -> the example's normalised spec (JSON text)
  const exampleSpecTexts = new Map(); // "id\nvariant" -> an example's spec as the core writes it
  const trainerHandles = new WeakMap(); // trainer() run -> its handle in the core, for train()'s check
  const specTexts = new WeakMap(); // trace -> its spec as JSON text, for explain()

  const api = {
    version,
    /** Every stage id, in trace order: the core's registry. */
    stageIds,
    // [SECTION] the core's tables: stages, fields, limits, how traces crossed
    /** The stage registry: [{id, symbol, title, title_zh, explain, per_head, rows, cols}] in trace order. */
    stages() {
      return registry;
    },
    /** The documented limits of a spec (attn/limits.hpp), e.g. limits.maxPositions. */
    limits,
    /**
     * The specs' field tables (attn/spec_fields.hpp): {sequence: {top, tensors: [{path, rank, shape, param,
     * grad, packed}], choices: {score, mask, positional}}, vision: {tensors: [{path, rank, block}]} or null
     * until the vision part is loaded}.
     */
    schema() {
      return { sequence: schema, vision: parts.loaded.vision?.schema ?? null };
    },
    /**
     * How many threads a large attention() call uses: 1, but for the wasm-threads module (a
     * cross-origin-isolated page that asked for it: createAttention({threads: true})).
     */
    threads: threaded ? threaded._attn_max_threads() : 1,
    /**
     * How the traces so far crossed into the core, for tests and benchmarks that must see the fast paths:
     * {text: JSON text parsed, packedParsed: skeletons parsed (packedKept: of them, kept for their structure),
     * packedHit: a kept structure filled with new numbers and no parse, example: worked examples by id
     * (exampleHit: of them, a vision example whose spec the vision part kept, not parsed again)}.
     */
    tracePaths() {
      // the one-thread core traces sequence specs, the vision part vision specs: their counts added
      const sum = [0, 0, 0, 0, 0, 0, 0];
      const calls = [call, parts.loaded.vision?.call].filter(Boolean);
      for (const c of calls) c('trace_path_counts').forEach((n, k) => (sum[k] += n));
      return { text: sum[0], packedParsed: sum[1], packedKept: sum[2], packedHit: sum[3], example: sum[4], exampleHit: sum[5],
        specText: sum[6], keptSpecs: calls.reduce((n, c) => n + c('kept_traces'), 0) };
    },
    // [SECTION] traces: a spec, a worked example
    /**
     * Every stage of one attention computation for a spec (object or JSON text).
     * options.budget "interactive" applies the playground's lower limits on work and memory.
     */
    trace(spec, options = {}) {
      const budget = options?.budget ?? 'default';
      if (budget !== 'default' && budget !== 'interactive') {
        throw new AttentionError(`options.budget is "${shortText(String(budget))}" but must be "default" or "interactive".`);
      }
      const interactive = budget === 'interactive';
      let result, fullText;
      const packed = spec && typeof spec === 'object'
        ? readingSpecObject(() => (Array.isArray(spec) ? null : packSpec(spec, limits.maxSpecBytes / 8, leafText, treeOf))) : null;
      if (packed && packed.text.length <= limits.maxSpecBytes) {
        // the matrices as floats beside the rest as JSON text (packed_spec.js); a vision spec to its part
        const to = packed.vision ? parts.need('vision', 'trace of a vision spec').calls : calls;
        result = to.packed(packed.text, packed.numbers, interactive);
        fullText = () => unpackSpecText(packed.text, packed.numbers);
      } else {
        // and every spec with a value JSON cannot carry: refused here, naming its path in the whole spec
        const text = specText(spec, limits.maxSpecBytes);
        result = calls.text(text, interactive);
        // a vision spec's text: the core read its kind and traced nothing
        if (result.other) result = parts.need('vision', 'trace of a vision spec').calls.text(text, interactive);
        fullText = () => text;
      }
      // the normalised spec: written by its module when trace.spec is first read (the last trace's from memory)
      const { serial } = result;
      if (result.vision) {
        const vision = parts.loaded.vision;
        return build(result, () => vision.specOfTrace(serial) ?? vision.callText('normalised_spec', {}, fullText()));
      }
      return build(result, () => specOfTrace(serial) ?? callText('normalised_spec', {}, fullText()));
    },
    /** The trace of a worked example, optionally one of its variants. */
    example(id, variant = '') {
      if (typeof id !== 'string' || typeof variant !== 'string') {
        throw new AttentionError('example(id, variant) takes strings, e.g. example("bank", "finance").');
      }
      if (id.length > 256 || variant.length > 256) {
        throw new AttentionError(`example "${shortText(id)}" with variant "${shortText(variant)}" is unknown: see examples().`);
      }
      const key = `${id}\n${variant}`;
      // the example's spec text from the core, once (it refuses unknown ids and variants), then traced the one
      // way every spec is: a skeleton, here with no numbers, which its module keeps by its text
      const vision = exampleKinds.get(id) === 'vision' ? parts.need('vision', `example("${id}")`) : null;
      if (!exampleSpecTexts.has(key)) exampleSpecTexts.set(key, callText('example_spec', { id, variant }));
      const result = (vision ? vision.calls : calls).exampleSpec(exampleSpecTexts.get(key));
      const specOf = vision ? vision.specOfTrace : specOfTrace;
      // an example's normalised spec never changes: its text is asked for once
      if (!exampleSpecs.has(key)) exampleSpecs.set(key, specOf(result.serial));
      const trace = build(result, () => exampleSpecs.get(key));
      trace.example = exampleDocument(id); // known: the core has just computed it
      trace.variant = variant;
      return trace;
    },
    // [SECTION] the fast path: attention on Float32Arrays
    /**
     * The fast path: softmax(q·kᵀ/√d_h [causal])·v as one Float32Array (n_q × d), no trace and no JSON.
     * q (n_q × d), k and v (n_k × d) are row-major Float32Arrays; `heads` heads are contiguous column
     * blocks of d, as in the spec. Never builds an n_q × n_k matrix (an online softmax over blocks
     * of keys), so long sequences need memory for the inputs and the output only. With `out` (a
     * Float32Array of q.length values) the result is written there and out returned: a loop that calls it
     * every frame makes no new array each time (at n = 16, d = 8 making one was about 40 % of the call).
     */
    attention(args = {}) {
      if (args === null || typeof args !== 'object') throw new AttentionError('attention takes one object, {q, k, v, d, heads, causal, out}.');
      const { q, k, v, d, heads = 1, causal = false } = args;
      const into = args.out ?? undefined; // null, as absent: a new array
      checkAttentionArgs(q, k, v, d, heads, causal, into, limits);
      const fast = fastModule('attention');
      const nQ = q.length / d, nK = k.length / d;
      const bytes = (q.length + k.length + v.length + q.length) * 4;
      const base = fast._malloc(bytes);
      if (!base) throw new AttentionError(`out of memory: q, k, v and the output need ${Math.ceil(bytes / 2 ** 20)} MiB.`, 'ERR_ATTN_OUT_OF_MEMORY');
      try {
        // q, k, v one after another (the core reads them so), then the output
        const at = base / 4, out = at + q.length + k.length + v.length;
        fast.HEAPF32.set(q, at);
        fast.HEAPF32.set(k, at + q.length);
        fast.HEAPF32.set(v, at + q.length + k.length);
        let refused;
        try {
          refused = fast._attn_attention(out * 4, base, nQ, nK, d, heads, causal ? 1 : 0);
        } catch (error) {
          // the kernel's buffers could not be allocated: the one failure that reaches JS as a WebAssembly.Exception
          // (the wasm-threads module catches no C++ exception: docs/toolchain.md)
          if (error instanceof Error) throw error;
          throw new AttentionError(`out of memory: the kernel's buffers for ${nQ} × ${nK} do not fit in this page's memory.`, 'ERR_ATTN_OUT_OF_MEMORY');
        }
        if (refused) throw new AttentionError(fast.UTF8ToString(fast._attn_error())); // the core's sentence, as every call's
        if (!into) return fast.HEAPF32.slice(out, out + q.length);
        into.set(fast.HEAPF32.subarray(out, out + q.length)); // q, k and v were copied in: out may be one of them
        return into;
      } finally {
        fast._free(base);
      }
    },
    /**
     * Bytes one attention() call of these sizes holds in the wasm heap while it runs: q, k, v, the
     * output and the kernel's buffers. Grows as (nQ + nK)·d, never nQ·nK (the complexity example plots it).
     */
    attentionBytes({ nQ, nK, d, heads = 1 } = {}) {
      for (const [name, x, max] of [['nQ', nQ, limits.maxAttentionRows], ['nK', nK, limits.maxAttentionRows], ['d', d, limits.maxDModel], ['heads', heads, limits.maxHeads]])
        wholeNumber(x, name, 1, max, AttentionError);
      if (d % heads !== 0) throw new AttentionError(`d is ${d} but heads is ${heads}: d must be a multiple of heads.`);
      return fastModule('attentionBytes')._attn_attention_bytes(nQ, nK, d, heads);
    },
    // [SECTION] learning: gradients, tasks, the trainer (the learn part)
    /**
     * The loss of a spec with its "target" (or "labels" and "loss": "cross_entropy", or "upstream", dL/dy of a
     * later loss, and "loss": "upstream"), dL/d(parameter) for
     * every parameter of the spec and for x and memory, and dL/d(stage) for every stage (data as
     * Float32Array), computed by the core's backward pass: {loss, grads, stage_grads}.
     */
    grad(spec) {
      const learn = parts.need('learn', 'grad');
      const result = learn.call('grad', {}, specText(spec, limits.maxSpecBytes));
      for (const stage of result.stage_grads) stage.data = Float32Array.from(stage.data);
      return result;
    },
    /** The training tasks' ids, in the page's order: each one is a valid task(id). */
    tasks() {
      return [...parts.need('learn', 'tasks').taskIds];
    },
    /**
     * The chain rule behind one cell of dL/d(stage) for a grad spec (as grad() takes it), with the forward and
     * backward passes' own numbers, read like explain(): e.g. "∂L/∂α[1][2] = Σ_c ∂L/∂c[1][c]·v[2][c] = … = 0.0512".
     */
    explainGrad(spec, stageId, { head = 0, i = 0, j = 0, detail = false } = {}) {
      const [h, row, col] = cellArgs('explainGrad', { head, i, j });
      return parts.need('learn', 'explainGrad').call('explain_grad', { stage: String(stageId), head: h, i: row, j: col, detail: Boolean(detail) },
        specText(spec, limits.maxSpecBytes));
    },
    /**
     * A training run to step through (the page trains between frames): spec has "train" (data, params,
     * optimizer, steps) and "loss". step(count = 1) runs full-batch steps and returns their losses (each
     * the loss before its step); spec() is the spec with the parameters as trained so far. dispose()
     * frees it in the core (a finalizer does too, later, if it is forgotten).
     */
    trainer(spec) {
      const learn = parts.need('learn', 'trainer');
      const { call } = learn;
      const { trainer: handle, steps } = call('trainer', {}, specText(spec, limits.maxSpecBytes));
      let done = 0;
      let disposed = false;
      const run = {
        get steps() { return steps; },
        get done() { return done; },
        step(count = 1) {
          if (disposed) throw new AttentionError('this trainer was disposed of.', 'ERR_ATTN_DISPOSED');
          wholeNumber(count, 'step(count): count', 1, 100000, AttentionError);
          const result = call('trainer_step', { trainer: handle, count });
          const losses = Float32Array.from(result.losses); // floats the core wrote as doubles: exact
          done = result.done;
          if (result.stopped !== undefined) throw Object.assign(new AttentionError(result.stopped), { losses });
          return losses;
        },
        /** The learning rate from the next step on (Adam's moments are kept). */
        setLearningRate(lr) {
          if (disposed) throw new AttentionError('this trainer was disposed of.', 'ERR_ATTN_DISPOSED');
          // NaN and the infinities too: JSON would carry them as null, which the core would refuse as no number at all
          if (typeof lr !== 'number' || !Number.isFinite(lr)) throw new AttentionError(`setLearningRate(lr): lr is ${shortText(String(lr))} but must be a positive number.`);
          call('trainer_set_lr', { trainer: handle, lr });
        },
        spec() {
          if (disposed) throw new AttentionError('this trainer was disposed of.', 'ERR_ATTN_DISPOSED');
          return call('trainer_spec', { trainer: handle });
        },
        dispose() {
          if (!disposed) call('trainer_free', { trainer: handle }), learn.finalizer.unregister(run);
          disposed = true;
        },
      };
      learn.finalizer.register(run, handle, run);
      trainerHandles.set(run, handle);
      return run;
    },
    /**
     * A training task's train spec, generated by the core the same way every time: "alignment" (16 sentence
     * pairs over the translation example's words; W_q and W_k learn 猫 → cat), "positions-pe" and
     * "positions-no-pe" (reversing a sequence, with and without sinusoidal PE), "scaling-sqrt-dk" and
     * "scaling-none" (alignment with d = 64, scores divided by √d_k or not).
     */
    task(id) {
      const learn = parts.need('learn', 'task');
      if (typeof id !== 'string' || id.length > 64) throw new AttentionError(`task(id) takes a task id: ${learn.taskIds.join(', ')}.`);
      return learn.call('task', { id });
    },
    /**
     * Trains spec for its train.steps steps and returns {losses: Float32Array, spec} (the trained spec);
     * onStep({step, loss}) is called after every step.
     */
    train(spec, { onStep } = {}) {
      if (onStep !== undefined && typeof onStep !== 'function') throw new AttentionError('train(spec, {onStep}): onStep must be a function.');
      const run = this.trainer(spec);
      try {
        parts.loaded.learn.call('trainer_check_steps', { trainer: trainerHandles.get(run), count: run.steps }); // all steps in this one call: refused before the first
        const losses = new Float32Array(run.steps);
        for (let k = 0; k < run.steps; k++) {
          losses[k] = run.step(1)[0];
          onStep?.({ step: k + 1, loss: losses[k] });
        }
        return { losses, spec: run.spec() };
      } finally {
        run.dispose();
      }
    },
    /**
     * A guided-path figure's numbers, computed by the core (docs/figures.md): "rnn-limits" ({x, hidden, seed,
     * gain}: a tanh RNN's ‖∂h_{n−1}/∂x_t‖ against self-attention's ‖∂c_{n−1}/∂x_t‖ by distance), "why-sqrt-dk"
     * ({d_k, n_keys, trials, seed}: softmax's largest weight, gradient and the scores' spread, scaled and not) or
     * "cnn-rnn-attention" ({n, d, kernel}: path length, sequential steps, work, memory, measured time). Fields
     * left out take their defaults (rnn-limits needs x).
     */
    figure(name, request = {}) {
      const learn = parts.need('learn', 'figure');
      if (typeof name !== 'string' || name.length > 64) throw new AttentionError('figure(name, request) takes a figure\'s name: rnn-limits, why-sqrt-dk or cnn-rnn-attention.');
      if (typeof request !== 'string' && (!request || typeof request !== 'object' || Array.isArray(request))) {
        throw new AttentionError('figure(name, request): request must be an object (or JSON text), e.g. {d_k: [4, 8, 16]}.');
      }
      return learn.call('figure', { name }, specText(request, limits.maxSpecBytes));
    },
    // [SECTION] words: examples' documents, a cell's arithmetic (the explain part)
    /** An example's texts (title, summary, embeddings, notes, variants) without computing its trace. */
    exampleDocument(id) {
      if (!exampleIds.has(id)) throw new AttentionError(`example "${shortText(String(id))}" is unknown: see examples().`);
      return exampleDocument(id);
    },
    /**
     * The arithmetic behind result cell (i, j) (0-based) of a stage of a trace, with the trace's own
     * numbers, as the playground's captions write it: e.g. "α[1][2] = exp[1][2] ÷ s₁ = 0.3679 ÷ 1.9744 =
     * 0.1863". options.detail: every term and every digit instead of 4 decimals and 8 terms.
     */
    explain(trace, stageId, { head = 0, i = 0, j = 0, index = 0, detail = false } = {}) {
      if (!trace || !trace.spec) throw new AttentionError('explain(trace, stage, {i, j}) needs a trace from trace() or example().');
      if (!specTexts.has(trace)) specTexts.set(trace, JSON.stringify(trace.spec));
      if (trace.kind === 'vision') { // a value of a vision stage, by its row-major index
        wholeNumber(index, 'explain: index', 0, MAX_CELL, AttentionError);
        return parts.need('vision', 'explain of a vision trace').call('explain', { stage: String(stageId), index }, specTexts.get(trace));
      }
      const [h, row, col] = cellArgs('explain', { head, i, j });
      return parts.need('explain', 'explain of a sequence trace').call('explain', { stage: String(stageId), head: h, i: row, j: col, detail: Boolean(detail) },
        specTexts.get(trace));
    },
    /** The worked examples' ids, in docs/spec.md's order: each one is a valid example(id). */
    examples() {
      return [...exampleIds];
    },
    /** The worked examples with their titles and sources in English and Chinese, and their variant ids. */
    catalog() {
      return JSON.parse(examplesJson);
    },
    // [SECTION] the language model, the parts, memory
    /**
     * The tiny language model (docs/model.md): 'zh' or 'en' (shipped in the package) or the bytes of a
     * safetensors file. Its module and weights load on this first call only. options: {signal} stops the loading,
     * onProgress({loaded, total}) reports the weights' bytes as they arrive.
     */
    loadModel(which, options) {
      if (!loadModel) return Promise.reject(new AttentionError('this build of the package has no language model module.'));
      return loadModel(which, options);
    },
    /**
     * A language model with fresh weights to train (the induction lesson, docs/model.md): corpus is
     * fortune-format text (entries between lines of "%"); options {nLayer, nHead, dModel, dMlp, nCtx, vocab, seed}.
     */
    freshModel(corpus, options) {
      if (!loadModel?.fresh) return Promise.reject(new AttentionError('this build of the package has no language model module.'));
      return loadModel.fresh(corpus, options);
    },
    /**
     * Loads a part ("vision": the vision blocks; "learn": grad, explainGrad, tasks, task, trainer, train, figure;
     * "explain": explain of a sequence trace; "fast": attention, attentionBytes) if it is not loaded yet. createAttention loads all four
     * unless its `parts` option lists fewer; a call that needs a part not loaded throws an AttentionError
     * whose `part` names it.
     */
    load,
    /** The parts loaded so far. */
    parts() {
      return PART_NAMES.filter((name) => parts.loaded[name]);
    },
    /** Diagnostics: bytes in use on the wasm heaps (the core's and the loaded parts'), and the heaps' size. */
    memory() {
      const loaded = Object.values(parts.loaded).map((p) => p.module);
      return {
        heapInUse: [core, ...loaded].reduce((sum, m) => sum + m._attn_heap_in_use(), 0),
        heapSize: [core, ...loaded].reduce((sum, m) => sum + m.HEAPF32.buffer.byteLength, 0),
      };
    },
    /**
     * Lets go of the core and its parts (their wasm memory goes with the last reference to them): every later call
     * of this API throws an AttentionError with code "ERR_ATTN_DISPOSED", and the next createAttention() makes a
     * fresh one, with its own options. Models from loadModel live on until their own dispose().
     */
    dispose() {
      disposed = true;
      onDispose?.();
    },
  };
  // every call but dispose() refused once disposed
  let disposed = false;
  for (const [key, value] of Object.entries(api)) {
    if (typeof value !== 'function' || key === 'dispose') continue;
    api[key] = function (...args) {
      if (disposed) throw new AttentionError(`${key}: this API was disposed of; call createAttention() again.`, 'ERR_ATTN_DISPOSED');
      return value.apply(this, args);
    };
  }
  return Object.freeze(api);
}
