// The friendly API over the Embind module: one place for both entry points (node.js, index.js).
// Nothing here computes attention: every number comes from the C++ core's trace.

/** The package version (kept equal to package.json by a test). */
export const version = '0.1.0';

/** Every stage id, in trace order (DESIGN.md). */
export const stageIds = Object.freeze([
  'pe', 'x', 'memory', 'q', 'k', 'v', 'scores', 'scaled', 'masked',
  'row_max', 'exp', 'row_sum', 'weights', 'context', 'concat', 'output',
]);

/** A spec the core refused, or a call made wrongly; `message` is one sentence naming the field. */
export class AttentionError extends Error {
  constructor(message) {
    super(message);
    this.name = 'AttentionError';
  }
}

function deepFreeze(value) {
  if (value && typeof value === 'object') {
    Object.values(value).forEach(deepFreeze);
    Object.freeze(value);
  }
  return value;
}

/**
 * Walks a spec once: the first NaN or ±Infinity (JSON would silently turn it into null) with its
 * path, e.g. ".x[0][1]", and whether any typed arrays need converting. The path is only spelled
 * out for the value that is refused.
 */
function inspect(value, seen) {
  if (typeof value === 'number') return Number.isFinite(value) ? null : { path: '', value };
  const typed = ArrayBuffer.isView(value);
  if (typed || Array.isArray(value)) {
    if (typed) seen.typed = true;
    for (let i = 0; i < value.length; i++) {
      const found = inspect(value[i], seen);
      if (found) return { path: `[${i}]${found.path}`, value: found.value };
    }
  } else if (value && typeof value === 'object') {
    for (const key of Object.keys(value)) {
      const found = inspect(value[key], seen);
      if (found) return { path: `.${key}${found.path}`, value: found.value };
    }
  }
  return null;
}

/** Typed arrays are welcome as rows; JSON.stringify would write them as {"0": …} objects. */
function typedArraysAsLists(_key, value) {
  return ArrayBuffer.isView(value) ? Array.from(value) : value;
}

function specText(spec) {
  if (typeof spec === 'string') return spec;
  if (!spec || typeof spec !== 'object' || Array.isArray(spec)) {
    throw new AttentionError('the spec must be an object (or JSON text) with at least "x".');
  }
  const seen = { typed: false };
  const bad = inspect(spec, seen);
  if (bad) throw new AttentionError(`${bad.path.slice(1)} is ${bad.value}, not a finite number.`);
  return seen.typed ? JSON.stringify(spec, typedArraysAsLists) : JSON.stringify(spec); // a replacer is slow
}

/**
 * Wraps an instantiated Embind module (see wasm/bindings.cpp) in the package's API.
 * @param {object} core the module from createAttentionCore()
 */
export function makeApi(core) {
  // stage titles and explanations are the same in every trace: read them once
  const stageText = new Map(JSON.parse(core.stagesJson()).map((s) => [s.id, deepFreeze(s)]));
  const examplesJson = core.examplesJson();
  const exampleIds = new Set(JSON.parse(examplesJson).map((e) => e.id));
  const documents = new Map(); // example id -> its texts, read from the core once

  function exampleDocument(id) {
    if (!documents.has(id)) documents.set(id, deepFreeze(JSON.parse(core.exampleDocumentJson(id))));
    return documents.get(id);
  }

  /** The stage lines of a result ("id\tformula\tshape\toffset\tsize") as objects without data. */
  function layoutOf(result) {
    return result.stages.split('\n').filter(Boolean).map((line) => {
      const [id, formula, shape, offset, size] = line.split('\t');
      return { id, formula, shape: shape.split(',').map(Number), offset: Number(offset), size: Number(size) };
    });
  }

  /** A trace from a layout and the one Float32Array (JS owns it; each stage views its part). */
  function build(layout, specText, data) {
    const trace = { spec: JSON.parse(specText), stages: null };
    const maskLine = layout.find((s) => s.id === 'mask');
    if (maskLine) {
      trace.mask = { shape: maskLine.shape.slice(), data: Uint8Array.from(data.subarray(maskLine.offset, maskLine.offset + maskLine.size)) };
    }
    trace.stages = layout.filter((s) => s !== maskLine).map((s) => {
      const text = stageText.get(s.id);
      return {
        id: s.id,
        title: text.title,
        title_zh: text.title_zh,
        formula: s.formula,
        explain: text.explain,
        shape: s.shape.slice(),
        data: data.subarray(s.offset, s.offset + s.size),
      };
    });
    return trace;
  }

  function check(result) {
    if (result.error !== undefined) throw new AttentionError(result.error);
    return result;
  }

  const exampleLayouts = new Map(); // "id\nvariant" -> {layout, spec}: the same on every call

  return Object.freeze({
    version,
    stageIds,
    /** Every stage of one attention computation for a spec (object or JSON text). */
    trace(spec) {
      const result = check(core.traceResult(specText(spec)));
      return build(layoutOf(result), result.spec, result.data);
    },
    /** The trace of a worked example, optionally one of its variants. */
    example(id, variant = '') {
      if (typeof id !== 'string' || typeof variant !== 'string') {
        throw new AttentionError('example(id, variant) takes strings, e.g. example("bank", "finance").');
      }
      const key = `${id}\n${variant}`;
      const known = exampleLayouts.get(key);
      const result = check(core.exampleResult(id, variant, !known)); // refuses unknown ids and variants
      if (!known) exampleLayouts.set(key, { layout: layoutOf(result), spec: result.spec });
      const { layout, spec } = exampleLayouts.get(key);
      const trace = build(layout, spec, result.data);
      trace.example = exampleIds.has(id) ? exampleDocument(id) : undefined;
      trace.variant = variant;
      return trace;
    },
    /** The worked examples' ids, in DESIGN.md's order: each one is a valid example(id). */
    examples() {
      return [...exampleIds];
    },
    /** The worked examples with their titles and sources in English and Chinese, and their variant ids. */
    catalog() {
      return JSON.parse(examplesJson);
    },
    /** Diagnostics: bytes in use on the wasm heap, and the heap's size. */
    memory() {
      return { heapInUse: core.heapInUse(), heapSize: core.HEAPF32.buffer.byteLength };
    },
  });
}
