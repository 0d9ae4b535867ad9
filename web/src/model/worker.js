// The model mode's Web Worker: the language model's wasm module (its wasm inlined by the bundle) and the
// models run here, so the page's main thread only draws (typing, pasting and generating never block it).
// Messages in: {id, op, args}; out: {id, result} or {id, error} (the core's sentence). Every number
// comes from the C++ core through web/src/lm.js; nothing here computes the model.
import createLmCore from '../../dist/lm/attention_lm.js';
import { makeModelLoader } from '../lm.js';
import { LESSON } from './lesson.js';
import { UnpackError, unpackWasm } from './unpack_wasm.js';
import { serveOperations } from '../remote/serve.js';

class ModelError extends Error {}

// the module's bytes come from the page with the worker's first message (client.js), packed: a string in the
// model mode's script, not a file beside it (a page saved to disk has none to fetch); unpacked here
let wasmArrived;
const wasmBinary = new Promise((resolve) => { wasmArrived = resolve; });
// a damaged string's refusal is the first load's answer; it arrives a message before that load awaits it, and
// unmarked it would also be reported as an uncaught rejection in the worker (the page's console error)
wasmBinary.catch(() => {});
const loadModel = makeModelLoader(async () => createLmCore({ wasmBinary: await wasmBinary }),
  () => Promise.reject(new Error('bytes are sent by the page')), ModelError);

let lesson = null; // the induction lesson's {model, run} (lesson.js)
const models = new Map(); // name -> the promise of its model (two loads of one name share it)

/** The last view's trace: the block's stages are read from it rather than traced again. */
let last = { name: null, text: null, trace: null };
/** Drops the kept trace when it is of model `name` (its weights have changed). */
function forgetTrace(name) {
  if (last.name === name) last = { name: null, text: null, trace: null };
}
function traceOf(name, text) {
  if (last.name !== name || last.text !== text) last = { name, text, trace: m(name).trace(text) };
  return last.trace;
}

/**
 * What the page draws of a text: tokens, unknown, per layer the weights (h × n × n), the top next characters with
 * where each one's logit comes from, every head's scores on this text and on the probes, the logit lens, and the
 * distribution sampling draws from with `draw` ({temperature, topK, topP, seed}).
 */
function view(name, text, k, draw) {
  const started = performance.now();
  const t = traceOf(name, text);
  const model = m(name);
  const weights = t.stages.filter((s) => s.id === 'weights').map((s) => s.data);
  return {
    tokens: t.tokens, ids: t.ids, unknown: t.unknown, weights,
    next: model.attribution(text, k), // [{char, p, logit, heads, parts}]: the sources of each candidate's logit
    heads: model.heads(text), // [{layer, head, probe: {…}, text: {…}}]: what each head does, on the probes and on this text
    lens: model.lens(text, 5), // what each layer predicts
    sample: draw ? model.sample(text, { ...draw, k }) : null, // after the temperature, top-k and top-p; the seed's draw
    lines: model.lineTargets(text), // the line-alignment pattern, for the overlay
    ms: performance.now() - started, // the work of one keystroke, for the page's benchmark
  };
}

const ops = {
  async load(name, bytes) {
    if (!models.has(name)) {
      models.set(name, loadModel(bytes).catch((error) => {
        models.delete(name); // a failed load is not kept: the next one tries again
        throw error;
      }));
    }
    const model = await models.get(name);
    loaded.set(name, model);
    return { about: model.about, heads: model.heads() };
  },
  view,
  explain: (name, text, id, cell) => m(name).explain(text, id, cell),
  layerSpec: (name, text, layer) => m(name).layerSpec(text, layer),
  layerGrad: (name, text, layer) => m(name).layerGrad(text, layer),
  /** Each head's line-alignment score on this text (the core's detector): [{layer, head, score}]. */
  lineScores: (name, text) => m(name).heads(text).filter((x) => x.text.line_alignment !== undefined)
    .map((x) => ({ layer: x.layer, head: x.head, score: x.text.line_alignment })),
  /** The distribution sampling draws from on this text, and the seed's draw (m.sample). */
  sample: (name, text, draw, k) => m(name).sample(text, { ...draw, k }),
  /** The model trace of a text, as m.trace gives it (every stage's data copied out): el.trace(). */
  trace: (name, text) => {
    const t = traceOf(name, text);
    return {
      tokens: t.tokens, ids: t.ids, unknown: t.unknown,
      stages: t.stages.map((s) => ({ id: s.id, layer: s.layer, shape: s.shape, symbol: s.symbol, title: s.title, scale: s.scale, data: s.data })),
    };
  },
  /** The k likeliest next characters as sampling draws them (m.next with the draw's options): el.next(k). */
  next: (name, text, k, draw) => m(name).next(text, k, { temperature: draw.temperature, topK: draw.topK, topP: draw.topP }),
  /**
   * One layer's block as the residual stream meets it (LayerNorms, the attention's output, residual sums, MLP):
   * the stages the core's registry marks as the block's (m.stages(): block), in trace order.
   */
  block(name, text, layer) {
    const model = m(name);
    const rows = new Map(model.stages().filter((st) => st.block).map((st) => [st.id, st]));
    return traceOf(name, text).stages.filter((s) => s.layer === layer && rows.has(s.id)).map((s) => {
      const { formula, explain } = rows.get(s.id); // what the stage is, in the registry's words
      return { id: s.id, shape: s.shape, symbol: s.symbol, title: s.title, scale: s.scale, formula, explain, data: s.data };
    });
  },
  /** What each of the block's stages is, in the registry's words: [{id, symbol, title: {en, zh}, explain: {en, zh}}] in registry order. */
  blockFacts: (name) => m(name).stages().filter((st) => st.block)
    .map((st) => ({ id: st.id, symbol: st.symbol, title: { en: st.title, zh: st.title_zh }, explain: st.explain })),
  generate: (name, prompt, options) => m(name).generate(prompt, options),
  /**
   * The last character of text as one generation step (m.step: the earlier characters' keys and values kept
   * in the cache): per layer its new row of weights (h × 1 × n) and the cache's shape (2 × h × n × d_h).
   */
  kvRow: (name, text) => m(name).step(text).stages.filter((st) => st.id === 'weights' || st.id === 'kv_cache')
    .map((st) => ({ id: st.id, layer: st.layer, shape: st.shape, data: st.id === 'weights' ? st.data : null })),
  /** A fresh lesson model (under the name "lesson") from fortune-format text: {about, heads, steps}. */
  async lessonStart(corpus, seed) {
    lesson?.run.dispose();
    lesson?.model.dispose();
    const model = await loadModel.fresh(corpus, { ...LESSON.shape, seed });
    const run = model.trainer(model.trainingText, { ...LESSON.training, seed });
    lesson = { model, run };
    loaded.set('lesson', model);
    forgetTrace('lesson');
    return { about: model.about, heads: model.heads(), steps: LESSON.training.steps };
  },
  /** Up to count steps, stopping after budgetMs: {losses, done, heads} (the head scores after the last step). */
  lessonTrain(count, budgetMs) {
    if (!lesson) throw new ModelError('the lesson has not started.');
    const started = performance.now();
    const losses = [];
    while (losses.length < count && lesson.run.done < LESSON.training.steps && performance.now() - started < budgetMs) losses.push(lesson.run.step(1)[0]);
    forgetTrace('lesson'); // new weights: the kept trace is stale
    return { losses, done: lesson.run.done, heads: lesson.model.heads() };
  },
};

const loaded = new Map(); // name -> model, once its load has finished
function m(name) {
  const model = loaded.get(name);
  if (!model) throw new ModelError(`the ${name} model is not loaded.`);
  return model;
}

/** The module's bytes from the packed string; a damaged one is named (the script cut short or changed). */
function unpacked(wasm) {
  try {
    return unpackWasm(wasm);
  } catch (error) {
    throw error instanceof UnpackError ? new ModelError(`attention-model.js is damaged (${error.message}); copy it again.`) : error;
  }
}

// one operation at a time, in the order they came: a call posted while a model loads (the page's client posts
// the loads again to a new worker, then the call that started it: client.js) waits for the load; the module's
// bytes come first, packed (a refusal reaches the first load)
serveOperations(ops, {
  what: 'the model\'s worker',
  serial: true,
  other: (data) => data?.wasm !== undefined && (wasmArrived(Promise.resolve(data.wasm).then(unpacked)), true),
});
