// Defines <attention-stepper> and <attention-trainer> (the train mode). One module (or, built, one classic
// script, the train mode's code beside it in attention-stepper.learn.js) per page; every element on the
// page shares one Web Worker running the wasm core (page_core.js).
import { AttentionStepper } from './element.js';
import { AttentionTrainer, defineTrainer } from '../trainer/define.js';
import { pageAttention } from './page_core.js';

// pageAttention rides along so a page with only the one-file script can ask the core's facts too
// (site/docs.html lists the stage ids from it): the elements' shared core, computing in its worker.
export { AttentionStepper, AttentionTrainer, pageAttention };

function define() {
  if (!customElements.get('attention-stepper')) customElements.define('attention-stepper', AttentionStepper);
  // the train mode: a post can embed <attention-trainer lesson="alignment"> (in the one-file script its code
  // rides in the learn part's script, loaded when the page first has one: ../remote/trainer_beside.js)
  defineTrainer();
}

// A page's elements are upgraded in a task of their own, after the one that compiled this script (about
// 1 MB with the core's worker inlined): both in one task came near 100 ms on a slow machine.
if (typeof customElements !== 'undefined') {
  if (typeof document !== 'undefined' && document.currentScript) setTimeout(define, 0);
  else define();
}
