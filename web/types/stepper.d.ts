// `import 'attention-playground/stepper'` defines <attention-stepper> (browsers and bundlers only).
import type { Trace } from './index.js';

/** The element: attributes example, variant, spec, stage, lang, autoplay, controls, url-state. */
export declare class AttentionStepper extends HTMLElement {
  /** The trace on show (the last good one after a refused edit). */
  readonly trace: Trace | null;
  /** The stage on show, e.g. "weights". */
  readonly stageId: string | undefined;
  play(): void;
  pause(): void;
  /** Shows a stage whole; unknown ids are ignored. */
  goTo(stageId: string): void;
}

declare global {
  interface HTMLElementTagNameMap {
    'attention-stepper': AttentionStepper;
  }
}
