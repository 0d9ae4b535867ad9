// The stage's words: its heading (title, formula) and its explanation with the example's note for it.
// Every shown stage's heading is stacked in one grid cell, all but the current one invisible, and so
// is every explanation, so each block is as tall as its tallest at any width: the controls, the
// caption and the picture under them stay where they are from stage to stage (a click on ▶ lands on
// ▶ again). On a phone each heading carries the stage's gist (one sentence: what it does here) above the
// picture, and the whole explanation sits behind one closed line under it (styles.js).
import { h } from './dom.js';
import { fillNumbers } from './format.js';
import { pick, stageTitle } from './i18n.js';
import { shownStages } from './steps.js';
import { NARROW } from './styles.js';

/** Each projection's weight in the spec and its name: a stage without one is its input itself. */
const PROJECTIONS = { q: ['wq', 'W_q'], k: ['wk', 'W_k'], v: ['wv', 'W_v'] };

/** A projection the spec does not have, said for this stage (Q = X here, no W_q), or null. */
function noProjection(trace, id, w) {
  const p = PROJECTIONS[id];
  if (!p || trace.kind === 'vision' || trace.spec.weights?.[p[0]]) return null;
  const cross = trace.stages.some((st) => st.id === 'memory');
  return w.noProjection(id.toUpperCase(), id !== 'q' && cross ? 'memory' : 'X', p[1], id === 'q' && trace.spec.heads === 1);
}

/**
 * The notes the page itself adds to a stage where the registry's general words do not fit this spec: a
 * projection it does not have; one head, which splits nothing and folds concat; cross-attention's inputs.
 */
function pageNotes(trace, id, w) {
  if (trace.kind === 'vision') return [];
  const one = trace.spec.heads === 1;
  const missing = noProjection(trace, id, w);
  return [missing, !missing && id === 'q' && one && w.notSplit('Q'), id === 'context' && one && w.oneHead,
    id === 'x' && trace.stages.some((st) => st.id === 'memory') && w.crossInputs].filter(Boolean);
}

/** The first sentence of a text (en: up to ". ", zh: up to "。"): a stage's gist on a phone. */
const firstSentence = (text, lang) => (lang === 'zh' ? /^.*?。/su : /^.*?[.!?](?=\s|$)/su).exec(text)?.[0] ?? text;

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
   * line under the picture (the heading's gist is above it; the rest is the reader's move).
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
    // the example's notes, with the shown variant's own where its numbers tell another story
    const notes = { ...doc?.notes, ...doc?.variants?.find((v) => v.id === s.variant)?.notes };
    this.texts = shownStages(s.trace).map((stage) => {
      const explain = pick(stage.explain, s.lang);
      const own = text ? pageNotes(s.trace, stage.id, w) : [];
      const head = h('div', { className: 'stage-text stage-head', dataset: { stage: stage.id } },
        h('span', { className: 'stage-title', text: stageTitle(stage, s.lang) }),
        h('code', { className: 'formula', text: stage.formula }),
        // a phone's one line above the picture: this spec's special case where there is one, else the gist
        text ? h('p', { className: 'gist', text: noProjection(s.trace, stage.id, w) ?? firstSentence(explain, s.lang) }) : null);
      const noteText = text ? notes[stage.id] : null;
      const note = noteText ? h('p', { className: 'note', text: fillNumbers(pick(noteText, s.lang), s.trace, s.head) }) : null;
      const words = h('div', { className: 'stage-text', dataset: { stage: stage.id } },
        text ? h('p', { className: 'explain', text: explain }) : null, note,
        own.map((t) => h('p', { className: 'note', text: t })));
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
