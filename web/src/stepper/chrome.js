// Everything around the stage: the top bar (example, variant, edit, language), the example's
// texts, the control bar (previous, play, next, speed, status), the caption's box and the timeline of
// stages. A Chrome draws them from the store's state and keeps the nodes it updates as the animation
// moves (progress, markStage, summary); what its controls do goes through the actions it is given.
import { h } from './dom.js';
import { fillNumbers } from './format.js';
import { pick, stageTitle } from './i18n.js';
import { SPEEDS } from './options.js';
import { sitePage } from './share.js';
import { shownStages } from './steps.js';

/**
 * What the chrome's controls ask for; the element gives them (its store and animator).
 * @typedef {{chooseExample: (id: string, variant?: string) => void, toggleEdit: () => void, setLang: (lang: string) => void,
 *   togglePlay: () => void, step: (delta: number) => void, stepCell: (delta: number) => void, setSpeed: (speed: number) => void,
 *   resetToExample: () => void, seek: (stageIndex: number, progress: number) => void, show: (index: number) => void,
 *   takeOffer: () => void, toggleDetail: () => void}} ChromeActions
 */

export class Chrome {
  /** @param {ChromeActions} actions */
  constructor(actions) {
    this.actions = actions;
    this.nodes = {};
  }

  /** A new drawing: the nodes of the last one are gone. */
  reset() {
    this.nodes = {};
  }

  /** The caption's box and its "every term" toggle (the stage area writes them). */
  get caption() { return this.nodes.caption; }
  get detail() { return this.nodes.detail; }

  /** Example and variant menus, the edit toggle and the language buttons. */
  topBar(s, w, doc, controls, examples) {
    const a = this.actions;
    const bar = h('div', { className: 'bar top' });
    if (controls.has('examples')) {
      const options = examples.map((e) => h('option', { value: e.id, text: pick(e.title, s.lang), selected: e.id === s.exampleId }));
      if (!s.exampleId) options.unshift(h('option', { value: '', text: w.custom, selected: true }));
      bar.append(h('label', {}, `${w.example} `, h('select', {
        className: 'example', attrs: { 'aria-label': w.example },
        on: { change: (e) => e.target.value && a.chooseExample(e.target.value) },
      }, options)));
      const entry = examples.find((e) => e.id === s.exampleId);
      const variants = entry?.variants ?? [];
      if (variants.length) {
        // the variant that is the example's own spec (the catalog's default_variant) takes its place in the
        // menu; without one, the example's own spec has an entry of its own
        const own = entry.default_variant ?? '';
        const title = (v) => pick(doc.variants.find((x) => x.id === v)?.title, s.lang) || v;
        bar.append(h('label', {}, `${w.variant} `, h('select', {
          className: 'variant', attrs: { 'aria-label': w.variant },
          on: { change: (e) => a.chooseExample(s.exampleId, e.target.value) },
        }, own ? null : h('option', { value: '', text: w.exampleOwn, selected: !s.variant }),
        variants.map((v) => h('option', { value: v, text: title(v), selected: v === s.variant || (!s.variant && v === own) })))));
      }
    }
    bar.append(h('span', { className: 'grow' }));
    if (controls.has('edit')) {
      bar.append(h('button', {
        type: 'button', className: 'edit', text: w.edit, attrs: { 'aria-pressed': String(s.editing) },
        on: { click: () => a.toggleEdit() },
      }));
    }
    if (controls.has('lang')) {
      for (const [lang, label] of [['en', 'English'], ['zh', '中文']]) {
        bar.append(h('button', {
          type: 'button', className: `lang lang-${lang}`, text: label, attrs: { 'aria-pressed': String(s.lang === lang), lang },
          on: { click: () => a.setLang(lang) },
        }));
      }
    }
    return bar;
  }

  /** The example's title, summary (its numbers kept current by summary()) and how its inputs were made. */
  exampleText(s, w, doc) {
    if (!doc) return [h('h2', { className: 'title', text: w.custom })];
    this.nodes.summary = h('p', { className: 'summary', text: fillNumbers(pick(doc.summary, s.lang), s.trace) });
    return [h('h2', { className: 'title', text: pick(doc.title, s.lang) }), this.nodes.summary,
      h('details', {}, h('summary', { text: w.embeddings }), h('p', { text: pick(doc.embeddings, s.lang) }), s.trace.kind === 'vision' ? null : tokensAreLabels(w))];
  }

  /** The summary's numbers ({stage[i][j]} in the example's text) from the current trace, edits included. */
  summary(s, doc) {
    if (this.nodes.summary && doc) this.nodes.summary.textContent = fillNumbers(pick(doc.summary, s.lang), s.trace);
  }

  /** Previous, play, next, speed and the "stage i of n" status; null when no control asks for it. */
  controlBar(s, w, controls) {
    const a = this.actions;
    const bar = h('div', { className: 'bar controls' });
    if (controls.has('nav')) bar.append(h('button', { type: 'button', className: 'prev', text: '|◀', attrs: { 'aria-label': w.previous }, on: { click: () => a.step(-1) } }));
    if (controls.has('play')) {
      this.nodes.play = h('button', { type: 'button', className: 'play', on: { click: () => a.togglePlay() } });
      bar.append(this.nodes.play);
    }
    if (controls.has('nav')) {
      bar.append(h('button', { type: 'button', className: 'next', text: '▶|', attrs: { 'aria-label': w.next }, on: { click: () => a.step(1) } }));
      // one cell (or row) at a time, for a calm look at the arithmetic
      bar.append(h('button', { type: 'button', className: 'prev-cell', text: '‹', attrs: { 'aria-label': w.previousCell, title: w.previousCell }, on: { click: () => a.stepCell(-1) } }),
        h('button', { type: 'button', className: 'next-cell', text: '›', attrs: { 'aria-label': w.nextCell, title: w.nextCell }, on: { click: () => a.stepCell(1) } }));
    }
    if (controls.has('speed')) {
      bar.append(h('label', {}, h('span', { className: 'speed-word', text: `${w.speed} ` }), h('select', {
        className: 'speed', attrs: { 'aria-label': w.speed },
        on: { change: (e) => a.setSpeed(Number(e.target.value)) },
      }, SPEEDS.map((v) => h('option', { value: String(v), text: `${v}×`, selected: v === s.speed })))));
    }
    this.nodes.status = h('span', { className: 'status', attrs: { 'aria-live': 'polite' } });
    bar.append(this.nodes.status);
    // an edited example keeps its title and texts; this says so and takes it back (shown by progress())
    this.nodes.edited = h('span', { className: 'edited', hidden: true }, h('span', { className: 'edited-word', text: w.edited }),
      h('button', { type: 'button', className: 'reset-edit', text: w.resetEdit, on: { click: () => a.resetToExample() } }));
    bar.append(this.nodes.edited);
    // past the last stage: the next worked example (shown by progress() while the element offers one)
    this.nodes.offer = h('button', { type: 'button', className: 'next-example', hidden: true, on: { click: () => a.takeOffer() } });
    bar.append(this.nodes.offer);
    return bar.childNodes.length > 3 ? bar : null;
  }

  /**
   * The caption (the arithmetic of the hovered or current cell) and its "every term, every digit" toggle:
   * one box of fixed height under the controls, kept for the whole example, which the stage area writes
   * (detail: the toggle's state, which the stage area keeps).
   */
  captionRow(detail) {
    // a tab stop: a long caption scrolls inside its fixed box, by keyboard too
    this.nodes.caption = h('div', { className: 'caption', attrs: { 'aria-live': 'polite', tabindex: '0' } });
    this.nodes.detail = h('button', {
      type: 'button', className: 'caption-detail', attrs: { 'aria-pressed': String(detail) },
      on: { click: () => this.actions.toggleDetail() },
    });
    return h('div', { className: 'caption-row' }, this.nodes.caption, this.nodes.detail);
  }

  /**
   * The play button, the scrubber, "stage i of n", the edited mark and the offer of the next example (its
   * button's words, or null) at this point of the animation.
   */
  progress(s, w, offer = null) {
    const { play, range, status, edited } = this.nodes;
    if (this.nodes.offer) {
      this.nodes.offer.hidden = !offer;
      this.nodes.offer.textContent = this.nodes.offer.title = offer ?? '';
    }
    if (play) {
      play.textContent = s.playing ? `❚❚ ${w.pause}` : `► ${w.play}`;
      play.setAttribute('aria-pressed', String(s.playing));
    }
    if (range) range.value = String(s.stageIndex * 1000 + Math.round(Math.min(1, s.progress) * 999));
    if (status) status.textContent = w.stageOf(s.stageIndex + 1, shownStages(s.trace).length);
    if (edited) edited.hidden = !(s.edited && s.exampleId);
  }

  /** The scrubber (a thousand steps a stage) and one button per stage. */
  timeline(s, w) {
    const stages = shownStages(s.trace);
    const n = stages.length;
    this.nodes.range = h('input', {
      type: 'range', className: 'scrub', min: '0', max: String(n * 1000 - 1), step: '1', attrs: { 'aria-label': w.timeline },
      on: { input: (e) => {
        const v = Number(e.target.value);
        this.actions.seek(Math.floor(v / 1000), Math.min(1, (v % 1000) / 999));
      } },
    });
    this.nodes.stageButtons = stages.map((st, i) => h('button', {
      type: 'button', text: stageTitle(st, s.lang), dataset: { stage: st.id },
      on: { click: () => this.actions.show(i) },
    }));
    return h('div', { className: 'timeline', attrs: { role: 'group', 'aria-label': w.timeline } }, this.nodes.range,
      h('div', { className: 'stages' }, this.nodes.stageButtons));
  }

  /** The timeline's buttons: stages before `index` done, `index` the current step. */
  markStage(index) {
    this.nodes.stageButtons?.forEach((b, i) => {
      b.classList.toggle('done', i < index);
      b.setAttribute('aria-current', i === index ? 'step' : 'false');
    });
  }
}

/** "The tokens here are labels …", with a link to the model mode where the site beside the script has it. */
export function tokensAreLabels(w) {
  const page = sitePage('model.html');
  return h('p', { className: 'hint' }, `${w.tokensAreLabels} `, page ? h('a', { href: page, text: w.realModel }) : w.realModel);
}
