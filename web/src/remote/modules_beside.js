// The stepper's modules that the code riding in a part's script reads (build-site.mjs): the train mode in
// the learn part's (trainer_beside.js) and the vision views in the vision part's (vision_view_beside.js).
// That code does not bundle these modules again: build-site.mjs makes every ../stepper/NAME.js it imports an
// external read from globalThis.AttentionStepperModules.NAME, published here before any part's script runs
// (loadPartScript in start_worker_inline.js), so a part's code shares the page's module instances (its one
// core, its caches) and its bytes. A call, not a side effect of importing this file: the package's
// "sideEffects" list would let the bundler drop that.
import * as colors from '../stepper/colors.js';
import * as core_caption from '../stepper/core_caption.js';
import * as dom from '../stepper/dom.js';
import * as format from '../stepper/format.js';
import * as i18n from '../stepper/i18n.js';
import * as matrix_view from '../stepper/matrix_view.js';
import * as page_core from '../stepper/page_core.js';
import * as steps from '../stepper/steps.js';
import * as styles from '../stepper/styles.js';

export function publishModules() {
  globalThis.AttentionStepperModules ??= { colors, core_caption, dom, format, i18n, matrix_view, page_core, steps, styles };
}
