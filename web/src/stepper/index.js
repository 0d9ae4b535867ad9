// Defines <attention-stepper>. One module (or, built, one classic script) per page; every
// element on the page shares one wasm instance through createAttention().
import { AttentionStepper } from './element.js';

export { AttentionStepper };

if (typeof customElements !== 'undefined' && !customElements.get('attention-stepper')) {
  customElements.define('attention-stepper', AttentionStepper);
}
