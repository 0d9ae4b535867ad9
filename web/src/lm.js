// The tiny language model for JavaScript (docs/model.md): a.loadModel('zh' | 'en' | bytes). Its wasm module
// (dist/lm) and the weight files (models/) load only on the first call, so the sequence stepper's download
// does not grow. Every number comes from the C++ core; nothing here computes the model.
//
// [SECTION] loading a model (its module once, its weights)
// [SECTION] a model's calls: trace, explain, generate, heads, train

import { shortText, wholeNumber } from './args.js';
import { openModelFolder } from './model_folder.js';
import { deepFreeze, operationCall } from './trace_reader.js';

const encoder = new TextEncoder();

/**
 * text, checked before a byte of it is copied into the wasm heap (whose memory never shrinks): a string of at most
 * `most` characters (a character is one or two UTF-16 units, so a longer string is refused unread), of valid Unicode.
 * `context` names what bounds it, for the sentence.
 */
function textArgument(text, name, most, context, AttentionError) {
  if (typeof text !== 'string') throw new AttentionError(`${name} must be a string.`);
  if (text.length > 2 * most) {
    throw new AttentionError(`${name} has more than ${most} characters (${text.length} UTF-16 units) but ${context}.`);
  }
  if (!text.isWellFormed()) throw new AttentionError(`${name} holds a lone UTF-16 surrogate (half of a character), which is not valid Unicode.`);
  return text;
}

/** A corpus or training text as UTF-8 bytes, refused over the core's bound "corpus_bytes" before it reaches the heap. */
function corpusBytes(text, name, bounds, AttentionError) {
  const most = bounds.corpus_bytes[1];
  if (typeof text !== 'string') throw new AttentionError(`${name} must be a string.`);
  const over = () => new AttentionError(`${name} is over the limit of ${most / 2 ** 20} MiB of UTF-8 text.`);
  if (text.length > most) throw over(); // each UTF-16 unit is at least one byte of UTF-8
  if (!text.isWellFormed()) throw new AttentionError(`${name} holds a lone UTF-16 surrogate (half of a character), which is not valid Unicode.`);
  const bytes = encoder.encode(text);
  if (bytes.length > most) throw over();
  return bytes;
}

/**
 * The options object of a call, its known keys read once (a getter runs once; one that throws, or a revoked
 * Proxy, is an AttentionError): undefined gives the defaults; anything but a plain object is refused, as
 * generate(text, 5) once silently used the defaults and generate(text, null) threw a TypeError.
 */
function readOptions(options, call, defaults, AttentionError) {
  if (options === undefined) return { ...defaults };
  let shown = null;
  try {
    if (options === null || typeof options !== 'object') shown = options === null ? 'null' : typeof options;
    else if (Array.isArray(options)) shown = 'an array';
  } catch {
    shown = 'a revoked Proxy'; // Array.isArray throws for one
  }
  if (shown) {
    throw new AttentionError(`${call}: options must be an object such as {${Object.keys(defaults).slice(0, 3).join(', ')}}, not ${shown}.`);
  }
  const out = {};
  try {
    for (const [key, fallback] of Object.entries(defaults)) {
      const value = options[key];
      out[key] = value === undefined ? fallback : value;
    }
  } catch (error) {
    throw new AttentionError(`${call}: its options could not be read (${shortText(String(error?.message ?? error))}).`);
  }
  return out;
}

/**
 * The bytes of a weight file as a Uint8Array: loadModel takes a Uint8Array or an ArrayBuffer. Checked by their
 * internal slots, not by instanceof, so a Proxy is refused rather than read; a detached buffer is said to be one.
 */
function weightBytes(which, AttentionError) {
  const wrong = () => new AttentionError("loadModel takes 'zh', 'en', the bytes of a .safetensors file (a Uint8Array or an ArrayBuffer), or a model folder: {config, weights, tokenizer}, {files} or its URL.");
  if (ArrayBuffer.isView(which)) {
    if (Object.prototype.toString.call(which) !== '[object Uint8Array]') throw wrong();
    try {
      return new Uint8Array(which.buffer, which.byteOffset, which.byteLength);
    } catch {
      throw new AttentionError('loadModel: the bytes\' ArrayBuffer is detached (transferred elsewhere) and holds nothing.');
    }
  }
  let isBuffer = false;
  try {
    Object.getOwnPropertyDescriptor(ArrayBuffer.prototype, 'byteLength').get.call(which); // throws for all but an ArrayBuffer
    isBuffer = true;
  } catch {
    throw wrong();
  }
  try {
    return isBuffer && new Uint8Array(which);
  } catch {
    throw new AttentionError('loadModel: the ArrayBuffer is detached (transferred elsewhere) and holds nothing.');
  }
}

/**
 * An AbortSignal option, checked: undefined or a signal (the call then stops, rejecting with signal.reason, as
 * fetch does, when it is aborted before the call or while it waits).
 */
function signalOption(signal, call, AttentionError) {
  if (signal !== undefined && (typeof signal?.aborted !== 'boolean' || typeof signal.throwIfAborted !== 'function')) {
    throw new AttentionError(`${call}: options.signal must be an AbortSignal (from an AbortController).`);
  }
  signal?.throwIfAborted();
  return signal;
}

/** A model folder rather than one of ours: {config, weights, tokenizer}, {files}, or a URL (a string with a slash). */
function isFolderSource(which) {
  if (typeof URL !== 'undefined' && which instanceof URL) return true;
  if (typeof which === 'string') return which !== 'zh' && which !== 'en' && which.includes('/');
  return which !== null && typeof which === 'object' && !ArrayBuffer.isView(which) && !(which instanceof ArrayBuffer) &&
    ('config' in which || 'files' in which);
}

/** Gives the event loop a turn (timers, input, rendering) between two steps of long work. */
const nextTurn = () => globalThis.scheduler?.yield?.() ?? new Promise((resolve) => setTimeout(resolve, 0));

// [SECTION] loading a model (its module once, its weights)

/**
 * Makes loadModel over a factory of the lm module (instantiated once), a reader of the shipped weight files'
 * bytes (readModel('zh') → Uint8Array) and a factory of the model folders' module (dist/hf).
 */
export function makeModelLoader(createCore, readModel, AttentionError, createFolderCore = null) {
  let shared = null;
  let sharedFolder = null;
  /** The module of models you bring (dist/hf), instantiated once, on the first folder opened. */
  const folderCore = () => {
    if (!createFolderCore) return Promise.reject(new AttentionError('this build has no module for model folders (dist/hf).'));
    sharedFolder ??= createFolderCore().catch((error) => {
      sharedFolder = null;
      throw new AttentionError(`the model folders' module could not be loaded (${String(error?.message ?? error).slice(0, 200)}).`, 'ERR_ATTN_LOAD_FAILED');
    });
    return sharedFolder;
  };
  const core = () => {
    shared ??= createCore().then((lm) => {
      // the module's one call (attn_call); the core's bounds of every argument it takes ({name: [lo, hi]}), read
      // once: no bound typed here again
      lm.call = operationCall(lm, (sentence) => new AttentionError(sentence));
      lm.bounds = lm.call('limits');
      return lm;
    }).catch((error) => {
      shared = null;
      throw error;
    });
    return shared;
  };

  /**
   * A model with fresh weights to train (the induction lesson): corpus is fortune-format text (entries
   * between lines of "%"), split and tokenised as the shipped models' corpora are; options the shape
   * ({nLayer, nHead, dModel, dMlp, nCtx, vocab, seed}). The model's trainingText is the corpus's training
   * entries (its held-out ones are the head scores' probe).
   */
  async function freshModel(corpus, options) {
    const { nLayer, nHead, dModel, dMlp, nCtx, vocab, seed } = readOptions(options, 'freshModel',
      { nLayer: 2, nHead: 4, dModel: 64, dMlp: 256, nCtx: 32, vocab: 128, seed: 1 }, AttentionError);
    if (typeof corpus !== 'string') throw new AttentionError('corpus must be a string.');
    const lm = await core();
    const bytes = corpusBytes(corpus, 'corpus', lm.bounds, AttentionError);
    for (const [name, x, bound] of [['nLayer', nLayer, 'n_layer'], ['nHead', nHead, 'n_head'], ['dModel', dModel, 'd_model'],
      ['dMlp', dMlp, 'd_mlp'], ['nCtx', nCtx, 'n_ctx'], ['vocab', vocab, 'vocab']]) wholeNumber(x, name, ...lm.bounds[bound], AttentionError);
    wholeNumber(seed, 'seed', ...lm.bounds.seed, AttentionError);
    const shape = { n_layer: nLayer, n_head: nHead, d_model: dModel, d_mlp: dMlp, n_ctx: nCtx, vocab, seed };
    return wrapModel(lm, lm.call('fresh', shape, bytes), AttentionError);
  }

  loadModel.fresh = freshModel;
  return loadModel;

  /** The module, its failure to load said in one sentence. */
  async function loadedCore() {
    try {
      return await core();
    } catch (error) {
      // a sentence of our own (a damaged file, named) goes out as it is
      if (error instanceof AttentionError) throw error;
      throw new AttentionError(`the language model's module could not be loaded (${String(error?.message ?? error).slice(0, 200)}).`, 'ERR_ATTN_LOAD_FAILED');
    }
  }

  /**
   * A model: 'zh', 'en', a file's bytes, or a model folder as Hugging Face writes it (model_folder.js: {config,
   * weights, tokenizer}, {files}, or the folder's URL). options: {signal} stops the loading; onProgress({loaded, total}) as the
   * weights' bytes arrive (total 0 when not known).
   */
  async function loadModel(which, options) {
    const { signal, onProgress } = readOptions(options, 'loadModel', { signal: undefined, onProgress: undefined }, AttentionError);
    signalOption(signal, 'loadModel', AttentionError);
    if (onProgress !== undefined && typeof onProgress !== 'function') throw new AttentionError('loadModel: options.onProgress must be a function.');
    if (isFolderSource(which)) {
      const hf = await folderCore();
      signal?.throwIfAborted();
      return openModelFolder(hf, which, { signal, onProgress }, AttentionError);
    }
    let bytes;
    if (which === 'zh' || which === 'en') {
      try {
        bytes = await readModel(which, { signal, onProgress });
      } catch (error) {
        signal?.throwIfAborted();
        throw new AttentionError(`the ${which} model could not be loaded (${String(error?.message ?? error).slice(0, 200)}).`, 'ERR_ATTN_LOAD_FAILED');
      }
    } else {
      bytes = weightBytes(which, AttentionError);
      onProgress?.({ loaded: bytes.length, total: bytes.length });
    }
    const lm = await loadedCore();
    signal?.throwIfAborted();
    const most = lm.bounds.file_bytes[1];
    if (bytes.length > most) throw new AttentionError(`weight file: the file is ${bytes.length} bytes, over the limit of ${most / 2 ** 20} MiB.`);
    return wrapModel(lm, lm.call('load', {}, bytes), AttentionError);
  }
}

/**
 * Per lm module: the copy functions of the last trace's stages not read yet (the core keeps one trace),
 * the stage names it has told us, and its stage registry (the same for every model), each read once.
 */
const perModule = new WeakMap();

// [SECTION] a model's calls: trace, explain, generate, heads, train

/** The API of a model in the lm module, from what opening it there answered: {handle, about} (and, fresh, train). */
function wrapModel(lm, first, AttentionError) {
  if (!perModule.has(lm)) perModule.set(lm, { unread: new Set(), names: new Map(), registry: null });
  const kept = perModule.get(lm);
  const { unread, names } = kept;
  /** The module's one call (trace_reader.js): an operation on this model, its JSON answer, or its sentence thrown. */
  const call = (operation, request = {}, payload = undefined) => lm.call(operation, { handle, ...request }, payload);

  /**
   * A trace from its layout. Each stage's numbers are copied out of the heap when first read (most
   * views read a few stages of the 46); before the core frees them — the next trace or step, of any
   * model in this module — every stage not read yet is copied, so data is always the trace's own.
   */
  function readTrace(layout) {
    const stages = [];
    for (const [index, at, ...shape] of layout.stages) {
      const name = stageName(index);
      const size = shape.reduce((a, b) => a * b, 1);
      let data = null;
      const copy = () => (data ??= lm.HEAPF32.slice(at, at + size));
      unread.add(copy);
      stages.push({
        id: name.id, layer: name.layer, shape, symbol: name.symbol, title: name.title, scale: name.scale,
        get data() {
          unread.delete(copy);
          return copy();
        },
      });
    }
    return { tokens: layout.tokens, ids: layout.ids, unknown: layout.unknown, stages };
  }
  /** A stage's {id, layer, symbol, title, scale} from the number the core gave it, asked for once. */
  function stageName(index) {
    let name = names.get(index);
    if (!name) {
      name = lm.call('stage_name', { index });
      Object.freeze(name.title);
      names.set(index, Object.freeze(name));
    }
    return name;
  }
  /** Copies out every stage the last trace has not read yet: the core is about to free them. */
  function keepUnread() {
    for (const copy of unread) copy();
    unread.clear();
  }

  const handle = first.handle;
  const about = Object.freeze(first.about);
  let disposed = false;
  const live = () => {
    if (disposed) throw new AttentionError('this model was disposed of.', 'ERR_ATTN_DISPOSED');
  };
  const nCtx = about.config.n_ctx;
  /** A text the model reads at once: 1 … n_ctx characters, refused unread when longer. */
  const modelText = (text, name = 'the text') => textArgument(text, name, nCtx, `the model reads at most ${nCtx} at once (its context, n_ctx)`, AttentionError);

  /** The options of a draw ({n, temperature, topK, topP, seed, k}), checked against the core's bounds. */
  function drawOptions(options, name) {
    const o = readOptions(options, name, { n: 100, temperature: 0.8, seed: 0, topK: 0, topP: 1, k: 10 }, AttentionError);
    // the core's bound: 0 (greedy), or a temperature from its lowest (sampling below it is greedy in all but name)
    const [lo, hi] = lm.bounds.temperature;
    if (typeof o.temperature !== 'number' || !(o.temperature === 0 || (o.temperature >= lo && o.temperature <= hi))) {
      throw new AttentionError(`temperature is ${shortText(String(o.temperature))} but must be 0 (greedy) or from ${lo} to ${hi}.`);
    }
    wholeNumber(o.topK, 'topK', 0, about.vocab_size - 1, AttentionError);
    const [plo, phi] = lm.bounds.top_p;
    if (typeof o.topP !== 'number' || !(o.topP >= plo && o.topP <= phi)) {
      throw new AttentionError(`topP is ${shortText(String(o.topP))} but must be from ${plo} to ${phi}.`);
    }
    wholeNumber(o.seed, 'seed', ...lm.bounds.seed, AttentionError);
    return o;
  }

  const model = {
    /** {config, vocab_size, vocab, corpus, parameters} */
    get about() { return about; },
    /** A fresh model's training text (its corpus's training entries); undefined for a loaded one. */
    get trainingText() { return first.train; },
    /**
     * The model's stage registry, in trace order: every stage a trace can have with the playground
     * registry's facts (id, symbol, title, title_zh, explain, scale) and kind, per_layer, per_head, rows,
     * cols, formula, operands, block (docs/model.md). The same for every model: the core's table.
     */
    stages() {
      kept.registry ??= deepFreeze(lm.call('stages'));
      return kept.registry;
    },
    /** Every stage of every layer: {tokens, ids, unknown, stages: [{id, layer, shape, symbol, title, scale, data: Float32Array}]}. */
    trace(text) {
      live();
      modelText(text);
      keepUnread();
      return readTrace(call('trace', { text }));
    },
    /**
     * One generation step on text's last character, the ones before it already in the key/value cache:
     * per layer kv_cache (2 × h × n × d_h: keys, then values) and the new row of weights (h × 1 × n), then
     * the new row's logits and probs — one row of attention a layer.
     */
    step(text) {
      live();
      modelText(text);
      keepUnread();
      return readTrace(call('step', { text }));
    },
    /** The arithmetic of cell (i, j) of a stage of text's trace, as the page's captions say it (layer, head 0-based). */
    explain(text, stageId, cell) {
      live();
      const { layer, head, i, j } = readOptions(cell, 'explain', { layer: null, head: 0, i: 0, j: 0 }, AttentionError);
      modelText(text);
      if (typeof stageId !== 'string' || stageId.length > 40 || !stageId.isWellFormed()) throw new AttentionError('explain: the stage id must be a string such as "ln_1".');
      if (layer !== null) wholeNumber(layer, 'layer', 0, about.config.n_layer - 1, AttentionError);
      wholeNumber(head, 'head', 0, about.config.n_head - 1, AttentionError);
      wholeNumber(i, 'i', 0, 1e6, AttentionError);
      wholeNumber(j, 'j', 0, 1e6, AttentionError);
      return call('explain', { text, stage: stageId, layer: layer ?? -1, head, i, j }).text;
    },
    /** The line-alignment pattern the head scores use: for each character, the key at the same place in the previous line, or −1. */
    lineTargets(text) {
      live();
      modelText(text);
      return call('line_targets', { text });
    },
    /** Layer `layer`'s attention on text as a sequence spec (ln_1 rows, the layer's weights, causal): a.trace(spec) shows it stage by stage. */
    layerSpec(text, layer) {
      live();
      modelText(text);
      wholeNumber(layer, 'layer', 0, about.config.n_layer - 1, AttentionError);
      return call('layer_spec', { text, layer });
    },
    /**
     * Layer `layer`'s attention on text with the model's next-character loss above it: {loss (nats per
     * character, over the text's predictions), spec: layerSpec's spec with "loss": "upstream" and
     * "upstream", the loss's gradient at the attention's output}. a.grad(spec) then gives every stage's
     * gradient of the model's own loss. The text needs at least 2 characters.
     */
    layerGrad(text, layer) {
      live();
      modelText(text);
      wholeNumber(layer, 'layer', 0, about.config.n_layer - 1, AttentionError);
      return call('layer_grad', { text, layer });
    },
    /**
     * Which heads pushed each of the k most likely next characters: [{char, p, logit, heads}], heads the
     * direct logit attribution of every (layer, head), layer by layer (docs/model.md).
     */
    attribution(text, k = 10) {
      live();
      modelText(text);
      wholeNumber(k, 'k', 1, about.vocab_size - 1, AttentionError);
      return call('attribute', { text, k });
    },
    /**
     * The k most likely next characters, [{char, p}], most likely first; with options {temperature, topK, topP}, the
     * distribution as sampling draws from it (after the temperature, top-k and top-p), as attn lm next --temperature.
     */
    next(text, k = 10, options = undefined) {
      live();
      modelText(text);
      wholeNumber(k, 'k', 1, about.vocab_size - 1, AttentionError);
      if (options === undefined) return call('next', { text, k });
      const { temperature, topK, topP } = drawOptions(options, 'next');
      return call('next', { text, k, temperature, top_k: topK, top_p: topP });
    },
    /**
     * The next character as sampling draws it: {candidates: [{char, temperature, top_k, top_p}] (the k likeliest
     * after the temperature, with their probability after each step), sampled: the seed's draw} — generate's first pick.
     */
    sample(text, options) {
      live();
      modelText(text);
      const { temperature, topK, topP, seed, k } = drawOptions(options, 'sample');
      wholeNumber(k, 'k', 1, about.vocab_size - 1, AttentionError);
      return call('sample', { text, k, temperature, top_k: topK, top_p: topP, seed });
    },
    /** What each layer predicts (the logit lens): [{layer, after: 'attn' | 'mlp', top: [{char, p}] × k}]. */
    lens(text, k = 5) {
      live();
      modelText(text);
      wholeNumber(k, 'k', 1, about.vocab_size - 1, AttentionError);
      return call('lens', { text, k });
    },
    /** n new characters after prompt (temperature 0: greedy; topK 0 and topP 1 keep every character; the same seed, the same characters). */
    generate(prompt, options) {
      live();
      const { n, temperature, seed, topK, topP } = drawOptions(options, 'generate');
      modelText(prompt, 'the prompt');
      wholeNumber(n, 'n', ...lm.bounds.n, AttentionError);
      // one call into the core, bounded by n's limit: a signal already aborted stops it before it starts
      signalOption(readOptions(options, 'generate', { signal: undefined }, AttentionError).signal, 'generate', AttentionError);
      return call('generate', { text: prompt, n, temperature, seed, top_k: topK, top_p: topP }).text;
    },
    /**
     * Each head's detector scores on the model's standard probes, [{layer, head, previous_token, induction,
     * first_token, line_alignment?, probe: {the same}}], and with text, on that text too: text: {previous_token,
     * induction (null when no character repeats), first_token, self, entropy (bits), line_alignment?}.
     */
    heads(text = '') {
      live();
      if (text !== '') {
        textArgument(text, 'the probe text', lm.bounds.probe[1], `the head scores read at most ${lm.bounds.probe[1]}`, AttentionError);
        modelText(text);
      }
      return call('heads', { text });
    },
    /**
     * A training run of this model on text, to step through (the induction lesson trains between frames):
     * step(count = 1) runs count steps of `batch` random windows of n_ctx characters (a share
     * repeatFraction of them a random string repeated), AdamW with a warm-up and a cosine over `steps`, and
     * returns their losses (Float32Array, nats per character); done counts the steps; dispose() frees it.
     */
    trainer(text, options) {
      live();
      const { steps, batch, lr, warmup, repeatFraction, seed } = readOptions(options, 'trainer',
        { steps: 100, batch: 8, lr: 1e-3, warmup: 10, repeatFraction: 0, seed: 1 }, AttentionError);
      const bytes = corpusBytes(text, 'the training text', lm.bounds, AttentionError);
      for (const [name, x] of [['steps', steps], ['batch', batch], ['warmup', warmup]]) wholeNumber(x, name, ...lm.bounds[name], AttentionError);
      wholeNumber(seed, 'seed', ...lm.bounds.seed, AttentionError);
      if (typeof lr !== 'number' || !(lr > 0 && lr < 1)) throw new AttentionError('lr must be a number between 0 and 1.');
      if (typeof repeatFraction !== 'number' || !(repeatFraction >= 0 && repeatFraction <= 1)) throw new AttentionError('repeatFraction must be a number from 0 to 1.');
      // the core refuses a step over one call's budget, and says how many steps one call may take
      const { trainer: id, steps_per_call: perCall } = call('trainer', { steps, batch, lr, warmup, repeat_fraction: repeatFraction, seed }, bytes);
      let done = 0;
      let freed = false;
      return {
        get done() { return done; },
        step(count = 1) {
          live();
          if (freed) throw new AttentionError('this training run was disposed of.', 'ERR_ATTN_DISPOSED');
          wholeNumber(count, 'step(count): count', ...lm.bounds.steps, AttentionError);
          if (count > perCall) {
            throw new AttentionError(`step(count): ${count} steps of ${batch} windows are over the limit of ${(lm.bounds.train_work[1] / 1e9).toPrecision(3)} billion multiply-adds one call may train for: ask for at most ${perCall} steps at a time.`);
          }
          const losses = new Float32Array(count);
          for (let k = 0; k < count; k++) {
            losses[k] = lm.call('train_step', { trainer: id }).loss;
            done++;
          }
          return losses;
        },
        dispose() {
          if (!freed && !disposed) lm.call('trainer_free', { trainer: id });
          freed = true;
        },
      };
    },
    /**
     * Trains this model in place on text (a trainer run to its end): onStep({step, loss}) after every step
     * (it may return a promise, which is awaited). Resolves to the losses (Float32Array, nats per character).
     * The event loop gets a turn after every step (a page stays responsive); options.signal stops the run before
     * its next step, rejecting with the signal's reason (the steps taken so far stay in the weights).
     */
    async train(text, options) {
      const { steps, batch, lr, warmup, repeatFraction, seed, onStep, signal } = readOptions(options, 'train',
        { steps: 100, batch: 8, lr: 1e-3, warmup: 10, repeatFraction: 0, seed: 1, onStep: undefined, signal: undefined }, AttentionError);
      if (onStep !== undefined && typeof onStep !== 'function') throw new AttentionError('train: onStep must be a function.');
      signalOption(signal, 'train', AttentionError);
      const run = model.trainer(text, { steps, batch, lr, warmup, repeatFraction, seed });
      const losses = new Float32Array(steps);
      try {
        for (let k = 0; k < steps; k++) {
          signal?.throwIfAborted();
          losses[k] = run.step(1)[0];
          await onStep?.({ step: k + 1, loss: losses[k] });
          await nextTurn();
        }
      } finally {
        run.dispose();
      }
      return losses;
    },
    /** The weights as a safetensors file (F32). */
    save() {
      live();
      const { bytes: size, at } = call('save');
      return new Uint8Array(lm.HEAPU8.buffer, at, size).slice();
    },
    /**
     * Diagnostics: bytes malloc has handed out in the model module's heap (every model of it), and the heap's size,
     * which a call never grows past its budget (lm_bounds' memory) and which never shrinks.
     */
    memory() {
      return { heapInUse: lm._attn_heap_in_use(), heapSize: lm.HEAPU8.buffer.byteLength };
    },
    /** The operations the module's one call (attn_call) takes: its core's table, in alphabetical order. */
    operations() {
      return lm.call('operations').sort();
    },
    /** Frees the model in the wasm heap. */
    dispose() {
      if (!disposed) call('free');
      disposed = true;
    },
  };
  return Object.freeze(model);
}
