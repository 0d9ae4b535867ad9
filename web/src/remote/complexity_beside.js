// The one-file script's complexity panels (build-site.mjs puts this file in place of ../stepper/complexity.js,
// ../stepper/complexity_paths.js and ../stepper/complexity_ready.js). Their code, about 2.4 KB gzipped that an
// embed of any other example never runs, rides in the fast part's script (attention-stepper.fast.js, built
// from ./complexity_script.js), beside the streaming kernel their measured paths run; the element awaits
// complexityReady() before it draws the complexity example.
import { loadPartScript, partScriptUrl } from './start_worker_inline.js';

function views() {
  const loaded = globalThis.AttentionStepperComplexityViews;
  if (!loaded) throw new Error(`${partScriptUrl('fast')} defined no complexity panels: is it from another version of attention-stepper.js?`);
  return loaded;
}

export const complexityReady = () => loadPartScript('fast');
export const complexityPanel = (...args) => views().complexityPanel(...args);
export const pathsPanel = (...args) => views().pathsPanel(...args);
