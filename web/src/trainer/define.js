// Defines <attention-trainer> (the train mode) once the page has one, now or when one is added (not one inside
// another element's shadow root): its code, about 7.5 KB that an embed of a stepper never runs, is a chunk of its
// own (import()), fetched only then. Until then the element is undefined and upgrades when it is defined. If the
// code cannot be loaded, every trainer on the page, and every one added later, says why in a sentence.
import { onDemand } from '../stepper/on_demand.js';
import { h } from '../stepper/dom.js';

function defineWhenUsed(load) {
  if (typeof document === 'undefined' || customElements.get('attention-trainer')) return;
  const trainers = document.getElementsByTagName('attention-trainer'); // live: a length read per check
  let asked = false;
  let failed = null; // the sentence, once loading failed
  const observer = new MutationObserver(() => look());
  function look() {
    if (failed) {
      for (const el of trainers) if (!el.shadowRoot && !el.firstElementChild) el.append(h('p', { attrs: { role: 'alert' }, text: failed }));
      return;
    }
    if (customElements.get('attention-trainer')) return observer.disconnect(); // defined meanwhile (another entry)
    if (asked || !trainers.length) return;
    asked = true;
    load()
      .then((AttentionTrainer) => {
        if (!customElements.get('attention-trainer')) customElements.define('attention-trainer', AttentionTrainer);
        observer.disconnect();
      })
      .catch((error) => {
        failed = error.message;
        look();
      });
  }
  observer.observe(document, { childList: true, subtree: true });
  look();
}

const trainerCode = onDemand('the train mode', () => import('./element.js'));

export function defineTrainer() {
  defineWhenUsed(() => trainerCode.ready().then((module) => module.AttentionTrainer));
}
