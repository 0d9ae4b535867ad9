// `import 'attention-playground/stepper'` defines <attention-stepper> and <attention-trainer> (browsers and bundlers only).
// Every element of a page shares one Web Worker that runs the wasm core; the page's main thread only draws.
import type { Spec, TaskId, Trace } from './index.js';

/** The current stage's tensor and what names it (stageData()). */
export interface StageData {
  example: string;
  variant: string;
  stage: string;
  title: string;
  formula: string;
  /** [rows, cols] or [heads, rows, cols]. */
  shape: number[];
  /** The head on show (0-based) for per-head stages, else null. */
  head: number | null;
  /** Axis labels along the rows and the columns. */
  rows: string[];
  cols: string[];
  /** A vision feature map (C × H × W): the channels' labels (the first axis). */
  channels?: string[];
  /** A copy of the stage's values, row-major in its shape. */
  data: Float32Array;
}

/**
 * The element: attributes example, variant, spec, stage, lang, head, view (matrix | lines),
 * autoplay, controls, url-state.
 */
export declare class AttentionStepper extends HTMLElement {
  /** The trace on show (the last good one after a refused edit). */
  readonly trace: Trace | null;
  /** The stage on show, e.g. "weights". */
  readonly stageId: string | undefined;
  play(): void;
  pause(): void;
  /** Shows a stage whole; unknown ids are ignored. */
  goTo(stageId: string): void;
  /** The current stage's tensor with its labels. */
  stageData(): StageData;
  /** The current stage as an SVG figure (text kept as text), as SVG source. */
  toSVG(): string;
  /** The current stage's figure as a PNG at twice the device pixel ratio. */
  toPNG(): Promise<Blob>;
  /** The current stage's tensor as CSV (a head column for per-head stages). */
  toCSV(): string;
  /** The current stage's tensor as JSON text ({...stageData without data, values: nested arrays}). */
  toJSON(): string;
  /** Every result cell's arithmetic (the core's, from its worker) of the current stage and head, as a LaTeX align* block. */
  toLaTeX(): Promise<string>;
  /** The snippets for the current view: the script and element, and the iframe alternative. */
  embedCode(): Promise<{ script: string; iframe: string }>;
  /** The file name the Export menu gives a format, e.g. "attention-translation-weights.svg". */
  exportName(extension: string): string;
  /** Settles once the core is loaded and the first view drawn. */
  readonly ready: Promise<void>;
  /** Settles once every load, edit and inspect asked for so far is drawn (or refused), the pieces of a large stage included. */
  settled(): Promise<void>;
  /** Shows spec in place (stage, head and view kept); with loss fields each stage shows its gradient
   * dL/d(stage) under it, each cell's chain rule from the core. Rejects with the core's AttentionError. */
  inspect(spec: Spec, lossFields?: { loss: 'mse'; target: number[][] } | { loss: 'cross_entropy'; labels: number[] } | { loss: 'upstream'; upstream: number[][] } | null,
    modelLoss?: number): Promise<void>;
}

/** The train mode: attributes lesson (alignment | positions | scaling), lang (en | zh), url-state. */
export declare class AttentionTrainer extends HTMLElement {
  /** Settles when the lesson is drawn and its runs can train. */
  readonly ready: Promise<void>;
  readonly lesson: 'alignment' | 'positions' | 'scaling';
  /** One run per task of the lesson: the core's trainer and the loss of every step so far. */
  readonly runs: { id: TaskId; losses: number[] }[];
  /** Steps done (every run of a lesson steps together). */
  readonly done: number;
  readonly playing: boolean;
  play(): void;
  pause(): void;
  /** One step of every run, paused. */
  stepOnce(): Promise<void>;
  /** Back to step 0 with the tasks' starting weights (the chosen learning rate kept). */
  reset(): Promise<void>;
  setLearningRate(lr: number): void;
  /** Settles once the newest pictures asked for are drawn (the core computes them in its worker). */
  settled(): Promise<void>;
}

declare global {
  interface HTMLElementTagNameMap {
    'attention-stepper': AttentionStepper;
    'attention-trainer': AttentionTrainer;
  }
}
