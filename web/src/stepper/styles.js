// The stepper's styles, inside its shadow root: a blog's selectors cannot reach in. Inherited
// properties still can (a blog's "* { font-size: 40px !important }" lands on the host and would
// flow down), so the wrapper starts from \`all: initial\` and sets its own font, colour and spacing.
/** A phone's width: below it the picture comes first (the media queries below and stage_texts.js). */
export const NARROW = '(max-width: 600px)';
import { SCROLL_CUE_CSS } from './scroll_cue.js';

export const css = `${SCROLL_CUE_CSS}
:host { display: block; contain: content; border: 1px solid #d0d7de; border-radius: 8px; background: #fff; box-sizing: border-box; }
.stepper { all: initial; display: block; padding: 12px; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", "Noto Sans", "Noto Sans CJK SC", "PingFang SC", "Microsoft YaHei", sans-serif; color: #1b1f24; background: #fff; border-radius: 8px; text-align: left; }
:host([hidden]) { display: none; }
* { box-sizing: border-box; }
button, select, input { font: inherit; }
button { border: 1px solid #8c959f; background: #f6f8fa; border-radius: 6px; padding: 3px 10px; cursor: pointer; color: #1b1f24; }
button:hover { background: #eef1f4; }
button.play { background: #1f6feb; border-color: #1f6feb; color: #fff; font-weight: 600; }
button.play:hover { background: #1a5fcc; }
button[aria-pressed="true"] { background: #1f6feb; color: #fff; border-color: #1f6feb; }
:focus-visible { outline: 2px solid #1f6feb; outline-offset: 1px; }
.bar { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; margin-bottom: 8px; }
.bar .grow { flex: 1; }
h2 { font-size: 17px; margin: 2px 0 4px; }
h3 { font-size: 15px; margin: 10px 0 4px; }
h4 { font-size: 14px; margin: 10px 0 4px; }
p { margin: 4px 0; }
.summary { color: #333; }
details { margin: 4px 0; color: #444; }
/* every stage's words in one cell: the block keeps the tallest one's height (stage_texts.js) */
.stage-texts { display: grid; }
.stage-words[hidden] { display: none; }
.stage-words > summary { display: none; }
/* a page may reserve room for the picture (index.html: the rest of the screen), so that what follows it
   stays below the fold while stages of different heights come and go */
.work { min-height: var(--attention-stepper-picture-room, 0); display: flow-root; }
/* flow-root: the first child's top margin (a scene's 8 px, a view switch's 4 px) stays inside and moves nothing */
.stage { display: flow-root; }
.stage-heads { border-top: 1px solid #eaeef2; margin-top: 8px; grid-template-columns: minmax(0, 1fr) auto; }
.stage-heads > .export-menu { grid-area: 1 / 2; align-self: start; margin-top: 8px; }
.stage-text { grid-area: 1 / 1; visibility: hidden; }
.stage-text.current { visibility: visible; }
.stage-head { padding-top: 8px; display: flex; flex-wrap: wrap; align-items: baseline; gap: 4px 8px; }
.stage-title { font-weight: 600; font-size: 16px; }
.formula { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; background: #f6f8fa; padding: 1px 6px; border-radius: 4px; margin-left: 8px; white-space: nowrap; }
.explain { color: #333; }
.gist { display: none; }
.next-example { border-color: #8250df; color: #8250df; font-weight: 600; flex: 1 1 0; min-width: 0; max-width: max-content; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; } /* on the controls' row, cut short rather than wrapped */
.note { color: #555; font-style: italic; }
.heads { display: flex; gap: 4px; margin: 6px 0; }
.scene { display: flex; flex-wrap: wrap; gap: 14px; align-items: flex-start; margin: 8px 0; overflow-x: auto; }
.op { align-self: center; font-size: 20px; color: #57606a; }
figure.matrix { margin: 0; }
figure.matrix figcaption { font-size: 12px; color: #57606a; margin-bottom: 2px; }
figure.matrix figcaption .label { font-weight: 600; color: #1b1f24; }
figure.role-result figcaption .label { color: #8250df; }
figure.role-split { opacity: 0.9; }
table { border-collapse: collapse; }
th { font-weight: 500; font-size: 12px; color: #57606a; padding: 1px 4px; white-space: nowrap; max-width: 9em; overflow: hidden; text-overflow: ellipsis; }
th.row { text-align: right; }
td.cell { font: 12px ui-monospace, Menlo, Consolas, monospace; padding: 3px 5px; text-align: right; min-width: 3.6em; border: 1px solid rgba(255,255,255,0.6); transition: opacity 120ms; }
td.cell.band { box-shadow: inset 0 -3px 0 rgba(130,80,223,0.45); }
td.cell.masked, .swatch.masked { background-image: repeating-linear-gradient(45deg, transparent 0 4px, rgba(255,255,255,0.45) 4px 6px); }
.legend { display: flex; align-items: center; gap: 4px; font-size: 12px; color: #57606a; margin-top: 3px; }
.legend .bar { display: inline-block; width: 96px; height: 8px; border-radius: 2px; }
.legend .swatch-item { display: inline-flex; align-items: center; gap: 3px; margin-right: 6px; }
.legend .swatch { display: inline-block; width: 12px; height: 12px; border-radius: 2px; }
td.cell.hidden { color: transparent !important; background: #f3f4f6 !important; }
td.cell.hl { outline: 2px solid #bf8700; outline-offset: -2px; }
td.cell.current { outline: 3px solid #1f6feb; outline-offset: -3px; }
td.cell:focus { outline: 3px solid #1f6feb; outline-offset: -3px; }
.caption-row { display: flex; gap: 6px; align-items: flex-start; }
.caption-row .caption { flex: 1; }
.caption-detail { font-size: 12px; white-space: nowrap; }
td.cell.hover { outline: 3px solid #1b1f24; outline-offset: -3px; }
.stages button[aria-current="step"] { background: #1f6feb; color: #fff; border-color: #1f6feb; } /* not bold: a wider chip would move the others */
.caption { height: calc(3 * 1.45em + 14px); overflow-y: auto; font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 13px; background: #fbfbfc; border: 1px solid #eaeef2; border-radius: 6px; padding: 6px 8px; white-space: pre-wrap; overflow-wrap: anywhere; }
.timeline { display: flex; flex-direction: column; gap: 4px; margin-top: 8px; }
.timeline input[type=range] { width: 100%; }
.stages { display: flex; flex-wrap: wrap; gap: 3px; }
.stages button { font-size: 12px; padding: 1px 6px; }
.stages button.done { background: #ddf4ff; }
.status { font-size: 12px; color: #57606a; }
.editor { border-top: 1px solid #eaeef2; margin-top: 10px; padding-top: 6px; }
.editor input.num { cursor: ew-resize; }
.editor input.num:focus { cursor: text; }
/* editing on a wide screen: the panel beside the picture, scrolling on its own */
@media (min-width: 1100px) {
  .work.editing { display: flex; gap: 16px; align-items: flex-start; }
  .work.editing > .stage { flex: 1; min-width: 0; }
  .work.editing > .editor { flex: 0 0 400px; position: sticky; top: var(--pinned-height, 0px); max-height: calc(100vh - var(--pinned-height, 0px)); overflow: auto; margin-top: 0; border-top: none; border-left: 1px solid #eaeef2; padding-left: 12px; }
}
.editor .field { margin: 6px 0; }
.editor .field-label { display: inline-block; min-width: 9em; font-weight: 500; }
.editor input.num { width: 5.2em; font: 12px ui-monospace, Menlo, monospace; padding: 1px 3px; }
.editor .tokens input { width: 6em; margin: 1px; }
.error { color: #cf222e; font-weight: 500; }
.error:empty { display: none; }
.notice { background: #fff8c5; border: 1px solid #d4a72c; padding: 4px 8px; border-radius: 4px; }
textarea.paste, textarea.labels { width: 100%; box-sizing: border-box; font: 12px/1.4 ui-monospace, monospace; }
.formula-map { display: flex; flex-wrap: wrap; align-items: center; gap: 2px 4px; padding: 6px 0; border-bottom: 1px solid #eaeef2; font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 13px; }
.formula-map .term { padding: 2px 7px; border-radius: 4px; }
.formula-map .term[aria-disabled="true"] { color: #6e7781; background: #f6f8fa; border-style: dashed; cursor: default; text-decoration: line-through; }
.formula-map .term[aria-current="step"] { background: #8250df; border-color: #8250df; color: #fff; }
.formula-map .group { display: inline-flex; align-items: center; gap: 2px; }
.formula-map .arrow, .formula-map .paren { color: #57606a; }
.heads-grid { margin: 6px 0; }
.heads-grid .minis { display: flex; flex-wrap: wrap; gap: 8px; }
.heads-grid .mini { display: flex; flex-direction: column; align-items: center; gap: 2px; padding: 4px; background: #fff; }
.heads-grid .mini[aria-pressed="true"] { outline: 3px solid #8250df; background: #fbf8ff; color: #1b1f24; border-color: #8250df; }
.heads-grid .mini-label { font-size: 12px; }
.heads-grid canvas { image-rendering: pixelated; }
.export-menu { margin-left: auto; position: relative; font-size: 13px; }
.export-menu summary { cursor: pointer; padding: 2px 8px; border: 1px solid #d0d7de; border-radius: 4px; list-style: none; }
.export-menu summary::-webkit-details-marker { display: none; }
.export-menu summary::after { content: ' ▾'; }
.export-items { position: absolute; right: 0; z-index: 3; display: flex; flex-direction: column; background: #fff; border: 1px solid #d0d7de; border-radius: 6px; padding: 4px; box-shadow: 0 4px 12px rgba(0,0,0,.12); min-width: 9em; }
.export-items button { text-align: left; border: none; background: none; padding: 4px 8px; }
.export-items button:hover, .export-items button:focus-visible { background: #f3eefc; }
.export-status { font-size: 12px; color: #cf222e; }
.embed-code { border: 1px solid #d0d7de; border-radius: 6px; padding: 8px; margin-top: 8px; background: #f6f8fa; }
.embed-block { margin-bottom: 6px; }
.embed-label { display: flex; align-items: center; gap: 8px; font-size: 13px; margin-bottom: 2px; }
.embed-snippet { width: 100%; box-sizing: border-box; font: 12px/1.4 ui-monospace, Menlo, monospace; }
.copy-status { font-size: 12px; color: #57606a; }
.vision-scene { align-items: flex-start; }
.tensor { margin: 0; }
.tensor figcaption { font-size: 12px; color: #57606a; margin-bottom: 2px; }
.tensor figcaption .label { font-weight: 600; color: #1b1f24; }
.tensor.role-result figcaption .label { color: #8250df; }
.maps { display: flex; flex-wrap: wrap; gap: 8px; max-width: 560px; }
.map { display: flex; flex-direction: column; gap: 2px; }
.map-label { font-size: 12px; color: #444; }
.map-grid { display: grid; gap: 1px; }
.map-row { display: contents; }
.map-grid .row-label { font-size: 12px; color: #57606a; padding-right: 3px; align-self: center; white-space: nowrap; max-width: 7em; overflow: hidden; text-overflow: ellipsis; }
.ocell { display: block; width: 16px; height: 16px; }
.vcell { display: block; min-width: 12px; height: 12px; outline-offset: -1px; }
.tensor.role-result .map-grid .vcell { min-width: 16px; height: 16px; }
.vcell.hidden { visibility: hidden; }
.vcell.current, .vcell.hover { outline: 2px solid #8250df; }
.vcell.hl { outline: 2px solid #d4a72c; }
.bars { display: grid; gap: 2px; min-width: 220px; }
.bar-row { display: grid; grid-template-columns: 6.5em 1fr 4.5em; align-items: center; gap: 6px; font-size: 12px; }
.bar-label { text-align: right; color: #444; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.bar-track { background: #f0f2f4; height: 14px; border-radius: 2px; min-width: 0; }
.bar-track .fill { display: block; height: 14px; border-radius: 2px; }
.bar-track.hidden { visibility: visible; }
.bar-track.hidden .fill { visibility: hidden; }
.bar-value { font: 12px ui-monospace, Menlo, monospace; color: #1b1f24; }
.bar-track.hidden + .bar-value { visibility: hidden; }
textarea.vision-spec { width: 100%; box-sizing: border-box; font: 12px/1.35 ui-monospace, Menlo, monospace; }
.view-switch { display: inline-flex; gap: 0; margin: 4px 0; }
.view-switch button { border-radius: 0; }
.view-switch button:first-child { border-radius: 4px 0 0 4px; }
.view-switch button:last-child { border-radius: 0 4px 4px 0; border-left: none; }
.view-switch button[aria-pressed="true"] { background: #8250df; border-color: #8250df; color: #fff; }
.lines { flex: 1 1 auto; min-width: 0; max-width: 720px; }
.lines.many { max-width: none; }
/* one picture a head, side by side (stacked on a phone) */
.lines-heads { display: flex; flex-wrap: wrap; gap: 8px 28px; }
.lines-head { flex: 1 1 300px; min-width: 0; max-width: 720px; }
.lines-head[hidden] { display: none; }
.lines-heading { display: flex; justify-content: space-between; align-items: center; gap: 8px; font-size: 12px; color: #57606a; flex-wrap: wrap; }
.head-name { display: inline-flex; align-items: center; gap: 4px; font-weight: 600; color: #1b1f24; }
.head-toggles { display: flex; gap: 4px; flex-wrap: wrap; margin-bottom: 4px; }
.head-toggle { display: inline-flex; align-items: center; gap: 4px; font-size: 12px; }
.head-toggle[aria-pressed="true"] { background: #fff; color: #1b1f24; border-color: #57606a; font-weight: 600; }
.head-toggle[aria-pressed="false"] { color: #57606a; text-decoration: line-through; }
.lines .swatch { display: inline-block; width: 10px; height: 10px; border-radius: 2px; }
.lines-body { display: grid; grid-template-columns: auto minmax(60px, 1fr) auto; align-items: start; }
.lines-svg { width: 100%; display: block; }
.lines .tokens { display: flex; flex-direction: column; }
.lines .tokens.queries { align-items: flex-end; }
.lines .tokens.keys { align-items: flex-start; }
.lines .token { box-sizing: border-box; padding: 2px 6px; border: 1px solid transparent; background: none; display: inline-flex; align-items: center; gap: 6px; font-size: 14px; color: #1b1f24; }
.lines .tokens.queries .token { flex-direction: row-reverse; }
.lines .token.spot { border-color: #8250df; background: #fbf8ff; font-weight: 600; }
.lines .alphas { display: inline-flex; gap: 4px; font: 12px ui-monospace, Menlo, monospace; }
.lines .alpha { font-weight: 600; }
.lines path.off, .lines path.zero { display: none; }
.lines path { vector-effect: non-scaling-stroke; transition: stroke-opacity 0.15s; }
.lines path.dim { stroke-opacity: 0.04; }
@media (prefers-reduced-motion: reduce) { .lines path { transition: none; } }
.block-diagram summary { cursor: pointer; color: #444; }
.blocks { display: flex; flex-wrap: wrap; align-items: stretch; gap: 6px; margin: 6px 0; }
.block { display: flex; flex-direction: column; gap: 2px; max-width: 13em; padding: 6px 8px; border-radius: 6px; font-size: 12px; text-align: left; }
.block.context { border: 1px dashed #8c959f; color: #444; background: #f6f8fa; }
.block.here { border: 2px solid #8250df; background: #fbf8ff; color: #1b1f24; }
.block-note { color: #57606a; font-size: 12px; }
.blocks .arrow { align-self: center; color: #57606a; }
.sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
.hint { font-size: 12px; color: #57606a; margin: 2px 0; }
.loading { color: #57606a; }
.gradient { margin-top: 8px; border-top: 1px dashed #d0d7de; padding-top: 4px; }
.gradient[hidden] { display: none; }
.sinusoid { display: block; margin-top: 4px; }
.chart { width: 100%; min-width: 480px; max-width: 480px; height: auto; } /* 12-unit text at 12 px or more */
.charts { display: flex; flex-wrap: wrap; gap: 12px; }
.complexity, .paths { overflow-x: auto; }
.figures td, .figures th { padding: 1px 8px; text-align: right; font-size: 12px; }
.figures th { white-space: normal; max-width: 12em; vertical-align: bottom; }
@media (prefers-reduced-motion: reduce) { td.cell { transition: none; } }
/* until the core is ready: the element keeps about its final height, so a page does not jump */
.stepper.pending { min-height: var(--attention-stepper-placeholder, 560px); }
.skeleton { background: linear-gradient(90deg, #eef1f4, #f6f8fa, #eef1f4); border-radius: 4px; margin: 8px 0; }
.skeleton.title { height: 22px; width: 55%; }
.skeleton.line { height: 14px; width: 90%; }
.skeleton.grid { height: 150px; width: 320px; }
/* compact (a blog column): the stage's heading, the picture, the caption and ◀ ► ▶, nothing else */
.compact .prev-cell, .compact .next-cell, .compact .status, .compact .view-switch { display: none; }
.compact .stage-heads { border-top: none; margin-top: 0; }
.compact .caption { height: calc(2 * 1.45em + 14px); }
.edited { display: inline-flex; align-items: center; gap: 6px; font-size: 12px; color: #57606a; }
.edited[hidden] { display: none; }
/* the controls and the caption stay on screen while a tall picture scrolls under them, the caption
   inside the pinned block (never under it) */
.pinned { position: sticky; top: 0; z-index: 2; background: #fff; padding: 4px 0; }
.bar.controls { margin-bottom: 4px; }
/* phones: nothing wider than the screen (matrices scroll in their own box), thumb-sized controls */
@media ${NARROW} {
  /* the picture first: the menu, the stage's heading with its gist, the controls with the caption, the
     picture, then the words (the stage's whole explanation behind its line, the example's text, the
     formula map, the timeline) */
  .stepper { padding: 8px; display: flex; flex-direction: column; }
  .stepper > * { order: 5; }
  .stepper > .notice, .stepper > .error, .stepper > .status, .stepper > .bar.top { order: 0; }
  .stepper > .stage-heads { order: 1; }
  .stepper > .pinned { order: 2; }
  .stepper > .work { order: 3; }
  .stepper > .stage-words { order: 4; }
  .stepper > .stage-words > summary { display: flex; color: #444; cursor: pointer; }

  .bar.controls { flex-wrap: wrap; gap: 4px; }
  .bar.controls .edited, .next-example { flex-basis: 100%; } /* Reset, the next example: a row of their own, never clipped */
  /* the stage's gist under its title, above the picture (stacked like the titles: no jump from stage to stage) */
  .stage-head .gist { display: block; flex-basis: 100%; margin: 0; color: #333; }
  .bar.controls .status, .bar.controls .speed-word { display: none; }
  .caption { height: calc(2 * 1.45em + 14px); } /* in the sticky controls: the picture keeps the screen */
  .compact .caption { height: calc(4 * 1.45em + 14px); } /* nothing sticky in a figure of a post or the path: room for a wrapped cell arithmetic */
  .caption-detail { max-width: 6.5em; white-space: normal; line-height: 1.2; }
  .stages { flex-wrap: nowrap; overflow-x: auto; }
  .stages button { flex: none; }
  .formula { white-space: normal; overflow-wrap: anywhere; margin-left: 0; display: inline-block; }
  /* operands and result stack, each matrix scrolling inside its own box: none starts off screen */
  .scene { flex-wrap: wrap; max-width: 100%; overflow-x: visible; }
  .scene > figure { flex: none; max-width: 100%; overflow-x: auto; }
  .bar.top label, .bar.top select { max-width: 100%; }
  select.example { max-width: 60vw; }
}
@media ${NARROW}, (pointer: coarse) {
  button, select { min-height: 44px; min-width: 44px; }
  summary { min-height: 44px; display: flex; align-items: center; gap: 6px; }
  details:not(.export-menu) > summary::before { content: '▸'; color: #57606a; }
  details[open]:not(.export-menu) > summary::before { content: '▾'; }
  .export-menu summary { min-width: 44px; justify-content: center; }
  .stages button { min-height: 44px; }
  .timeline input[type=range] { height: 44px; }
}
`;
