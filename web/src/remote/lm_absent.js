// The one-file element's lm.js (web/build-site.mjs puts this file in its place): its core's worker never
// loads a language model (the model mode is attention-model.js, with its own worker), so the model's API
// (14 KB) stays out of the element's script.
export function makeModelLoader(_createCore, _readModel, AttentionError) {
  const absent = () => Promise.reject(new AttentionError('the one-file element has no language model: use attention-model.js (model mode).'));
  absent.fresh = absent;
  return absent;
}
