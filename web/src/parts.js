// The parts beside the core, each its own wasm module loaded on first use (web/README.md, "Parts"): "vision"
// (the articles' vision blocks), "learn" (gradients, their chain rule, training), "explain" (the
// arithmetic behind a sequence cell, a caption's text) and "fast" (a.attention's streaming kernel, which the
// page runs only for the complexity example's measured paths). A blog post that shows one sequence example
// downloads none of them until a caption first shows a cell's arithmetic (a pointer or focus on a cell, or
// playing the stage). Their exports answer as the core's do (trace_reader.js).

/** The parts a program can load, in the order createAttention loads them (as wasm/parts.json lists them: node_package checks). */
export const PART_NAMES = Object.freeze(['vision', 'learn', 'explain', 'fast']);

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
      throw Object.assign(new AttentionError(`${call} needs the ${name} part, which is not loaded: await a.load("${name}") first.`, 'ERR_ATTN_PART_NOT_LOADED'), { part: name });
    },
    /** Loads a part once (a failed load is tried again next time). */
    load(name, make) {
      if (!PART_NAMES.includes(name)) {
        return Promise.reject(new AttentionError(`load(name): "${String(name).slice(0, 40)}" is not a part; the parts are ${PART_NAMES.join(', ')}.`));
      }
      if (loaded[name]) return Promise.resolve();
      if (!loadPart) return Promise.reject(new AttentionError(`this build of the package cannot load the ${name} part.`));
      // a module that does not load, or is not a part's (a custom loadPart's factory, not its instance): said
      // in a sentence, and tried again next time
      pending[name] ??= Promise.resolve().then(() => loadPart(name)).then((module) => {
        loaded[name] = make(name, module);
      }).catch((error) => {
        pending[name] = null;
        const why = String(error?.message ?? error).split('\n')[0].replace(/\.$/, '');
        throw error instanceof AttentionError ? error : new AttentionError(`the ${name} part could not be loaded: ${why}.`, 'ERR_ATTN_LOAD_FAILED');
      });
      return pending[name];
    },
  };
}
