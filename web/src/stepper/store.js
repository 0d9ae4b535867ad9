// A small state store: one object, replaced field by field, with subscribers told what changed.

/**
 * @typedef {object} StepperState
 * @property {string} exampleId   '' for an author's own spec
 * @property {string} variant
 * @property {object|null} spec    the spec being shown (edited or not)
 * @property {boolean} edited      spec differs from the example's
 * @property {object|null} trace   the last good trace (kept when an edit is refused)
 * @property {{field: string, message: string}|null} error
 * @property {'en'|'zh'} lang
 * @property {number} stageIndex
 * @property {number} progress     0…1 through the current stage's animation
 * @property {boolean} playing
 * @property {number} speed
 * @property {number} head
 * @property {'matrix'|'lines'|null} view  how the weights stage is drawn; null: as the example prefers
 * @property {boolean} editing
 */

/** @param {StepperState} initial */
export function createStore(initial) {
  let state = { ...initial };
  const listeners = new Set();
  return {
    get: () => state,
    /** Merges patch; subscribers get (state, changedKeys). */
    set(patch) {
      const changed = Object.keys(patch).filter((k) => !Object.is(state[k], patch[k]));
      if (!changed.length) return;
      state = { ...state, ...patch };
      for (const fn of listeners) fn(state, new Set(changed));
    },
    subscribe(fn) {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
  };
}
