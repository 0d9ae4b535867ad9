// Defines <attention-stepper> now and <attention-trainer> once the page has one (its code fetched then:
// ../trainer/define.js). The entry of the site's scripts, the ES modules served over http(s) and the classic
// bundle for a post saved to disk (web/build-site.mjs); the package's ./stepper entry (index.js) adds the
// trainer's class. Every element on the page shares one Web Worker running the wasm core (page_core.js).
import { AttentionStepper } from './element.js';
import { defineTrainer } from '../trainer/define.js';
import { pageAttention } from './page_core.js';

// pageAttention rides along so a page can ask the core's facts too (site/docs.html lists the stage ids from
// it): the elements' shared core, computing in its worker.
export { AttentionStepper, pageAttention };

function define() {
  if (!customElements.get('attention-stepper')) customElements.define('attention-stepper', AttentionStepper);
  defineTrainer();
}

// A classic script's elements are upgraded in a task of their own, after the one that compiled it (the classic
// bundle, with its worker and every wasm inside, is large): both in one task came near 100 ms on a slow machine.
if (typeof customElements !== 'undefined') {
  if (typeof document !== 'undefined' && document.currentScript) setTimeout(define, 0);
  else define();
}
