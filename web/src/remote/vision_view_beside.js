// The one-file script's vision views (build-site.mjs puts this file in place of ../stepper/vision_ready.js).
// Their code, 2.7 KB gzipped that a sequence embed never runs, rides in the vision part's script
// (attention-stepper.vision.js, built from ./vision_view_script.js), which the page has always run before a
// vision trace reaches it: the core's worker asks the page for the part's bytes (partModule in
// start_worker_inline.js) before it computes the first vision trace.
import { loadPartScript, partScriptUrl } from './start_worker_inline.js';

function views() {
  const loaded = globalThis.AttentionStepperVisionViews;
  if (!loaded) throw new Error(`${partScriptUrl('vision')} defined no vision views: is it from another version of attention-stepper.js?`);
  return loaded;
}

export const visionViews = { ready: () => loadPartScript('vision').then(views), get: views };
