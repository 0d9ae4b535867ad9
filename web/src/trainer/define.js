// Defines <attention-trainer> for the npm package's ./stepper entry, where the train mode is a module like
// any other (a bundler splits it as it likes). The one-file script puts ../remote/trainer_beside.js in its
// place: there the train mode's code rides in the learn part's script.
import { AttentionTrainer } from './element.js';

export { AttentionTrainer };

export function defineTrainer() {
  if (!customElements.get('attention-trainer')) customElements.define('attention-trainer', AttentionTrainer);
}
