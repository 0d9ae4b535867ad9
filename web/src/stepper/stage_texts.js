// The stage's words: its heading (title, formula) and its explanation with the example's note for it.
// Every shown stage's heading is stacked in one grid cell, all but the current one invisible, and so
// is every explanation, so each block is as tall as its tallest at any width: the controls, the
// caption and the picture under them stay where they are from stage to stage (a click on ▶ lands on
// ▶ again). On a phone the explanations sit behind one closed line above the controls (styles.js).
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
  if (el.narrow === undefined && typeof matchMedia === 'function') {
    // one listener for the element's life (each drawing of the chrome makes a new disclosure): widened
    // past a phone's width the summary line is hidden, so the words must be open there
    el.narrow = matchMedia(NARROW);
    el.narrow.addEventListener?.('change', (e) => { if (!e.matches && el.host.stageAbout) el.host.stageAbout.open = true; });
  }
  el.host.stageAbout = h('details', { className: 'stage-words', open: !el.narrow?.matches }, h('summary', { text: w.aboutStage }), el.host.stageWords);
  return [el.host.stageHeads, el.host.stageAbout];
}

/**
 * Shows stage index's words, with the export menu beside the headings. The blocks are filled once for
 * a trace, language, example and head (a new trace may bring new formulas); stepping only moves the mark.
 */
export function showStageTexts(el, s, w, doc, menu) {
  if (!el.host.stageHeads) return;
  const text = el.controls.has('text');
  const key = el.host.stageTextsFor;
  // (the notes quote the head's numbers too)
  if (!key || key.trace !== s.trace || key.lang !== s.lang || key.doc !== doc || key.head !== s.head) fillStageTexts(el, s, w, doc, text);
  el.host.stageTextsFor = { trace: s.trace, lang: s.lang, doc, head: s.head };
  // the export menu in its own column beside the headings: the same room whichever stage is shown
  el.host.stageHeads.querySelector(':scope > .export-menu')?.remove();
  if (menu) el.host.stageHeads.append(menu);
  el.host.stageAbout.hidden = !text;
  el.host.stageTexts.forEach((t, k) => {
    const current = k === s.stageIndex;
    for (const node of [t.head, t.words]) {
      node.classList.toggle('current', current);
      node.toggleAttribute('inert', !current);
      if (current) node.removeAttribute('aria-hidden');
      else node.setAttribute('aria-hidden', 'true');
    }
  });
}

/** Every shown stage's heading and words, into the two stacked blocks. */
function fillStageTexts(el, s, w, doc, text) {
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
  el.host.stageHeads.replaceChildren(...el.host.stageTexts.map((t) => t.head));
  el.host.stageWords.replaceChildren(...el.host.stageTexts.map((t) => t.words));
}

/** The notes' numbers ({stage[i][j]} in an example's text) from the current trace and head. */
export function refreshStageTexts(el, s) {
  for (const t of el.host.stageTexts ?? []) {
    if (t.note) t.note.textContent = fillNumbers(pick(t.noteText, s.lang), s.trace, s.head);
  }
}
