// The stage's words: its heading (title, formula) and its explanation with the example's note for it.
// Every shown stage's heading is stacked in one grid cell, all but the current one invisible, and so
// is every explanation, so each block is as tall as its tallest at any width: the controls, the
// caption and the picture under them stay where they are from stage to stage (a click on ▶ lands on
// ▶ again). On a phone the explanations move under the picture (styles.js), the heading stays above.
import { h } from './dom.js';
import { fillNumbers } from './format.js';
import { pick, stageTitle } from './i18n.js';
import { shownStages } from './steps.js';
import { NARROW } from './styles.js';

/** The notes the page itself adds to a stage (one head folds concat; cross-attention's inputs). */
function pageNotes(trace, id, w) {
  const notes = [];
  if (trace.kind !== 'vision' && id === 'context' && trace.spec.heads === 1) notes.push(w.oneHead);
  if (trace.kind !== 'vision' && id === 'x' && trace.stages.some((st) => st.id === 'memory')) notes.push(w.crossInputs);
  return notes;
}

/**
 * The two stacked blocks' boxes (filled by showStageTexts): the headings, and the explanations in a
 * disclosure that a wide screen shows open without its summary line, and a phone starts closed, one
 * line above the controls (the picture comes first; opening it is the reader's move).
 */
export function stageTexts(el, w) {
  el.host.stageHeads = h('div', { className: 'stage-texts stage-heads' });
  el.host.stageWords = h('div', { className: 'stage-texts' });
  const narrow = typeof matchMedia === 'function' ? matchMedia(NARROW) : null;
  const about = h('details', { className: 'stage-words', open: !narrow?.matches }, h('summary', { text: w.aboutStage }), el.host.stageWords);
  // widened past a phone's width, the summary line is hidden: the words must be open there
  narrow?.addEventListener?.('change', (e) => { if (!e.matches) about.open = true; });
  el.host.stageAbout = about;
  return [el.host.stageHeads, about];
}

/**
 * Fills the blocks for the element's trace, language and example (a stage drawn afresh: a formula may
 * have changed with the spec) and shows stage index's words, with the export menu beside the headings.
 */
export function showStageTexts(el, s, w, doc, menu) {
  if (!el.host.stageHeads) return;
  const text = el.controls.has('text');
  el.host.stageTexts = shownStages(s.trace).map((stage) => {
    const head = h('div', { className: 'stage-text stage-head', dataset: { stage: stage.id } },
      h('span', { className: 'stage-title', text: stageTitle(stage, s.lang) }),
      h('code', { className: 'formula', text: stage.formula }));
    const noteText = text ? doc?.notes?.[stage.id] : null;
    const note = noteText ? h('p', { className: 'note', text: fillNumbers(pick(noteText, s.lang), s.trace, s.head) }) : null;
    const words = h('div', { className: 'stage-text', dataset: { stage: stage.id } },
      text ? h('p', { className: 'explain', text: pick(stage.explain, s.lang) }) : null, note,
      text ? pageNotes(s.trace, stage.id, w).map((t) => h('p', { className: 'note', text: t })) : null);
    return { head, words, note, noteText };
  });
  // the export menu in its own column beside the headings: the same room whichever stage is shown
  el.host.stageHeads.replaceChildren(...el.host.stageTexts.map((t) => t.head), ...(menu ? [menu] : []));
  el.host.stageWords.replaceChildren(...el.host.stageTexts.map((t) => t.words));
  el.host.stageAbout.hidden = !text;
  el.host.stageTexts.forEach((t, k) => {
    const current = k === s.stageIndex;
    for (const node of [t.head, t.words]) {
      node.classList.toggle('current', current);
      node.toggleAttribute('inert', !current);
      if (!current) node.setAttribute('aria-hidden', 'true');
    }
  });
}

/** The notes' numbers ({stage[i][j]} in an example's text) from the current trace and head. */
export function refreshStageTexts(el, s) {
  for (const t of el.host.stageTexts ?? []) {
    if (t.note) t.note.textContent = fillNumbers(pick(t.noteText, s.lang), s.trace, s.head);
  }
}
