// Everything around the stage: the top bar (example, variant, edit, language), the example's
// texts, the control bar (previous, play, next, speed, status) and the timeline of stages.
// Each builder returns DOM and records in el.host the nodes renderProgress updates later.
import { h } from './dom.js';
import { fillNumbers } from './format.js';
import { pick, stageTitle } from './i18n.js';
import { SPEEDS } from './options.js';
import { sitePage } from './share.js';
import { shownStages } from './steps.js';

/** Example and variant menus, the edit toggle and the language buttons. */
export function topBar(el, s, w, doc) {
  const c = el.controls;
  const bar = h('div', { className: 'bar top' });
  if (c.has('examples')) {
    const options = el.examples.map((e) => h('option', { value: e.id, text: pick(e.title, s.lang), selected: e.id === s.exampleId }));
    if (!s.exampleId) options.unshift(h('option', { value: '', text: w.custom, selected: true }));
    bar.append(h('label', {}, `${w.example} `, h('select', {
      className: 'example', attrs: { 'aria-label': w.example },
      on: { change: (e) => e.target.value && el.chooseExample(e.target.value) },
    }, options)));
    const variants = el.examples.find((e) => e.id === s.exampleId)?.variants ?? [];
    if (variants.length) {
      const title = (v) => pick(doc.variants.find((x) => x.id === v)?.title, s.lang) || v;
      bar.append(h('label', {}, `${w.variant} `, h('select', {
        className: 'variant', attrs: { 'aria-label': w.variant },
        on: { change: (e) => el.chooseExample(s.exampleId, e.target.value) },
      }, ownOption(el, s, w),
      variants.map((v) => h('option', { value: v, text: title(v), selected: v === s.variant || (!s.variant && v === own(el, s)) })))));
    }
  }
  bar.append(h('span', { className: 'grow' }));
  if (c.has('edit')) {
    bar.append(h('button', {
      type: 'button', className: 'edit', text: w.edit, attrs: { 'aria-pressed': String(s.editing) },
      on: { click: () => el.store.set({ editing: !el.store.get().editing }) },
    }));
  }
  if (c.has('lang')) {
    for (const [lang, label] of [['en', 'English'], ['zh', '中文']]) {
      bar.append(h('button', {
        type: 'button', className: `lang lang-${lang}`, text: label, attrs: { 'aria-pressed': String(s.lang === lang), lang },
        on: { click: () => el.store.set({ lang }) },
      }));
    }
  }
  return bar;
}

/** The variant that is the example's own spec (the catalog's default_variant), if one is. */
function own(el, s) {
  return el.examples.find((e) => e.id === s.exampleId)?.default_variant ?? '';
}

/** The menu's entry for the example's own spec: folded into its variant when one equals it, else named. */
function ownOption(el, s, w) {
  return own(el, s) ? null : h('option', { value: '', text: w.exampleOwn, selected: !s.variant });
}

/** The example's title, summary (its numbers kept current by renderStage) and how its inputs were made. */
export function exampleText(el, s, w, doc) {
  if (!doc) return [h('h2', { className: 'title', text: w.custom })];
  el.host.summary = h('p', { className: 'summary', text: fillNumbers(pick(doc.summary, s.lang), s.trace) });
  return [h('h2', { className: 'title', text: pick(doc.title, s.lang) }), el.host.summary,
    h('details', {}, h('summary', { text: w.embeddings }), h('p', { text: pick(doc.embeddings, s.lang) }), s.trace.kind === 'vision' ? null : tokensAreLabels(w))];
}

/** "The tokens here are labels …", with a link to the model mode where the site beside the script has it. */
export function tokensAreLabels(w) {
  const page = sitePage('model.html');
  return h('p', { className: 'hint' }, `${w.tokensAreLabels} `, page ? h('a', { href: page, text: w.realModel }) : w.realModel);
}

/** Previous, play, next, speed and the "stage i of n" status; null when no control asks for it. */
export function controlBar(el, s, w) {
  const c = el.controls;
  const bar = h('div', { className: 'bar controls' });
  if (c.has('nav')) bar.append(h('button', { type: 'button', className: 'prev', text: '|◀', attrs: { 'aria-label': w.previous }, on: { click: () => el.step(-1) } }));
  if (c.has('play')) {
    el.host.play = h('button', { type: 'button', className: 'play', on: { click: () => (el.store.get().playing ? el.pause() : el.play()) } });
    bar.append(el.host.play);
  }
  if (c.has('nav')) {
    bar.append(h('button', { type: 'button', className: 'next', text: '▶|', attrs: { 'aria-label': w.next }, on: { click: () => el.step(1) } }));
    // one cell (or row) at a time, for a calm look at the arithmetic
    bar.append(h('button', { type: 'button', className: 'prev-cell', text: '‹', attrs: { 'aria-label': w.previousCell, title: w.previousCell }, on: { click: () => el.stepCell(-1) } }),
      h('button', { type: 'button', className: 'next-cell', text: '›', attrs: { 'aria-label': w.nextCell, title: w.nextCell }, on: { click: () => el.stepCell(1) } }));
  }
  if (c.has('speed')) {
    bar.append(h('label', {}, h('span', { className: 'speed-word', text: `${w.speed} ` }), h('select', {
      className: 'speed', attrs: { 'aria-label': w.speed },
      on: { change: (e) => el.store.set({ speed: Number(e.target.value) }) },
    }, SPEEDS.map((v) => h('option', { value: String(v), text: `${v}×`, selected: v === s.speed })))));
  }
  el.host.status = h('span', { className: 'status', attrs: { 'aria-live': 'polite' } });
  bar.append(el.host.status);
  // an edited example keeps its title and texts; this says so and takes it back (shown by controlsProgress)
  el.host.edited = h('span', { className: 'edited', hidden: true }, h('span', { className: 'edited-word', text: w.edited }),
    h('button', { type: 'button', className: 'reset-edit', text: w.resetEdit, on: { click: () => el.resetToExample() } }));
  bar.append(el.host.edited);
  return bar.childNodes.length > 2 ? bar : null;
}

/**
 * The caption (the arithmetic of the hovered or current cell) and its "every term, every digit"
 * toggle: one box of fixed height under the controls, kept for the whole example (el.host.caption),
 * which the stage area writes (el.area: its detail is the toggle's state).
 */
export function captionRow(el, w) {
  // a tab stop: a long caption scrolls inside its fixed box, by keyboard too
  el.host.caption = h('div', { className: 'caption', attrs: { 'aria-live': 'polite', tabindex: '0' } });
  el.host.detail = h('button', {
    type: 'button', className: 'caption-detail', attrs: { 'aria-pressed': String(el.area.detail) },
    on: { click: () => { el.area.detail = !el.area.detail; el.renderProgress(); } },
  });
  return h('div', { className: 'caption-row' }, el.host.caption, el.host.detail);
}

/** The play button, the scrubber and "stage i of n" at this point of the animation. */
export function controlsProgress(el, s, w) {
  if (el.host.play) {
    el.host.play.textContent = s.playing ? `❚❚ ${w.pause}` : `► ${w.play}`;
    el.host.play.setAttribute('aria-pressed', String(s.playing));
  }
  if (el.host.range) el.host.range.value = String(s.stageIndex * 1000 + Math.round(Math.min(1, s.progress) * 999));
  if (el.host.status) el.host.status.textContent = w.stageOf(s.stageIndex + 1, shownStages(s.trace).length);
  if (el.host.edited) el.host.edited.hidden = !(s.edited && s.exampleId);
}

/** The scrubber (a thousand steps a stage) and one button per stage. */
export function timeline(el, s, w) {
  const stages = shownStages(s.trace);
  const n = stages.length;
  el.host.range = h('input', {
    type: 'range', className: 'scrub', min: '0', max: String(n * 1000 - 1), step: '1', attrs: { 'aria-label': w.timeline },
    on: { input: (e) => {
      const v = Number(e.target.value);
      el.store.set({ playing: false, animated: false, stageIndex: Math.floor(v / 1000), progress: Math.min(1, (v % 1000) / 999) });
    } },
  });
  el.host.stageButtons = stages.map((st, i) => h('button', {
    type: 'button', text: stageTitle(st, s.lang), dataset: { stage: st.id },
    on: { click: () => el.show(i) },
  }));
  return h('div', { className: 'timeline', attrs: { role: 'group', 'aria-label': w.timeline } }, el.host.range,
    h('div', { className: 'stages' }, el.host.stageButtons));
}

/** The timeline's buttons: stages before `index` done, `index` the current step. */
export function markStage(el, index) {
  el.host.stageButtons?.forEach((b, i) => {
    b.classList.toggle('done', i < index);
    b.setAttribute('aria-current', i === index ? 'step' : 'false');
  });
}
