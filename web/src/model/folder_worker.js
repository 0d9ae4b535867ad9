// The Web Worker of a model you bring (<attention-folder-model>), its own classic script (hf/folder-worker.js,
// web/build-site.mjs): the model folders' module (its wasm beside this script, fetched with streaming
// compilation) and the model run here, and the chosen files are
// read here by range (FileReaderSync), so the weights never pass through the page's main thread and a large
// model's loading never blocks it. The same messages as every worker of the page: in {id, op, args}; out
// {id, result}, {id, error} (the core's sentence) or {id, progress}. Every number comes from the C++ core.
import createHfCore from '../../dist/hf/attention_hf.js';
import { makeModelLoader } from '../lm.js';
import { serveOperations } from '../remote/serve.js';
import { hasRelaxedSimd } from '../relaxed_simd.js';
import { startThreadedModule } from '../threaded_module.js';

class FolderError extends Error {}

/** The one-thread module, bundled in this script, its wasm beside it. */
const oneThread = () => createHfCore({ locateFile: () => new URL('attention_hf.wasm', self.location.href).href });

/** A module from its glue's URL, its wasm beside the glue. */
async function moduleAt(glue) {
  const { default: create } = await import(/* @vite-ignore */ glue);
  return create({ locateFile: (file) => new URL(file, glue).href });
}

/**
 * On a cross-origin-isolated page (scripts/serve.sh serves the site so) the wasm-threads twin beside this folder
 * (assets/hf-threads: its glue, wasm and workers' script), whose linear layers and attention heads are shared
 * between workers with the same numbers, bit for bit; elsewhere, or if it cannot load, the one-thread module. Where
 * the engine runs relaxed SIMD, each one's relaxed twin first (its "relaxed" subfolder: relaxed_simd.js).
 */
async function folderModule() {
  const here = self.location.href;
  const relaxed = hasRelaxedSimd();
  const tries = [];
  if (self.crossOriginIsolated === true && typeof SharedArrayBuffer === 'function') {
    if (relaxed) tries.push([true, () => startThreadedModule(new URL('../hf-threads/relaxed/attention_hf.js', here).href)]);
    tries.push([false, () => startThreadedModule(new URL('../hf-threads/attention_hf.js', here).href)]);
  }
  if (relaxed) tries.push([true, () => moduleAt(new URL('relaxed/attention_hf.js', here).href)]);
  for (const [isRelaxed, start] of tries) {
    try {
      return Object.assign(await start(), { relaxedSimd: isRelaxed });
    } catch {
      // not in this site: the next one
    }
  }
  return oneThread();
}

const loadModel = makeModelLoader(() => Promise.reject(new FolderError('this worker opens model folders only.')), null, FolderError, folderModule);

let model = null;
/** The last trace, kept: the page asks for one stage at a time (a layer, a head) of the same text. */
let last = { text: null, k: null, trace: null };

/** Lets the last trace go: the stages it did not show are never copied out of the module. */
function forgetTrace() {
  last.trace?.dispose();
  last = { text: null, k: null, trace: null };
}

/** The text's trace, with its k likeliest next tokens from the same pass (one pass a keystroke). */
function traceOf(text, k = 10) {
  if (last.text !== text || last.k !== k) {
    forgetTrace(); // before tracing: a refused trace leaves nothing behind that points at freed stages
    last = { text, k, trace: model.trace(text, { next: k }) };
  }
  return last.trace;
}
function current() {
  if (!model) throw new FolderError('no model folder is open.');
  return model;
}

/** What the page shows of a stage: its shape and numbers, and what it is (the core's words). */
function stageOf(trace, id, layer) {
  const s = trace.stages.find((x) => x.id === id && x.layer === layer);
  if (!s) throw new FolderError(`the trace has no stage "${id}" in layer ${layer === null ? '(global)' : layer + 1}.`);
  return { id: s.id, layer: s.layer, shape: s.shape, data: s.data };
}

const ops = {
  async open(source, post) {
    forgetTrace();
    model?.dispose();
    model = null;
    const started = performance.now();
    model = await loadModel(source, { onProgress: (p) => post({ loaded: p.loaded, total: p.total, file: p.file }) });
    const probe = model.trace(' '); // which stages the architecture has, in trace order
    probe.dispose();
    const { stages } = probe;
    const ids = [...new Set(stages.map((s) => s.id))];
    const globals = [...new Set(stages.filter((s) => s.layer === null).map((s) => s.id))];
    return { about: model.about, ids, globals, facts: model.stageFacts(ids), memory: model.memory(), threads: model.threads, relaxedSimd: model.relaxedSimd, ms: performance.now() - started };
  },
  /** What the page draws of a text: its tokens, the next-token bars and the stage asked for: {tokens, ids, next, stage}. */
  view(text, id, layer, k) {
    current();
    const started = performance.now();
    const t = traceOf(text, k);
    return {
      tokens: t.tokens, ids: t.ids,
      next: t.next,
      stage: stageOf(t, id, layer),
      ms: performance.now() - started,
    };
  },
  /** The last token's pass through the key/value cache: per layer the cache and the new row of weights. */
  step(text, layer) {
    const m = current();
    forgetTrace(); // a step frees the last trace's stages; the next view traces again
    const s = m.step(text);
    const pick = (id) => s.stages.find((x) => x.id === id && x.layer === layer);
    const cache = pick('kv_cache');
    const weights = pick('weights');
    const shown = { tokens: s.tokens, cache: { shape: cache.shape, data: cache.data }, weights: { shape: weights.shape, data: weights.data } };
    s.dispose();
    return shown;
  },
  /** A GPT-2 layer's attention as a spec of the playground's stepper (the core refuses the other architectures). */
  layerSpec: (text, layer) => current().layerSpec(text, layer),
  sample: (text, draw) => current().sample(text, draw),
  generate: (prompt, draw) => current().generate(prompt, draw),
  tokenize: (text) => current().tokenize(text),
  /** Every stage of the text's trace, copied out (el.trace()). */
  trace(text) {
    const t = traceOf(text);
    return { tokens: t.tokens, ids: t.ids, stages: t.stages.map((s) => ({ id: s.id, layer: s.layer, shape: s.shape, data: s.data })) };
  },
  close() {
    forgetTrace();
    model?.dispose();
    model = null;
    return true;
  },
};

// one operation at a time, in the order they came; opening a folder reports its progress
serveOperations(ops, { what: 'the model folder\'s worker', serial: true, run: (op, args, call) => ops[op](...args, call.progress) });
