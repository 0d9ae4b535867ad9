// Defines <attention-trainer> (the train mode) once the page has one: its code, about 7.5 KB that an embed of a
// stepper never runs, is a chunk of its own (import()), fetched then (when_used.js).
import { onDemand } from '../stepper/on_demand.js';
import { defineWhenUsed } from './when_used.js';

const trainerCode = onDemand('the train mode', () => import('./element.js'));

export function defineTrainer() {
  defineWhenUsed(() => trainerCode.ready().then((module) => module.AttentionTrainer));
}
