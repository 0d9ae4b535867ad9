// Models you bring (docs/models-you-bring.md): a Hugging Face model folder (GPT-2, Llama, Qwen2) opened in its
// own module (dist/hf) through the module's one entry, attn_call(operation, request, payload). The files stay here, in
// JavaScript: the core reads each range it needs (a header, then one tensor at a time) through
// hf.readModelFile, so a lying header is refused before anything behind it is read and the weights are copied
// once, into the model. Every number comes from the C++ core; nothing here computes the model.
//
// [SECTION] the files: bytes, File objects, a folder's URL
// [SECTION] a model's calls

import { shortText, wholeNumber } from './args.js';
import { bodyBytes } from './fetch_bytes.js';
import { operationCall } from './trace_reader.js';

// [SECTION] the files: bytes, File objects, a folder's URL

/** A Uint8Array over bytes given as a Uint8Array or an ArrayBuffer; null for anything else. */
function asBytes(x) {
  if (x instanceof Uint8Array) return x;
  if (x instanceof ArrayBuffer) return new Uint8Array(x);
  if (ArrayBuffer.isView(x)) return new Uint8Array(x.buffer, x.byteOffset, x.byteLength);
  return null;
}

/** A file the core reads by range: {name, size, read(offset, n) → Uint8Array}. */
function bytesFile(name, bytes) {
  return { name, size: bytes.length, read: (offset, n) => bytes.subarray(offset, offset + n) };
}

/**
 * A Blob or File read by range. In a worker FileReaderSync reads just the range asked for (the weights never sit
 * in JavaScript whole); elsewhere the bytes are read first (prepare()).
 */
function blobFile(name, blob) {
  let whole = null;
  return {
    name, size: blob.size,
    async prepare() {
      if (typeof FileReaderSync === 'undefined') whole = new Uint8Array(await blob.arrayBuffer());
    },
    read(offset, n) {
      if (whole) return whole.subarray(offset, offset + n);
      return new Uint8Array(new FileReaderSync().readAsArrayBuffer(blob.slice(offset, offset + n)));
    },
  };
}

/** The base name of a path ("gpt2/config.json" → "config.json"): a chosen folder's files carry their folder. */
const baseName = (path) => String(path).split(/[\\/]/).pop();

/**
 * The files of a source: {config, weights, tokenizer} (bytes; weights or tokenizer may be {name: bytes} for shards
 * or GPT-2's vocab.json + merges.txt; config may be the parsed object), or {files} (an array of File objects, as an
 * <input webkitdirectory> gives them, or {name: bytes | Blob}).
 */
function filesOf(source, AttentionError) {
  const out = [];
  const add = (name, value, what) => {
    const bytes = asBytes(value);
    if (bytes) return out.push(bytesFile(name, bytes));
    if (typeof Blob !== 'undefined' && value instanceof Blob) return out.push(blobFile(name, value));
    throw new AttentionError(`loadModel: ${what} must be bytes (a Uint8Array or an ArrayBuffer)${typeof Blob !== 'undefined' ? ' or a File' : ''}.`);
  };
  const addNamed = (group, what) => {
    for (const [name, value] of Object.entries(group)) add(baseName(name), value, `${what}["${shortText(name)}"]`);
  };
  if (source.files !== undefined) {
    const files = source.files;
    if (Array.isArray(files) || (typeof FileList !== 'undefined' && files instanceof FileList)) {
      for (const f of files) add(baseName(f?.webkitRelativePath || f?.name), f, 'each of files');
    } else if (files && typeof files === 'object') addNamed(files, 'files');
    else throw new AttentionError('loadModel: files must be an array of File objects or {name: bytes}.');
    return out;
  }
  const { config, weights, tokenizer } = source;
  if (config === undefined || weights === undefined || tokenizer === undefined) {
    throw new AttentionError('loadModel: a model folder is {config, weights, tokenizer} (bytes of config.json, model.safetensors and tokenizer.json), {files} or its URL.');
  }
  if (config && typeof config === 'object' && !asBytes(config) && !(typeof Blob !== 'undefined' && config instanceof Blob)) {
    out.push(bytesFile('config.json', new TextEncoder().encode(JSON.stringify(config))));
  } else add('config.json', config, 'config');
  if (asBytes(weights) || (typeof Blob !== 'undefined' && weights instanceof Blob)) add('model.safetensors', weights, 'weights');
  else if (weights && typeof weights === 'object') addNamed(weights, 'weights');
  else add('model.safetensors', weights, 'weights');
  if (asBytes(tokenizer) || (typeof Blob !== 'undefined' && tokenizer instanceof Blob)) add('tokenizer.json', tokenizer, 'tokenizer');
  else if (tokenizer && typeof tokenizer === 'object') addNamed(tokenizer, 'tokenizer');
  else add('tokenizer.json', tokenizer, 'tokenizer');
  return out;
}

/** A folder served over http(s): its files fetched (a missing optional one is skipped), with progress over the bytes. */
async function fetchFolder(url, { signal, onProgress }, AttentionError) {
  const base = new URL(String(url).endsWith('/') ? String(url) : `${url}/`, globalThis.location?.href);
  let loaded = 0;
  const get = async (name, optional) => {
    let response;
    try {
      response = await fetch(new URL(name, base), { signal });
    } catch (error) {
      signal?.throwIfAborted();
      throw new AttentionError(`the model folder ${shortText(base.href)} could not be read (${shortText(String(error?.message ?? error))}).`, 'ERR_ATTN_LOAD_FAILED');
    }
    if (!response.ok) {
      if (optional) return null;
      throw new AttentionError(`the model folder ${shortText(base.href)} has no ${name} (HTTP ${response.status}).`, 'ERR_ATTN_LOAD_FAILED');
    }
    const bytes = await bodyBytes(response, (_, chunk) => {
      loaded += chunk;
      onProgress?.({ loaded, total: 0, file: name });
    });
    return bytesFile(name, bytes);
  };
  const files = [await get('config.json')];
  const tokenizer = await get('tokenizer.json', true);
  if (tokenizer) files.push(tokenizer);
  else files.push(await get('vocab.json'), await get('merges.txt'));
  const index = await get('model.safetensors.index.json', true);
  if (index) {
    files.push(index);
    let shards;
    try {
      shards = [...new Set(Object.values(JSON.parse(new TextDecoder().decode(index.read(0, index.size))).weight_map ?? {}))];
    } catch {
      shards = []; // the core names what is wrong with the index
    }
    for (const shard of shards) if (typeof shard === 'string' && !/[\\/]|^\.\.?$/.test(shard)) files.push(await get(shard));
  } else files.push(await get('model.safetensors'));
  return { files, where: `the model folder ${base.href}` };
}

// [SECTION] a model's calls

/**
 * Opens a model folder in the module `hf`: source is {config, weights, tokenizer}, {files} or a folder's URL.
 * options {signal, onProgress({loaded, total, file})}.
 */
export async function openModelFolder(hf, source, { signal, onProgress } = {}, AttentionError) {
  const call = (hf.callOne ??= operationCall(hf, (sentence) => new AttentionError(sentence)));
  let files;
  let where = 'the files given';
  if (typeof source === 'string' || (typeof URL !== 'undefined' && source instanceof URL)) ({ files, where } = await fetchFolder(source, { signal, onProgress }, AttentionError));
  else files = filesOf(source, AttentionError);
  for (const f of files) await f.prepare?.();
  signal?.throwIfAborted();
  const total = files.reduce((n, f) => n + f.size, 0);
  let read = 0;
  let failure = null;
  hf.readModelFile = (index, offset, n) => {
    try {
      const bytes = files[index].read(offset, n);
      read += n;
      onProgress?.({ loaded: read, total, file: files[index].name });
      return bytes;
    } catch (error) {
      failure = error;
      return null; // the core refuses in its sentence; nothing thrown crosses its frames
    }
  };
  let opened;
  try {
    opened = call('open', { files: files.map((f) => ({ name: f.name, size: f.size })), where });
  } catch (error) {
    if (failure && error instanceof AttentionError) error.message += ` (${shortText(String(failure?.message ?? failure))})`;
    throw error;
  } finally {
    hf.readModelFile = null;
  }
  return wrapFolderModel(hf, call, opened, AttentionError);
}

/** The API of an opened folder's model. */
function wrapFolderModel(hf, call, { handle, about, threads }, AttentionError) {
  const facts = new Map();
  // the last trace's stages not read yet, of any model of this module: the core keeps one trace, until the next
  // trace, step or free (model_call.cpp)
  const unread = (hf.unreadStages ??= new Set());
  let disposed = false;
  const live = () => {
    if (disposed) throw new AttentionError('this model was disposed of.', 'ERR_ATTN_DISPOSED');
  };
  /** Copies every stage of the last trace not read yet, before a call that frees them. */
  const keepUnread = () => {
    for (const copy of unread) copy();
    unread.clear();
  };
  const ask = (operation, request) => {
    live();
    if (operation === 'trace' || operation === 'step') keepUnread();
    return call(operation, { handle, ...request });
  };
  const text = (t, name = 'the text') => {
    if (typeof t !== 'string') throw new AttentionError(`${name} must be a string.`);
    if (!t.isWellFormed()) throw new AttentionError(`${name} holds a lone UTF-16 surrogate (half of a character), which is not valid Unicode.`);
    return t;
  };
  const draw = (o = {}) => {
    if (o === null || typeof o !== 'object') throw new AttentionError('the options must be an object such as {temperature, topK, topP, seed}.');
    const r = {};
    if (o.temperature !== undefined) r.temperature = o.temperature;
    if (o.topK !== undefined) r.top_k = o.topK;
    if (o.topP !== undefined) r.top_p = o.topP;
    if (o.seed !== undefined) r.seed = o.seed;
    if (o.n !== undefined) r.n = o.n;
    return r;
  };
  /**
   * A trace's stages with their data copied out of the heap when first read (or, unread, before the core frees
   * them); its dispose() says the stages not read yet are not wanted: they are never copied.
   */
  const readTrace = (answer) => {
    const copies = [];
    let released = false;
    const stages = answer.stages.map(({ id, layer, shape, at }) => {
      const size = shape.reduce((a, b) => a * b, 1);
      let data = null;
      const copy = () => (data ??= hf.HEAPF32.slice(at, at + size));
      unread.add(copy);
      copies.push(copy);
      return {
        id, layer, shape,
        get data() {
          if (released && data === null) throw new AttentionError('this trace was disposed of: its stages not read before are gone.', 'ERR_ATTN_DISPOSED');
          unread.delete(copy);
          return copy();
        },
      };
    });
    const dispose = () => {
      released = true;
      for (const copy of copies) unread.delete(copy);
    };
    const out = { tokens: answer.tokens, ids: answer.ids, stages, dispose };
    if (answer.next) out.next = answer.next;
    return out;
  };
  /** {next: k}: the k likeliest next tokens asked of the same pass as the trace. */
  const nextOption = (o) => {
    if (o === undefined) return {};
    if (o === null || typeof o !== 'object') throw new AttentionError('the trace\'s options must be an object such as {next: 10}.');
    if (o.next === undefined) return {};
    wholeNumber(o.next, 'next', 1, about.n_vocab, AttentionError);
    return { k: o.next };
  };
  return {
    /** {architecture, dtype, n_layer, n_head, n_kv_head, d_model, d_head, d_mlp, n_ctx, n_vocab, tokenizer_size, tied, rope_theta, weight_bytes} */
    get about() { return about; },
    /** How many threads its passes share: 1, or the wasm-threads module's workers and the calling thread. */
    get threads() { return threads; },
    /** Whether its linear layers multiply and add in WebAssembly's relaxed SIMD (fused where the CPU has FMA). */
    get relaxedSimd() { return hf.relaxedSimd === true; },
    /** {ids, tokens (as a reader sees them: a character split into byte pieces shown as "锅(1/2)"), pieces} */
    tokenize: (t) => ask('tokenize', { text: text(t) }),
    /**
     * Every stage of every layer: {tokens, ids, stages: [{id, layer (0-based, null for a global stage), shape, data}]};
     * with {next: k}, next too: the k likeliest next tokens ({id, token, p}) from the same pass, as next(text, k) gives them.
     */
    trace: (t, options) => readTrace(ask('trace', { text: text(t), ...nextOption(options) })),
    /** The last token's pass through the key/value cache the others filled: per layer kv_cache (2 × kv heads × n × d_head). */
    step: (t) => readTrace(ask('step', { text: text(t) })),
    /** The k likeliest next tokens, [{id, token, p}]; with {temperature, topK, topP}, after them. */
    next(t, k = 10, options = undefined) {
      wholeNumber(k, 'k', 1, about.n_vocab, AttentionError);
      return ask('next', { text: text(t), k, ...draw(options) });
    },
    /** {candidates: [{id, token, temperature, top_k, top_p}], pick}: the distribution after each step of sampling and the seed's draw. */
    sample(t, options = {}) {
      const k = options?.k ?? 10;
      wholeNumber(k, 'k', 1, about.n_vocab, AttentionError);
      return ask('sample', { text: text(t), k, ...draw(options) });
    },
    /** n new tokens after prompt through the key/value cache: {ids, tokens, text}. The same seed, the same tokens. */
    generate: (prompt, options = {}) => ask('generate', { prompt: text(prompt, 'the prompt'), ...draw({ n: 20, ...options }) }),
    /**
     * A GPT-2 layer's attention (0-based) as a spec of the playground's stepper: its LayerNorm's rows as x, the layer's
     * projections, heads, scaled dot, causal, the tokens as labels; a.trace(spec) gives the model's own numbers.
     * Refused for a Llama or Qwen2 layer (the stepper has no rotary positions or shared key/value heads yet).
     */
    layerSpec(t, layer = 0) {
      wholeNumber(layer, 'layer', 0, about.n_layer - 1, AttentionError);
      return ask('layer_spec', { text: text(t), layer });
    },
    /** What each stage id is, in the page's words: {id: {id, symbol, title: {en, zh}, explain, formula}}. */
    stageFacts(ids) {
      const missing = ids.filter((id) => !facts.has(id));
      if (missing.length) for (const [id, f] of Object.entries(ask('stages', { ids: missing }))) facts.set(id, f);
      return Object.fromEntries(ids.map((id) => [id, facts.get(id)]));
    },
    /** The names of the module's operations, in alphabetical order: the core's table (index.d.ts's FolderOperation is checked against it). */
    operations: () => call('operations').sort(),
    /** The module's memory (every model opened in it): {heapInUse, heapMax} in bytes. */
    memory() {
      const { heap_in_use_bytes: heapInUse, heap_max_bytes: heapMax } = call('limits');
      return { heapInUse, heapMax };
    },
    /** Gives the model's memory back to the module. */
    dispose() {
      if (disposed) return;
      keepUnread();
      call('free', { handle });
      disposed = true;
    },
  };
}
