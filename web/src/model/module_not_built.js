// Stands in for the Emscripten glue of a module the model mode loads (dist/lm/attention_lm.js, dist/hf/attention_hf.js)
// while it is not built yet: scripts/serve.sh serves the pages first and links those modules behind them
// (web/build-site.mjs uses this file only then). The model mode's page says the model is still being built and
// reloads once it is (model/assets.js).
export default function createNotBuilt() {
  return Promise.reject(new Error('this module is not built yet: the page reloads itself when it is.'));
}
