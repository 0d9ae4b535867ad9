// The package's ./stepper entry: defines <attention-stepper> and <attention-trainer> (page.js) and exports both
// classes; a bundler splits the train mode's code as it likes.
import { AttentionTrainer } from '../trainer/element.js';

export { AttentionStepper, pageAttention } from './page.js';
export { AttentionTrainer };

if (typeof customElements !== 'undefined' && !customElements.get('attention-trainer')) customElements.define('attention-trainer', AttentionTrainer);
