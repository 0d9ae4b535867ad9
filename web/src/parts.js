// The parts beside the core, each its own wasm module loaded on first use (docs/api.md, "Parts"): "vision"
// (the articles' vision blocks) and "learn" (gradients, their chain rule, training). A blog post that shows
// one sequence example downloads neither. Their exports answer JSON text or null with a sentence
// (wasm/text_answer.hpp); this file wraps them.

/** The parts a program can load, in the order createAttention loads them. */
export const PART_NAMES = Object.freeze(['vision', 'learn']);

const encoder = new TextEncoder();

/**
 * call(name, texts, ...numbers) over a part: the texts as UTF-8 in the part's heap (pointer and byte length
 * each), then the numbers; the answer's text, or refuse(sentence).
 */
export function textCalls(part, refuse) {
  return function call(name, texts, ...numbers) {
    const encoded = texts.map((t) => encoder.encode(t));
    const addresses = [];
    try {
      const args = [];
      for (const bytes of encoded) {
        const at = part._malloc(Math.max(bytes.length, 1));
        if (!at) throw refuse(`out of memory: the spec needs ${Math.ceil(bytes.length / 2 ** 20)} MiB more of this page's memory.`);
        addresses.push(at);
        new Uint8Array(part.HEAPF32.buffer).set(bytes, at); // after each malloc: one may have grown the memory
        args.push(at, bytes.length);
      }
      const answer = part[`_${name}`](...args, ...numbers);
      if (!answer) throw refuse(part.UTF8ToString(part._attn_part_error()));
      return part.UTF8ToString(answer);
    } finally {
      addresses.forEach((at) => part._free(at));
    }
  };
}

/**
 * The loaded parts of one API, and the refusal for a call that needs one not loaded: an AttentionError whose
 * `part` names it, so a caller that can wait (the page's worker) loads it and calls again.
 */
export function partSlots(loadPart, AttentionError) {
  const loaded = {};
  const pending = {};
  return {
    loaded,
    /** The part, or the refusal naming it. */
    need(name, call) {
      const part = loaded[name];
      if (part) return part;
      throw Object.assign(new AttentionError(`${call} needs the ${name} part, which is not loaded: await a.load("${name}") first.`), { part: name });
    },
    /** Loads a part once (a failed load is tried again next time). */
    load(name, make) {
      if (!PART_NAMES.includes(name)) {
        return Promise.reject(new AttentionError(`load(name): "${String(name).slice(0, 40)}" is not a part; the parts are ${PART_NAMES.join(', ')}.`));
      }
      if (loaded[name]) return Promise.resolve();
      if (!loadPart) return Promise.reject(new AttentionError(`this build of the package cannot load the ${name} part.`));
      pending[name] ??= loadPart(name).then(
        (module) => {
          loaded[name] = make(name, module);
        },
        (error) => {
          pending[name] = null;
          throw error instanceof AttentionError ? error : new AttentionError(`the ${name} part could not be loaded (${String(error?.message ?? error).split('\n')[0]}).`);
        },
      );
      return pending[name];
    },
  };
}
