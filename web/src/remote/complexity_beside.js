// The one-file script's complexity panels (build-site.mjs puts this file in place of ../stepper/complexity_ready.js).
// Their code, about 2.4 KB gzipped that an embed of any other example never runs, rides in the fast part's
// script (attention-stepper.fast.js, built from ./complexity_script.js), beside the streaming kernel their
// measured paths run, loaded the first time a page shows that example.
import { loadPartScript, partScriptUrl } from './start_worker_inline.js';

function views() {
  const loaded = globalThis.AttentionStepperComplexityViews;
  if (!loaded) throw new Error(`${partScriptUrl('fast')} defined no complexity panels: is it from another version of attention-stepper.js?`);
  return loaded;
}

export const complexityViews = { ready: () => loadPartScript('fast').then(views), get: views };
