// The train mode's styles: the stepper's own (the same buttons, matrices and colours, one look), plus
// the lesson layout: the loss chart, and the runs side by side on a wide screen, stacked on a phone.
import { css as stepperCss } from '../stepper/styles.js';

export const css = `${stepperCss.replace('.stepper {', '.trainer, .stepper {')}
.trainer .text { color: #333; max-width: 75ch; }
.trainer .mode { font-size: 13px; color: #57606a; }
.trainer .sentence-row { display: block; margin: 4px 0 8px; }
.trainer .sentence { max-width: 100%; }
.trainer .lr { vertical-align: middle; width: 120px; }
.trainer .lr-value { font: 12px ui-monospace, Menlo, Consolas, monospace; display: inline-block; min-width: 4em; }
.chart-box { overflow-x: auto; }
/* never drawn narrower than its 600 units: its 12-unit text stays 12 px on a phone (the box scrolls) */
.chart-box svg { width: 100%; min-width: 600px; max-width: 720px; height: auto; display: block; }
.runs { display: grid; gap: 12px; grid-template-columns: 1fr; }
@media (min-width: 980px) { .runs-2 { grid-template-columns: 1fr 1fr; } }
.run { min-width: 0; }
.run h3 { display: flex; align-items: center; gap: 4px; flex-wrap: wrap; }
.run .swatch { display: inline-block; width: 12px; height: 12px; border-radius: 2px; }
.run-loss { font-weight: 400; color: #57606a; font-size: 13px; }
.alpha { overflow-x: auto; margin-bottom: 6px; }
attention-stepper { border: 1px solid #d0d7de; }
@media (pointer: coarse) { .trainer input.lr { height: 44px; } }
`;
