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
 * The stage's words for one element: the headings and the explanations, each a stacked block. It keeps
 * its own boxes and what they were filled for; the element asks it to build them (with its chrome), to
 * show a stage, and to refresh the notes' numbers after an edit.
 */
export class StageTexts {
  constructor() {
    this.heads = null;   // the headings' block
    this.words = null;   // the explanations' block
    this.about = null;   // the disclosure the explanations sit in
    this.texts = [];     // per shown stage: {head, words, note, noteText}
    this.filledFor = null; // the trace, language, example and head the blocks were filled for
    // one listener for the element's life (each drawing of the chrome makes a new disclosure): widened
    // past a phone's width the summary line is hidden, so the words must be open there
    this.narrow = typeof matchMedia === 'function' ? matchMedia(NARROW) : null;
    this.narrow?.addEventListener?.('change', (e) => { if (!e.matches && this.about) this.about.open = true; });
  }

  /**
   * The two stacked blocks' boxes, new (filled by show): the headings, and the explanations in a
   * disclosure that a wide screen shows open without its summary line, and a phone starts closed, one
   * line above the controls (the picture comes first; opening it is the reader's move).
   */
  build(w) {
    this.heads = h('div', { className: 'stage-texts stage-heads' });
    this.words = h('div', { className: 'stage-texts' });
    this.about = h('details', { className: 'stage-words', open: !this.narrow?.matches }, h('summary', { text: w.aboutStage }), this.words);
    this.filledFor = null;
    return [this.heads, this.about];
  }

  /**
   * Shows stage index's words (text: the explanations are shown at all), with the export menu beside the
   * headings. The blocks are filled once for a trace, language, example and head (a new trace may bring
   * new formulas); stepping only moves the mark.
   */
  show(s, w, doc, menu, text) {
    if (!this.heads) return;
    const key = this.filledFor;
    // (the notes quote the head's numbers too)
    if (!key || key.trace !== s.trace || key.lang !== s.lang || key.doc !== doc || key.head !== s.head) this.fill(s, w, doc, text);
    this.filledFor = { trace: s.trace, lang: s.lang, doc, head: s.head };
    // the export menu in its own column beside the headings: the same room whichever stage is shown
    this.heads.querySelector(':scope > .export-menu')?.remove();
    if (menu) this.heads.append(menu);
    this.about.hidden = !text;
    this.texts.forEach((t, k) => {
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
  fill(s, w, doc, text) {
    this.texts = shownStages(s.trace).map((stage) => {
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
    this.heads.replaceChildren(...this.texts.map((t) => t.head));
    this.words.replaceChildren(...this.texts.map((t) => t.words));
  }

  /** The notes' numbers ({stage[i][j]} in an example's text) from the current trace and head. */
  refresh(s) {
    for (const t of this.texts) {
      if (t.note) t.note.textContent = fillNumbers(pick(t.noteText, s.lang), s.trace, s.head);
    }
  }
}
