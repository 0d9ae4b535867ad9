// Defines <attention-stepper> and <attention-trainer> (the train mode). One module (or, built, one classic script) per page; every
// element on the page shares one wasm instance through createAttention().
import { createAttention } from '../index.js';
import { AttentionStepper } from './element.js';
import { AttentionTrainer } from '../trainer/element.js';

// createAttention rides along so a page with only the one-file script can ask the core too
// (site/docs.html lists the stage ids from it); it returns the element's shared instance.
export { AttentionStepper, AttentionTrainer, createAttention };

if (typeof customElements !== 'undefined' && !customElements.get('attention-stepper')) {
  customElements.define('attention-stepper', AttentionStepper);
}
// the train mode rides in the same script: a post can embed <attention-trainer lesson="alignment">
if (typeof customElements !== 'undefined' && !customElements.get('attention-trainer')) {
  customElements.define('attention-trainer', AttentionTrainer);
}
