// The one-file script's train mode (web/build-site.mjs puts this file in place of ../trainer/define.js).
// <attention-trainer> is about 7.5 KB gzipped of code that an embed of a stepper never runs, and training
// needs the learn part anyway: so its code rides in the learn part's script (attention-stepper.learn.js,
// built from ../trainer/script.js), loaded the first time the page has an <attention-trainer>. Until then the
// element is undefined, and upgrades when the script defines it.
//
// The train mode draws with the stepper's own modules and shares the page's one core: the learn script does
// not bundle them again but reads them from globalThis.AttentionStepperModules (./modules_beside.js).
import { defineWhenUsed } from '../trainer/when_used.js';
import { loadPartScript, partScriptUrl } from './start_worker_inline.js';

/** Loads the learn part's script once the page has an <attention-trainer> (../trainer/when_used.js). */
export function defineTrainer() {
  defineWhenUsed(() => loadPartScript('learn').then(() => {
    const defined = customElements.get('attention-trainer');
    if (!defined) throw new Error(`${partScriptUrl('learn')} defines no <attention-trainer>: is it from another version of attention-stepper.js?`);
    return defined;
  }).catch((error) => {
    throw new Error(`the train mode could not be loaded: ${error.message.replace(/\.$/, '')}.`);
  }));
}
