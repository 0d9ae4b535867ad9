// The one-file script's train mode (web/build-site.mjs puts this file in place of ../trainer/define.js).
// <attention-trainer> is about 7.5 KB gzipped of code that an embed of a stepper never runs, and training
// needs the learn part anyway: so its code rides in the learn part's script (attention-stepper.learn.js,
// built from ../trainer/script.js), loaded the first time the page has an <attention-trainer>. Until then the
// element is undefined, and upgrades when the script defines it.
//
// The train mode draws with the stepper's own modules and shares the page's one core: the learn script does
// not bundle them again but reads them from globalThis.AttentionStepperModules (./modules_beside.js).
import * as dom from '../stepper/dom.js';
import { loadPartScript, partScriptUrl } from './start_worker_inline.js';

/** Defined by attention-stepper.learn.js, not by this script: customElements.get('attention-trainer') once loaded. */
export const AttentionTrainer = null;

/**
 * Loads the learn part's script once the page has an <attention-trainer> (now, or when one is added; not one
 * inside another element's shadow root). If the script is missing or defines no trainer, every trainer on the
 * page, and every one added later, says why in a sentence.
 */
export function defineTrainer() {
  if (typeof document === 'undefined') return;
  if (customElements.get('attention-trainer')) return;
  const trainers = document.getElementsByTagName('attention-trainer'); // live: a length read per check
  let asked = false;
  let failed = null; // the sentence, once loading failed
  const observer = new MutationObserver(() => look());
  function look() {
    if (failed) {
      for (const el of trainers) if (!el.shadowRoot && !el.firstElementChild) el.append(dom.h('p', { attrs: { role: 'alert' }, text: failed }));
      return;
    }
    if (customElements.get('attention-trainer')) return observer.disconnect(); // defined meanwhile (the learn script came for gradients)
    if (asked || !trainers.length) return;
    asked = true;
    loadPartScript('learn')
      .then(() => {
        if (!customElements.get('attention-trainer')) throw new Error(`${partScriptUrl('learn')} defines no <attention-trainer>: is it from another version of attention-stepper.js?`);
        observer.disconnect();
      })
      .catch((error) => {
        failed = `the train mode could not be loaded: ${error.message.replace(/\.$/, '')}.`;
        look();
      });
  }
  observer.observe(document, { childList: true, subtree: true });
  look();
}
