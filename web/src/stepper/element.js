// <attention-stepper>: one worked example (or an author's own spec) animated stage by stage,
// every number read from the WebAssembly core's trace.
//
// Attributes: example, variant, spec (inline JSON), stage, lang (en|zh), autoplay,
// controls ("all", "none", or a list of: examples play nav timeline speed lang edit text heads),
// url-state (read the options from the page URL and keep the URL in step, for sharing).
//
// [SECTION] set-up and attributes
// [SECTION] loading examples and specs
// [SECTION] editing
// [SECTION] rendering: whole view, stage, progress
// [SECTION] keyboard and pointer
import { createAttention } from '../index.js';
import { createAnimator } from './animator.js';
import { complexityPanel } from './complexity.js';
import { clear, h, svg } from './dom.js';
import { Editor } from './editor.js';
import { pick, pickLanguage, stageTitle, wordsFor } from './i18n.js';
import { renderMatrix } from './matrix_view.js';
import { makeContext, perHead, sceneFor } from './steps.js';
import { createStore } from './store.js';
import { css } from './styles.js';
import { readUrl, specFragment, writeUrl } from './url_state.js';

const ALL_CONTROLS = ['examples', 'play', 'nav', 'timeline', 'speed', 'lang', 'edit', 'text', 'heads'];
const DEFAULT_CONTROLS = ['play', 'nav', 'timeline', 'speed', 'lang', 'text', 'heads'];
const SPEEDS = [0.5, 1, 2, 4];
/** Every trace the page computes stays within the core's interactive budget, so no edit freezes it. */
const PAGE_BUDGET = { budget: 'interactive' };

/** A user's text inside a notice: at most 80 characters (it is shown as text, never as markup). */
const short = (text) => (String(text).length > 80 ? `${String(text).slice(0, 80)}…` : String(text));

/** The controls an attribute asks for: "all", "none", or a comma/space separated list. */
export function parseControls(value) {
  if (value == null || value.trim() === '') return new Set(DEFAULT_CONTROLS);
  if (value.trim() === 'all') return new Set(ALL_CONTROLS);
  return new Set(value.split(/[\s,]+/).filter((c) => ALL_CONTROLS.includes(c)));
}

// [SECTION] set-up and attributes

export class AttentionStepper extends HTMLElement {
  static get observedAttributes() {
    return ['example', 'variant', 'spec', 'stage', 'lang', 'autoplay', 'controls'];
  }

  constructor() {
    super();
    this.root = this.attachShadow({ mode: 'open' });
    this.root.append(h('style', { text: css }));
    this.view = h('div', { className: 'stepper', attrs: { part: 'stepper' } });
    this.root.append(this.view);
    this.store = createStore({
      exampleId: '', variant: '', spec: null, edited: false, trace: null, error: null, lang: pickLanguage(),
      stageIndex: 0, progress: 1, playing: false, speed: 1, head: 0, editing: false,
    });
    this.animator = createAnimator(this.store, () => ({ steps: this.scene?.steps ?? 1, stages: this.stageIds().length }));
    this.store.subscribe((state, changed) => this.onState(state, changed));
    this.docs = new Map(); // example id -> its document (texts), from the core
    this.hovered = null;
    this.addEventListener('keydown', (e) => this.onKey(e));
  }

  connectedCallback() {
    if (this.started) return;
    this.started = true;
    if (!this.hasAttribute('tabindex')) this.tabIndex = 0;
    this.controls = parseControls(this.getAttribute('controls'));
    clear(this.view).append(h('p', { className: 'loading', text: wordsFor(pickLanguage(this.getAttribute('lang'))).loading }));
    Promise.all([createAttention(), this.options()])
      .then(([attention, options]) => {
        if (options.controls !== undefined) this.controls = parseControls(options.controls);
        this.store.set({ lang: pickLanguage(options.lang) });
        this.attention = attention;
        this.examples = attention.catalog();
        this.load(options);
      })
      .catch((error) => clear(this.view).append(h('p', { className: 'error', text: String(error?.message ?? error) })));
  }

  disconnectedCallback() {
    this.animator.stop();
  }

  attributeChangedCallback(name, old, value) {
    if (!this.attention || old === value) return;
    if (name === 'lang') this.store.set({ lang: pickLanguage(value) });
    else if (name === 'controls') {
      this.controls = parseControls(value);
      this.renderAll();
    } else if (name === 'stage') this.goTo(value);
    else if (name === 'autoplay') (value === null ? this.pause() : this.play());
    else this.options().then((options) => this.load(options));
  }

  /** Attributes, then (with url-state) the page's URL on top (async: a shared spec is compressed). */
  async options() {
    const a = (n) => this.getAttribute(n) ?? undefined;
    const fromAttrs = {
      example: a('example'), variant: a('variant'), spec: a('spec'), stage: a('stage'), lang: a('lang'),
      autoplay: this.hasAttribute('autoplay'), controls: undefined,
    };
    if (!this.hasAttribute('url-state')) return fromAttrs;
    const url = await readUrl(location.search, location.hash);
    // a URL that names an example without a spec means the example itself, not the attribute's spec
    if (url.example && !url.spec) fromAttrs.spec = undefined;
    return { ...fromAttrs, ...url };
  }

  // public, for pages and tests
  get trace() { return this.store.get().trace; }
  get stageId() { return this.stageIds()[this.store.get().stageIndex]; }
  stageIds() { return this.store.get().trace?.stages.map((s) => s.id) ?? []; }
  play() { this.animator.play(); }
  pause() { this.animator.pause(); }
  /** Shows stage id (complete); unknown ids are ignored. */
  goTo(id) {
    const index = this.stageIds().indexOf(id);
    if (index >= 0) this.store.set({ stageIndex: index, progress: 1, playing: false });
  }

  // [SECTION] loading examples and specs

  doc(id) {
    if (!id) return null;
    if (!this.docs.has(id)) this.docs.set(id, this.attention.example(id).example);
    return this.docs.get(id);
  }

  load(options) {
    const w = wordsFor(this.store.get().lang);
    let exampleId = options.example ?? '';
    let variant = options.variant ?? '';
    let trace;
    let edited = false;
    const ignored = []; // [option, value]: what a link or an attribute asked for and did not get
    if (options.lang !== undefined && options.lang !== 'en' && options.lang !== 'zh') ignored.push(['lang', options.lang]);
    try {
      if (options.spec !== undefined && options.spec !== null && options.spec !== '') {
        let spec;
        try {
          spec = JSON.parse(options.spec);
        } catch (e) {
          throw new Error(`the spec is not valid JSON (${e.message}).`);
        }
        trace = this.attention.trace(spec, PAGE_BUDGET);
        if (exampleId && !this.examples.some((e) => e.id === exampleId)) {
          ignored.push(['example', exampleId]);
          exampleId = '';
        }
        edited = !!exampleId;
      } else {
        if (!this.examples.some((e) => e.id === exampleId)) {
          if (exampleId) ignored.push(['example', exampleId]);
          exampleId = 'numpy-3x4';
        }
        const known = this.examples.find((e) => e.id === exampleId).variants;
        if (!known.includes(variant)) {
          if (variant) ignored.push(['variant', variant]);
          variant = '';
        }
        trace = this.attention.example(exampleId, variant);
        this.docs.set(exampleId, trace.example);
      }
    } catch (error) {
      clear(this.view).append(h('p', { className: 'error', attrs: { role: 'alert' }, text: error.message }),
        h('p', { className: 'status', text: w.lastGood }));
      if (!this.store.get().trace) return;
      this.renderAll();
      return;
    }
    const ids = trace.stages.map((s) => s.id);
    const stageIndex = Math.max(0, ids.indexOf(options.stage));
    if (options.stage && !ids.includes(options.stage)) ignored.push(['stage', options.stage]);
    const headParam = Number(options.head);
    const headOk = Number.isInteger(headParam) && headParam >= 1 && headParam <= trace.spec.heads;
    if (options.head !== undefined && !headOk) ignored.push(['head', options.head]);
    const head = headOk ? headParam - 1 : 0;
    const speedOk = SPEEDS.includes(Number(options.speed));
    if (options.speed !== undefined && !speedOk) ignored.push(['speed', options.speed]);
    const speed = speedOk ? Number(options.speed) : this.store.get().speed;
    this.ignored = ignored.map(([option, value]) => `${option} "${short(value)}"`);
    this.store.set({
      exampleId, variant, spec: trace.spec, trace, edited, error: null, stageIndex, head, speed,
      progress: options.autoplay ? 0 : 1, playing: false,
    });
    this.renderAll();
    if (!this.firstRender) {
      this.firstRender = true;
      performance.mark('attention-stepper:first-render');
    }
    if (options.autoplay) this.play();
  }

  chooseExample(id, variant = '') {
    this.load({ example: id, variant, stage: this.stageId, lang: this.store.get().lang });
  }

  // [SECTION] editing

  edit(field, change) {
    const s = this.store.get();
    const next = structuredClone(s.spec);
    performance.mark('attention-stepper:edit');
    try {
      change(next);
      const trace = this.attention.trace(next, PAGE_BUDGET);
      const ids = trace.stages.map((st) => st.id);
      const sameStages = ids.join() === this.stageIds().join();
      const keep = ids.indexOf(this.stageId);
      this.store.set({
        spec: trace.spec, trace, edited: true, error: null, head: Math.min(s.head, trace.spec.heads - 1),
        stageIndex: keep >= 0 ? keep : Math.min(s.stageIndex, ids.length - 1), progress: 0,
      });
      // the store's subscriber has redrawn the stage; a value edit moves only the panel's values,
      // a change of the stage list (a mask or PE switched) needs the timeline rebuilt too
      if (sameStages) this.editor?.update(trace.spec, null, wordsFor(s.lang));
      else this.renderAll();
      performance.mark('attention-stepper:edit-done'); // DOM updated; the frame that shows it follows
      requestAnimationFrame(() => performance.mark('attention-stepper:edit-rendered'));
      this.play(); // re-animate from the current stage
    } catch (error) {
      // the picture keeps the last good trace; the sentence goes beside the field
      this.store.set({ error: { field, message: error.message } });
      this.editor?.update(next, this.store.get().error, wordsFor(s.lang));
    }
  }

  resetToExample() {
    const s = this.store.get();
    if (s.exampleId) this.load({ example: s.exampleId, variant: s.variant, stage: this.stageId });
  }

  // [SECTION] rendering: whole view, stage, progress

  onState(state, changed) {
    if (!state.trace) return;
    if (changed.has('lang') || changed.has('editing')) this.renderAll();
    else if (changed.has('stageIndex') || changed.has('head') || changed.has('trace')) this.renderStage();
    if (changed.has('progress') || changed.has('playing') || changed.has('stageIndex') || changed.has('speed')) this.renderProgress();
    if (this.hasAttribute('url-state') && ['exampleId', 'variant', 'stageIndex', 'lang', 'spec', 'head', 'speed'].some((k) => changed.has(k))) {
      // the spec is compressed asynchronously: only the newest state's URL is written
      const query = writeUrl(state, this.stageId);
      const token = (this.urlToken = (this.urlToken ?? 0) + 1);
      specFragment(state).then((hash) => {
        if (token === this.urlToken) history.replaceState(history.state, '', query + hash);
      });
    }
    if (changed.has('stageIndex')) this.dispatchEvent(new CustomEvent('stagechange', { detail: { stage: this.stageId } }));
  }

  renderAll() {
    const s = this.store.get();
    if (!s.trace) return;
    const w = wordsFor(s.lang);
    const c = this.controls;
    const doc = this.doc(s.exampleId);
    this.host = {};
    const parts = [];
    if (this.ignored?.length) parts.push(h('p', { className: 'notice', attrs: { role: 'status' }, text: w.ignored(this.ignored) }));

    if (c.has('examples') || c.has('lang') || c.has('edit')) {
      const bar = h('div', { className: 'bar top' });
      if (c.has('examples')) {
        const options = this.examples.map((e) => h('option', { value: e.id, text: pick(e.title, s.lang), selected: e.id === s.exampleId }));
        if (!s.exampleId) options.unshift(h('option', { value: '', text: w.custom, selected: true }));
        bar.append(h('label', {}, `${w.example} `, h('select', {
          className: 'example', attrs: { 'aria-label': w.example },
          on: { change: (e) => e.target.value && this.chooseExample(e.target.value) },
        }, options)));
        const variants = this.examples.find((e) => e.id === s.exampleId)?.variants ?? [];
        if (variants.length) {
          bar.append(h('label', {}, `${w.variant} `, h('select', {
            className: 'variant', attrs: { 'aria-label': w.variant },
            on: { change: (e) => this.chooseExample(s.exampleId, e.target.value) },
          }, h('option', { value: '', text: '—', selected: !s.variant }),
          variants.map((v) => h('option', { value: v, text: pick(doc.variants.find((x) => x.id === v)?.title, s.lang) || v, selected: v === s.variant })))));
        }
      }
      bar.append(h('span', { className: 'grow' }));
      if (c.has('edit')) {
        bar.append(h('button', {
          type: 'button', className: 'edit', text: w.edit, attrs: { 'aria-pressed': String(s.editing) },
          on: { click: () => this.store.set({ editing: !this.store.get().editing }) },
        }));
      }
      if (c.has('lang')) {
        for (const [lang, label] of [['en', 'English'], ['zh', '中文']]) {
          bar.append(h('button', {
            type: 'button', className: `lang lang-${lang}`, text: label, attrs: { 'aria-pressed': String(s.lang === lang), lang },
            on: { click: () => this.store.set({ lang }) },
          }));
        }
      }
      parts.push(bar);
    }

    if (c.has('text')) {
      if (doc) {
        parts.push(h('h2', { className: 'title', text: pick(doc.title, s.lang) }),
          h('p', { className: 'summary', text: pick(doc.summary, s.lang) }),
          h('details', {}, h('summary', { text: w.embeddings }), h('p', { text: pick(doc.embeddings, s.lang) })));
      } else {
        parts.push(h('h2', { className: 'title', text: w.custom }));
      }
    }

    this.stageEl = h('div', { className: 'stage' });
    parts.push(this.stageEl);

    const bar = h('div', { className: 'bar controls' });
    if (c.has('nav')) bar.append(h('button', { type: 'button', className: 'prev', text: '◀', attrs: { 'aria-label': w.previous }, on: { click: () => this.step(-1) } }));
    if (c.has('play')) {
      this.host.play = h('button', { type: 'button', className: 'play', on: { click: () => (this.store.get().playing ? this.pause() : this.play()) } });
      bar.append(this.host.play);
    }
    if (c.has('nav')) bar.append(h('button', { type: 'button', className: 'next', text: '▶', attrs: { 'aria-label': w.next }, on: { click: () => this.step(1) } }));
    if (c.has('speed')) {
      bar.append(h('label', {}, `${w.speed} `, h('select', {
        className: 'speed', attrs: { 'aria-label': w.speed },
        on: { change: (e) => this.store.set({ speed: Number(e.target.value) }) },
      }, SPEEDS.map((v) => h('option', { value: String(v), text: `${v}×`, selected: v === s.speed })))));
    }
    this.host.status = h('span', { className: 'status', attrs: { 'aria-live': 'polite' } });
    bar.append(this.host.status);
    if (bar.childNodes.length > 1) parts.push(bar);

    if (c.has('timeline')) {
      const n = s.trace.stages.length;
      this.host.range = h('input', {
        type: 'range', className: 'scrub', min: '0', max: String(n * 1000 - 1), step: '1', attrs: { 'aria-label': w.timeline },
        on: { input: (e) => {
          const v = Number(e.target.value);
          this.store.set({ playing: false, stageIndex: Math.floor(v / 1000), progress: Math.min(1, (v % 1000) / 999) });
        } },
      });
      this.host.stageButtons = s.trace.stages.map((st, i) => h('button', {
        type: 'button', text: stageTitle(st, s.lang), dataset: { stage: st.id }, attrs: { title: st.id },
        on: { click: () => this.store.set({ stageIndex: i, progress: 1, playing: false }) },
      }));
      parts.push(h('div', { className: 'timeline', attrs: { role: 'group', 'aria-label': w.timeline } }, this.host.range,
        h('div', { className: 'stages' }, this.host.stageButtons)));
    }

    if (s.editing && c.has('edit')) {
      this.editor ??= new Editor({ onEdit: (field, change) => this.edit(field, change), onReset: () => this.resetToExample() });
      this.editor.structure = '';
      this.editor.update(s.spec, s.error, w);
      parts.push(this.editor.el);
    }

    if (s.exampleId === 'complexity' && doc?.sizes) {
      const panel = complexityPanel(this.attention, doc, w);
      parts.push(panel.el);
      if (!this.measured) {
        this.measured = true;
        setTimeout(panel.run, 50);
      }
    }

    clear(this.view).append(...parts);
    this.view.lang = s.lang === 'zh' ? 'zh-CN' : 'en';
    this.renderStage();
    this.renderProgress();
  }

  renderStage() {
    const s = this.store.get();
    if (!this.stageEl) return;
    const w = wordsFor(s.lang);
    const stage = s.trace.stages[s.stageIndex];
    const ctx = makeContext(s.trace);
    const doc = this.doc(s.exampleId);
    this.scene = sceneFor(ctx, stage.id, s.head);
    this.hovered = null;
    const parts = [
      h('div', { className: 'stage-head' },
        h('span', { className: 'stage-title', text: stageTitle(stage, s.lang) }),
        h('code', { className: 'formula', text: stage.formula })),
    ];
    if (this.controls.has('text')) {
      parts.push(h('p', { className: 'explain', text: pick(stage.explain, s.lang) }));
      const note = doc?.notes?.[stage.id];
      if (note) parts.push(h('p', { className: 'note', text: pick(note, s.lang) }));
    }
    if (perHead.has(stage.id) && ctx.heads > 1 && this.controls.has('heads')) {
      parts.push(h('div', { className: 'heads', attrs: { role: 'group', 'aria-label': w.head } },
        Array.from({ length: ctx.heads }, (_, i) => h('button', {
          type: 'button', text: `${w.head} ${i + 1}`, attrs: { 'aria-pressed': String(i === s.head) },
          on: { click: () => this.store.set({ head: i }) },
        }))));
    }
    const sceneEl = h('div', { className: 'scene', dataset: { stage: stage.id } });
    this.views = new Map();
    this.scene.matrices.forEach((m, k) => {
      const view = renderMatrix(m, { words: w });
      this.views.set(m.key, view);
      if (k > 0 && m.role === 'result') sceneEl.append(h('span', { className: 'op', text: '→', attrs: { 'aria-hidden': 'true' } }));
      sceneEl.append(view.el);
      if (view.cells[0]?.[0]) view.cells[0][0].tabIndex = 0; // one tab stop per matrix; arrows move inside
    });
    if (this.scene.sinusoid) sceneEl.append(this.sinusoid(ctx));
    sceneEl.addEventListener('pointerover', (e) => this.onCellEvent(e));
    sceneEl.addEventListener('focusin', (e) => this.onCellEvent(e));
    sceneEl.addEventListener('pointerleave', () => { this.hovered = null; this.renderProgress(); });
    this.caption = h('div', { className: 'caption', attrs: { 'aria-live': 'polite' } });
    parts.push(sceneEl, this.caption);
    clear(this.stageEl).append(...parts);
    if (this.host.stageButtons) {
      this.host.stageButtons.forEach((b, i) => {
        b.classList.toggle('done', i < s.stageIndex);
        b.setAttribute('aria-current', i === s.stageIndex ? 'step' : 'false');
      });
    }
  }

  /** The first few PE columns as curves over the positions: the sinusoids being added. */
  sinusoid(ctx) {
    const pe = ctx.byId.get('pe');
    const [n, d] = pe.shape;
    const W = 260, H = 90;
    const g = svg('svg', { viewBox: `0 0 ${W} ${H}`, width: W, height: H, class: 'sinusoid', role: 'img', 'aria-label': 'PE columns over positions' });
    const colors = ['#c0392b', '#2c6fbb', '#27ae60', '#8e44ad'];
    for (let j = 0; j < Math.min(4, d); j++) {
      const points = Array.from({ length: n }, (_, i) => `${(i / Math.max(1, n - 1)) * (W - 10) + 5},${H / 2 - pe.data[i * d + j] * (H / 2 - 6)}`).join(' ');
      g.append(svg('polyline', { points, fill: 'none', stroke: colors[j], 'stroke-width': 1.5 }));
    }
    return g;
  }

  renderProgress() {
    const s = this.store.get();
    if (!this.scene || !this.views) return;
    const w = wordsFor(s.lang);
    const { steps, order, resultMatrix } = this.scene;
    const revealed = s.progress >= 1 ? steps : Math.floor(s.progress * steps) + 1;
    const view = this.views.get(this.scene.result);
    for (const line of view.cells) {
      for (const td of line) {
        const i = Number(td.dataset.i), j = Number(td.dataset.j);
        const index = order === 'rows' ? i : i * resultMatrix.cols + j;
        td.classList.toggle('hidden', index >= revealed);
        td.classList.toggle('current', s.progress < 1 && index === revealed - 1);
      }
    }
    for (const v of this.views.values()) for (const line of v.cells) for (const td of line) td.classList.remove('hl');
    let text = '';
    const target = this.hovered ?? (s.progress < 1 ? this.stepCell(revealed - 1) : null);
    if (target && target.key === this.scene.result) {
      const { text: t, highlights } = this.scene.explain(target.i, target.j);
      text = t;
      for (const hl of highlights) this.highlight(hl);
    } else if (target) {
      const m = this.views.get(target.key)?.m;
      text = m ? `${m.label}[${target.i + 1}][${target.j + 1}] = ${m.value(target.i, target.j)}` : '';
    } else {
      text = w.hover;
    }
    if (this.caption) this.caption.textContent = text;
    if (this.host.play) {
      this.host.play.textContent = s.playing ? `❚❚ ${w.pause}` : `► ${w.play}`;
      this.host.play.setAttribute('aria-pressed', String(s.playing));
    }
    if (this.host.range) this.host.range.value = String(s.stageIndex * 1000 + Math.round(Math.min(1, s.progress) * 999));
    if (this.host.status) this.host.status.textContent = w.stageOf(s.stageIndex + 1, s.trace.stages.length);
  }

  stepCell(step) {
    const { order, resultMatrix } = this.scene;
    if (step < 0) return null;
    return order === 'rows' ? { key: this.scene.result, i: step, j: 0 } : { key: this.scene.result, i: Math.floor(step / resultMatrix.cols), j: step % resultMatrix.cols };
  }

  highlight({ key, row, col, cell }) {
    const view = this.views.get(key);
    if (!view) return;
    view.cells.forEach((line, i) => line.forEach((td, j) => {
      const on = cell ? cell[0] === i && cell[1] === j : (row === undefined || row === i) && (col === undefined || col === j);
      if (on) td.classList.add('hl');
    }));
  }

  step(delta) {
    const s = this.store.get();
    const index = Math.max(0, Math.min(s.trace.stages.length - 1, s.stageIndex + delta));
    this.store.set({ stageIndex: index, progress: s.playing ? 0 : 1 });
  }

  // [SECTION] keyboard and pointer

  onCellEvent(e) {
    const td = e.target.closest?.('td.cell');
    if (!td) return;
    this.hovered = { key: td.dataset.key, i: Number(td.dataset.i), j: Number(td.dataset.j) };
    this.renderProgress();
  }

  onKey(e) {
    const target = e.composedPath()[0];
    const tag = target?.tagName;
    if (tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA') return;
    if (target?.classList?.contains('cell') && e.key.startsWith('Arrow')) {
      this.moveInGrid(target, e.key);
      e.preventDefault();
      return;
    }
    if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') {
      this.step(e.key === 'ArrowLeft' ? -1 : 1);
      e.preventDefault();
    } else if (e.key === ' ' && tag !== 'BUTTON') {
      if (this.store.get().playing) this.pause();
      else this.play();
      e.preventDefault();
    }
  }

  moveInGrid(td, key) {
    const view = this.views.get(td.dataset.key);
    let i = Number(td.dataset.i), j = Number(td.dataset.j);
    if (key === 'ArrowUp') i--;
    if (key === 'ArrowDown') i++;
    if (key === 'ArrowLeft') j--;
    if (key === 'ArrowRight') j++;
    const next = view.cells[i]?.[j];
    if (!next) return;
    td.tabIndex = -1;
    next.tabIndex = 0;
    next.focus();
  }
}
