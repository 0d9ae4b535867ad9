// The complexity panels as the one-file script loads them: built by web/build-site.mjs into the fast part's
// script (attention-stepper.fast.js), after the part's wasm; ./complexity_beside.js calls them. The stepper's
// other modules they import are the one-file script's own (./modules_beside.js publishes them).
import { complexityPanel } from '../stepper/complexity.js';
import { pathsPanel } from '../stepper/complexity_paths.js';

globalThis.AttentionStepperComplexityViews = { complexityPanel, pathsPanel };
