// The train mode as the one-file script loads it: built by web/build-site.mjs into the learn part's script
// (attention-stepper.learn.js), after the part's wasm. The stepper's modules it imports are not bundled again:
// they are the one-file script's own, which ../remote/trainer_beside.js publishes before it loads this.
import { AttentionTrainer } from './element.js';

// defined as this script runs: trainer_beside.js looks for the element once the script has loaded
if (!customElements.get('attention-trainer')) customElements.define('attention-trainer', AttentionTrainer);
