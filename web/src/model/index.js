// Defines <attention-model>: the model mode (site/model.html), and the same view for a post. Built into one
// classic script (site/assets/attention-model.js) with its Web Worker and the model's wasm inlined; the
// weights load from models/zh.js or models/en.js beside it, only when a model is shown.
import { AttentionModel } from './element.js';
import { AttentionInduction } from './induction.js';

export { AttentionModel, AttentionInduction };

if (typeof customElements !== 'undefined' && !customElements.get('attention-model')) {
  customElements.define('attention-model', AttentionModel);
}
// the train mode's induction lesson (train.html?lesson=induction) trains a fresh model in the same worker
if (typeof customElements !== 'undefined' && !customElements.get('attention-induction')) {
  customElements.define('attention-induction', AttentionInduction);
}
