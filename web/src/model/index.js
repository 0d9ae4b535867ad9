// Defines <attention-model>: the model mode (site/model.html), and the same view for a post. Built into one
// classic script (site/assets/attention-model.js) with its Web Worker and the model's wasm inlined; the
// weights load from models/zh.js or models/en.js beside it, only when a model is shown.
import { AttentionModel } from './element.js';
import { AttentionFolderModel } from './folder_element.js';
import { AttentionInduction } from './induction.js';

export { AttentionModel, AttentionInduction, AttentionFolderModel };

// the elements in the order they use each other: defining <attention-model> upgrades the page's elements at
// once, and one opened on model.html?model=URL makes an <attention-folder-model> in that same call
const elements = [
  ['attention-folder-model', AttentionFolderModel], // a model you bring (a Hugging Face folder): "Open a model…"
  ['attention-induction', AttentionInduction], // the train mode's induction lesson (train.html?lesson=induction)
  ['attention-model', AttentionModel],
];
for (const [name, element] of elements) {
  if (typeof customElements !== 'undefined' && !customElements.get(name)) customElements.define(name, element);
}
