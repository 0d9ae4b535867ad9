// The one-file script's vision views (build-site.mjs puts this file in place of ../stepper/vision_view.js
// and ../stepper/vision_editor.js). Their code, 2.7 KB gzipped that a sequence embed never runs, rides in
// the vision part's script (attention-stepper.vision.js, built from ./vision_view_script.js), and the page
// has always run that script before a vision trace reaches it: the core's worker asks the page for the
// part's bytes (partModule in start_worker_inline.js) before it computes the first vision trace. Every
// function here is called only with a vision trace's stages.
import { partScriptUrl } from './start_worker_inline.js';

function views() {
  const loaded = globalThis.AttentionStepperVisionViews;
  if (!loaded) throw new Error(`${partScriptUrl('vision')} defined no vision views: is it from another version of attention-stepper.js?`);
  return loaded;
}

export const axes = (...args) => views().axes(...args);
export const renderVisionStage = (...args) => views().renderVisionStage(...args);
export const renderVisionProgress = (...args) => views().renderVisionProgress(...args);
export const moveInTensor = (...args) => views().moveInTensor(...args);
export const visionEditor = (...args) => views().visionEditor(...args);
