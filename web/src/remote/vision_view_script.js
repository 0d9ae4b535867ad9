// The vision views as the one-file script loads them: built by web/build-site.mjs into the vision part's
// script (attention-stepper.vision.js), after the part's wasm; ./vision_view_beside.js calls them. The
// stepper's other modules they import are the one-file script's own (./modules_beside.js publishes them).
import { axes, moveInTensor, renderVisionProgress, renderVisionStage } from '../stepper/vision_view.js';
import { visionEditor } from '../stepper/vision_editor.js';

globalThis.AttentionStepperVisionViews = { axes, renderVisionStage, renderVisionProgress, moveInTensor, visionEditor };
