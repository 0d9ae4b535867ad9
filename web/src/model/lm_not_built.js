// Stands in for the language model's Emscripten glue (dist/lm/attention_lm.js) while it is not built yet:
// scripts/serve.sh serves the pages first and links that module behind them (web/build-site.mjs uses this file
// only then). The model mode's page says the model is still being built and reloads once it is (model/assets.js).
export default function createLmCore() {
  return Promise.reject(new Error('the language model\'s module is not built yet.'));
}
