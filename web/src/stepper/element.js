// <attention-stepper>: one worked example (or an author's own spec) animated stage by stage,
// every number read from the WebAssembly core's trace.
//
// Attributes: example, variant, spec (inline JSON), stage, lang (en|zh), view (matrix|lines: how the
// weights are drawn; by default lines for the sentence examples), autoplay,
// controls ("all", "none", or a list of: examples play nav timeline speed lang edit text heads),
// url-state (read the options from the page URL and keep the URL in step, for sharing).
//
// The element wires the store to the views; each job has its own file: options.js (what to show),
// chrome.js (Chrome: the bars, the caption's box and the timeline, keeping the nodes it updates; its
// controls act through the actions given below), formula_map.js (the strip of terms, marked by stage),
// stage_view.js (StageArea: the picture and its caption, with its own state — scene, drawn views, hovered
// cell — drawn from the store, the core and the example), stage_texts.js (the stage's words),
// keyboard.js, editor.js, url_state.js, animator.js.
//
// [SECTION] set-up and attributes
// [SECTION] loading examples and specs
// [SECTION] editing
// [SECTION] rendering
import { pageAttention } from './page_core.js';
import { createAnimator } from './animator.js';
import { Chrome } from './chrome.js';
import { complexityViews } from './complexity_ready.js';
import { clear, h } from './dom.js';
import { blockDiagram } from './block_diagram.js';
import { StageTexts } from './stage_texts.js';
import { Editor } from './editor.js';
import { later } from './later.js';
import { visionViews } from './vision_ready.js';
import { formulaMap } from './formula_map.js';
import { pick, pickLanguage, wordsFor } from './i18n.js';
import { onKey } from './keyboard.js';
import { describeIgnored, hasSpec, pickExample, pickView, readOptions, VIEWS } from './options.js';
import { StageArea } from './stage_view.js';
import { shownStageFor, shownStages } from './steps.js';
import { createStore } from './store.js';
import { fileName, stageData, toCSV, toJSON, toLaTeX, toPNG, toSVG } from './export.js';
import { embedCode, exportMenu } from './share.js';
import { css } from './styles.js';
import { specFragment, writeUrl } from './url_state.js';

const ALL_CONTROLS = ['examples', 'play', 'nav', 'timeline', 'speed', 'lang', 'edit', 'text', 'heads', 'export'];
const DEFAULT_CONTROLS = ['play', 'nav', 'timeline', 'speed', 'lang', 'text', 'heads', 'export'];
/** compact: the figure for a blog column — the stage's heading, the picture, the caption, ◀ ► ▶. */
const COMPACT_CONTROLS = ['play', 'nav', 'heads'];
/** Every trace the page computes stays within the core's interactive budget, so no edit freezes it. */
const PAGE_BUDGET = { budget: 'interactive' };
/** The worked examples in the order a reader meets them: ▶| past an example's last stage offers the next. */
const READING_ORDER = ['numpy-3x4', 'basic-attention', 'score-functions', 'translation', 'long-range', 'bank', 'coreference',
  'multi-head', 'masking', 'positional-encoding', 'context-window', 'online-softmax', 'complexity', 'se-block', 'eca-block',
  'cbam-block', 'coordinate-attention'];

/**
 * The labels an example's document gives in Chinese (tokens_zh, channels_zh) as a patch of its spec, or null:
 * labels only, so the numbers stay the example's, and the core's own labels and captions say them too.
 */
function zhLabels(doc, spec) {
  if (doc?.channels_zh && doc.channels_zh.length === spec.channels?.length) return { channels: doc.channels_zh };
  const tokens = doc?.tokens_zh;
  return tokens && tokens.query?.length === spec.tokens?.query?.length ? { tokens: { ...spec.tokens, ...tokens } } : null;
}

/** The controls of a compact element: its own list when it names one, else COMPACT_CONTROLS. */
const controlsOf = (compact, value) => (compact && value == null ? new Set(COMPACT_CONTROLS) : parseControls(value));

/** The controls an attribute asks for: "all", "none", or a comma/space separated list. */
export function parseControls(value) {
  if (value == null || value.trim() === '') return new Set(DEFAULT_CONTROLS);
  if (value.trim() === 'all') return new Set(ALL_CONTROLS);
  return new Set(value.split(/[\s,]+/).filter((c) => ALL_CONTROLS.includes(c)));
}

// [SECTION] set-up and attributes

export class AttentionStepper extends HTMLElement {
  static get observedAttributes() {
    return ['example', 'variant', 'spec', 'stage', 'lang', 'autoplay', 'controls', 'view', 'compact'];
  }

  constructor() {
    super();
    this.root = this.attachShadow({ mode: 'open' });
    this.root.append(h('style', { text: css }));
    this.view = h('div', { className: 'stepper', attrs: { part: 'stepper' } });
    this.root.append(this.view);
    this.store = createStore({
      exampleId: '', variant: '', spec: null, edited: false, trace: null, error: null, lang: 'en',
      stageIndex: 0, progress: 1, playing: false, animated: false, speed: 1, head: 0, view: null, editing: false,
      offer: null, // the example ▶| offers past the last stage (an id), or null
    });
    // the picture and its caption: its own state, drawn from the store, the core and the example
    this.area = new StageArea({ store: this.store, attention: null, controls: () => this.controls, working: (p) => this.working(p) });
    this.texts = new StageTexts(); // the stage's heading and words
    // the bars, the caption's box and the timeline; their controls act on the store and the animation
    this.chrome = new Chrome({
      chooseExample: (id, variant) => this.chooseExample(id, variant),
      toggleEdit: () => this.store.set({ editing: !this.store.get().editing }),
      setLang: (lang) => this.store.set({ lang }),
      togglePlay: () => (this.store.get().playing ? this.pause() : this.play()),
      step: (delta) => this.step(delta),
      stepCell: (delta) => this.stepCell(delta),
      setSpeed: (speed) => this.store.set({ speed }),
      resetToExample: () => this.resetToExample(),
      seek: (stageIndex, progress) => this.store.set({ playing: false, animated: false, stageIndex, progress }),
      show: (index) => this.show(index),
      takeOffer: () => this.takeOffer(),
      toggleDetail: () => { this.area.detail = !this.area.detail; this.renderProgress(); },
    });
    this.animator = createAnimator(this.store, () => ({ steps: this.area.steps, stages: this.stageIds().length }));
    this.store.subscribe((state, changed) => this.onState(state, changed));
    this.docs = new Map(); // example id -> its document (texts), from the core
    this.addEventListener('keydown', (e) => onKey(this, e));
    // page-keys: the page's own arrows and space drive the stepper while nothing else has the focus
    // (the playground), so it need not be focused on load with a ring around everything
    this.pageKeys = (e) => {
      // with a modifier the key is the browser's (Alt+← goes back) or the reader's own shortcut
      if (e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
      if (this.hasAttribute('page-keys') && (e.target === document.body || e.target === document.documentElement)) onKey(this, e);
    };
  }

  connectedCallback() {
    document.addEventListener('keydown', this.pageKeys); // again after a move in the page (disconnect removed it)
    if (this.started) return;
    this.started = true;
    // a tab stop for its keys; with page-keys the page's own keys drive it, and no ring goes round it all
    if (!this.hasAttribute('tabindex') && !this.hasAttribute('page-keys')) this.tabIndex = 0;
    this.controls = parseControls(this.getAttribute('controls'));
    this.view.classList.add('pending');
    clear(this.view).append(h('p', { className: 'loading', text: wordsFor(this.language(this.getAttribute('lang'))).loading }),
      h('div', { className: 'skeleton title' }), h('div', { className: 'skeleton line' }), h('div', { className: 'skeleton grid' }));
    /** Settles once the core is loaded and the first view drawn (the train mode waits for it). */
    this.ready = Promise.all([pageAttention(), readOptions(this)])
      .then(([attention, options]) => {
        this.compact = !!options.compact;
        this.controls = controlsOf(this.compact, options.controls ?? this.getAttribute('controls'));
        this.store.set({ lang: this.language(options.lang) });
        this.attention = attention;
        this.area.attention = attention;
        // the core's worker found dead while the page was idle: said at once, not at the reader's next step
        this.stopWatchingLoss?.();
        this.stopWatchingLoss = attention.onLost?.(() => {
          this.workerLost = true;
          if (this.store.get().trace && this.isConnected) this.renderAll();
        });
        this.examples = attention.catalog();
        return this.load(options);
      })
      .then(() => {
        if (this.changedWhileLoading) {
          this.changedWhileLoading = false;
          return readOptions(this).then((again) => this.load(again));
        }
      })
      .catch((error) => clear(this.view).append(h('p', { className: 'error', text: String(error?.message ?? error) })));
  }

  disconnectedCallback() {
    this.animator.stop();
    this.stopWatchingLoss?.();
    this.stopWatchingLoss = null;
    document.removeEventListener('keydown', this.pageKeys);
  }

  attributeChangedCallback(name, old, value) {
    if (old === value) return;
    if (!this.attention) {
      // set while the core loads: read again once it has (the options were read when the element connected)
      if (this.ready) this.changedWhileLoading = true;
      return;
    }
    if (name === 'lang') this.store.set({ lang: this.language(value) });
    else if (name === 'controls' || name === 'compact') {
      this.compact = this.hasAttribute('compact');
      this.controls = controlsOf(this.compact, this.getAttribute('controls'));
      this.renderAll();
    } else if (name === 'stage') this.goTo(value);
    else if (name === 'view') this.store.set({ view: VIEWS.includes(value) ? value : null });
    else if (name === 'autoplay') (value === null ? this.pause() : this.play());
    else readOptions(this).then((options) => this.load(options));
  }

  /**
   * The language to show: `requested` (attribute or URL) when it is en or zh, else the closest
   * ancestor's lang (a post in <html lang="zh-CN"> gets Chinese), else the browser's. A page the
   * element owns (url-state: the playground, the iframe route) follows its URL, then the browser.
   */
  language(requested) {
    let pageLang = null;
    if (!this.hasAttribute('url-state')) {
      for (let n = this.parentNode; n && !pageLang; n = n.parentNode ?? n.host) {
        if (n.nodeType === Node.ELEMENT_NODE && n.hasAttribute('lang')) pageLang = n.getAttribute('lang');
      }
    }
    return pickLanguage(requested, pageLang);
  }

  // public, for pages and tests
  get trace() { return this.store.get().trace; }
  get stageId() { return this.stageIds()[this.store.get().stageIndex]; }
  /** The gradients shown under the stages (inspect, showComputed): {spec, result, modelLoss}, or null. */
  get gradients() { return this.area.gradients; }
  /** The stages a reader steps through (shownStages: with one head, concat is folded into context). */
  stageIds() { return this.store.get().trace ? shownStages(this.store.get().trace).map((s) => s.id) : []; }
  play() { this.area.hovered = null; this.animator.play(); } // the animation's cell takes the caption again
  pause() { this.animator.pause(); }
  /** The current stage's tensor with its labels: {example, stage, title, formula, shape, head, rows, cols, data}. */
  stageData() { return stageData(this); }
  /** The current stage as an SVG figure (text kept as text), as SVG source. */
  toSVG() { return toSVG(this); }
  /** The current stage's figure as a PNG at twice the device pixel ratio. */
  toPNG() { return toPNG(this); }
  /** The current stage's tensor as CSV, or as JSON text. */
  toCSV() { return toCSV(stageData(this)); }
  toJSON() { return toJSON(stageData(this)); }
  /** Every result cell's arithmetic of the current stage (and head) as a LaTeX align* block (a promise). */
  toLaTeX() { return toLaTeX(this); }
  /** The snippets for this view: {script: '<script …> + <attention-stepper …>', iframe: '<iframe …>'}. */
  embedCode() { return embedCode(this); }
  /** The file name the Export menu gives a format, e.g. attention-translation-weights.svg. */
  exportName(ext) { return fileName(this, ext); }
  /** Shows stage id (complete); unknown ids are ignored. */
  goTo(id) {
    const trace = this.store.get().trace;
    const index = trace ? this.stageIds().indexOf(shownStageFor(trace, id)) : -1;
    if (index >= 0) this.show(index);
  }

  // [SECTION] loading examples and specs

  doc(id) {
    if (!id) return null;
    if (!this.docs.has(id)) this.docs.set(id, this.attention.exampleDocument(id));
    return this.docs.get(id);
  }

  /**
   * Shows what options ask for: a spec of their own, else an example (and variant), at a stage.
   * refusedLink: the sentence of a link's spec that could not be shown, drawn above the example instead.
   */
  load(options, refusedLink = null) {
    return this.working(this.loadNow(options, refusedLink));
  }

  async loadNow(options, refusedLink) {
    if (options.specRefused) return this.load({ ...options, spec: undefined, specRefused: undefined }, options.specRefused);
    const ignored = []; // [option, value]: what a link or an attribute asked for and did not get
    const { exampleId, variant } = pickExample(options, this.examples, ignored);
    const ticket = this.newTicket();
    let trace;
    try {
      // the worker computes: the page keeps drawing meanwhile, and an answer overtaken by newer input is dropped
      trace = await (hasSpec(options) ? this.attention.trace(parseSpec(options.spec), PAGE_BUDGET) : this.exampleTrace(exampleId, variant));
    } catch (error) {
      if (ticket !== this.ticket) return;
      // a link whose spec cannot be shown, opened afresh: its sentence above an example, not an empty box
      if (hasSpec(options) && !this.store.get().trace) return this.load({ ...options, spec: undefined }, error.message);
      this.showLoadError(error);
      return;
    }
    this.workerLost = false; // a worker answered: the next drawing has no notice of the lost one
    if (ticket !== this.ticket) return;
    // the code that draws it, where the page has not loaded it yet: the complexity example's panels, a vision block's views
    try {
      await this.viewsFor(trace, exampleId);
    } catch (error) {
      if (ticket === this.ticket) this.showLoadError(error);
      return;
    }
    if (ticket !== this.ticket) return;
    // a refusal stays drawn above the picture until the next good input (renderAll draws it)
    this.refusal = refusedLink ? { text: refusedLink, link: true } : null;
    const view = pickView(options, trace, this.store.get().speed, ignored);
    this.ignored = describeIgnored(ignored);
    this.store.set({
      exampleId, variant, spec: trace.spec, trace, edited: hasSpec(options) && !!exampleId, error: null, ...view,
      progress: options.autoplay ? 0 : 1, playing: false, animated: false, offer: null,
    });
    this.renderAll();
    if (!this.firstRender) {
      this.firstRender = true;
      performance.mark('attention-stepper:first-render');
    }
    if (options.autoplay) this.play();
  }

  /** Loads the code that draws trace (fetched on demand: on_demand.js), if any; rejects with why it could not. */
  async viewsFor(trace, exampleId = null) {
    if (exampleId === 'complexity') await complexityViews.ready();
    if (trace.kind === 'vision') await visionViews.ready();
  }

  /**
   * An example's trace, in zh with the Chinese labels its document gives (a label changes no number): the
   * core then names the rows, columns and captions' cells so too.
   */
  async exampleTrace(id, variant) {
    const trace = await this.attention.example(id, variant);
    const labels = this.store.get().lang === 'zh' && zhLabels(this.doc(id), trace.spec);
    return labels ? this.attention.trace({ ...trace.spec, ...labels }, PAGE_BUDGET) : trace;
  }

  /** Counts work on its way to the core's worker, for settled(). */
  working(promise) {
    this.pending = (this.pending ?? 0) + 1;
    return promise.finally(() => {
      if (--this.pending === 0) (this.waiters ?? []).splice(0).forEach((resolve) => resolve());
    });
  }

  /** Settles when every load, edit and inspect asked for so far has been drawn (or refused): for pages and tests. */
  settled() {
    if (!this.pending) return Promise.resolve();
    return new Promise((resolve) => (this.waiters ??= []).push(resolve));
  }

  /** A number for the newest input that computes: an answer for an older one finds it changed and is dropped. */
  newTicket() {
    this.ticket = (this.ticket ?? 0) + 1;
    return this.ticket;
  }

  /**
   * A spec (attribute, URL) or an example switch that cannot be shown: its sentence above the last good
   * picture, kept there through every redraw until the next good input; alone when there is no picture.
   */
  showLoadError(error) {
    const text = String(error?.message ?? error);
    if (this.store.get().trace) {
      this.refusal = { text, link: false };
      this.renderAll();
      return;
    }
    clear(this.view).append(h('p', { className: 'error', attrs: { role: 'alert' }, text })); // no picture to keep
  }

  /** Shows another example where the reader is (stage, language, view kept); settles once it is drawn. */
  chooseExample(id, variant = '') {
    return this.load({ example: id, variant, stage: this.stageId, lang: this.store.get().lang, view: this.store.get().view ?? undefined });
  }

  // [SECTION] editing

  edit(field, change) {
    return this.working(this.editNow(field, change));
  }

  async editNow(field, change) {
    const s = this.store.get();
    const next = structuredClone(s.spec);
    performance.mark('attention-stepper:edit');
    const ticket = this.newTicket();
    try {
      change(next);
      const trace = await this.attention.trace(next, PAGE_BUDGET);
      await this.viewsFor(trace);
      if (ticket !== this.ticket) return;
      if (this.refusal) this.refusalBanner.forEach((p) => p.remove()), (this.refusal = null); // about the last input, not this edit
      const sameStages = this.showInPlace(trace, true);
      // the store's subscriber has redrawn the stage; a value edit moves only the panel's values,
      // a change of the stage list (a mask or PE switched) needs the timeline rebuilt too
      if (sameStages) this.editor?.update(trace.spec, null, wordsFor(s.lang));
      else this.renderAll();
      performance.mark('attention-stepper:edit-done'); // DOM updated; the frame that shows it follows
      requestAnimationFrame(() => performance.mark('attention-stepper:edit-rendered'));
    } catch (error) {
      if (ticket !== this.ticket) return;
      // the picture keeps the last good trace; the sentence goes beside the field
      this.store.set({ error: { field, message: error.message } });
      this.editor?.update(next, this.store.get().error, wordsFor(s.lang));
    }
  }

  /**
   * Shows spec in place, the stage, head and view kept: the train mode's live view of one data item as it
   * trains. With loss fields ({loss: 'mse', target} or {loss: 'cross_entropy', labels}) each stage shows its
   * gradient dL/d(stage) under it, from the core's backward pass. With {loss: 'upstream', upstream} (the
   * gradient a later loss sends back, e.g. a language model's: lm.layerGrad) modelLoss is that loss's value,
   * named under each gradient. Rejects with the core's AttentionError.
   */
  inspect(spec, lossFields = null, modelLoss = undefined) {
    return this.working(this.inspectNow(spec, lossFields, modelLoss));
  }

  async inspectNow(spec, lossFields, modelLoss) {
    const ticket = this.newTicket();
    const trace = await this.attention.trace(spec, PAGE_BUDGET);
    const gradSpec = lossFields && { ...trace.spec, ...lossFields };
    const result = gradSpec ? await this.attention.grad(gradSpec) : null;
    if (ticket === this.ticket) await this.showComputed(trace, result && { spec: gradSpec, result, modelLoss });
  }

  /**
   * Shows a trace computed elsewhere (the train mode's worker call), in place, with its gradients
   * ({spec, result} from the core's a.grad) or null, once the code that draws it is loaded (viewsFor).
   */
  async showComputed(trace, gradients) {
    const ticket = this.newTicket(); // an older load or edit still on its way is not shown over this
    await this.viewsFor(trace);
    if (ticket !== this.ticket) return;
    this.area.gradients = gradients;
    if (!this.showInPlace(trace, false)) this.renderAll(); // otherwise the store's subscriber has redrawn the stage and its gradient
  }

  /**
   * Shows a new trace where the reader is, finished: the same stage (or the nearest), the same head.
   * Returns whether the list of stages stayed the same (if not, the timeline needs rebuilding).
   */
  showInPlace(trace, edited) {
    const s = this.store.get();
    if (this.workerLost) (this.workerLost = false), this.lostNotice?.remove(); // a new worker answered
    const ids = shownStages(trace).map((st) => st.id);
    const sameStages = ids.join() === this.stageIds().join();
    const keep = ids.indexOf(this.stageId);
    this.store.set({
      spec: trace.spec, trace, edited, error: null, head: Math.min(s.head, trace.spec.heads - 1),
      stageIndex: keep >= 0 ? keep : Math.min(s.stageIndex, ids.length - 1), progress: 1, playing: false, animated: false,
    });
    return sameStages;
  }

  resetToExample() {
    const s = this.store.get();
    if (s.exampleId) this.load({ example: s.exampleId, variant: s.variant, stage: this.stageId, view: s.view ?? undefined });
  }

  // [SECTION] rendering

  onState(state, changed) {
    // the page's own words follow (site/page_lang.js); composed: it leaves a trainer's shadow root too
    if (changed.has('lang')) this.dispatchEvent(new CustomEvent('langchange', { bubbles: true, composed: true, detail: { lang: state.lang } }));
    if (!state.trace) return;
    // an example with labels in Chinese is traced again with the reader's language's (an edit keeps its own)
    const doc = changed.has('lang') && !state.edited && this.doc(state.exampleId);
    if (doc && (doc.tokens_zh || doc.channels_zh)) this.load({ example: state.exampleId, variant: state.variant, stage: this.stageId, view: state.view ?? undefined });
    if (changed.has('lang') || changed.has('editing')) this.renderAll();
    else if (changed.has('stageIndex') || changed.has('head') || changed.has('trace') || changed.has('view')) this.renderStage();
    if (['progress', 'playing', 'stageIndex', 'speed', 'offer'].some((k) => changed.has(k))) this.renderProgress();
    if (this.hasAttribute('url-state') && ['exampleId', 'variant', 'stageIndex', 'lang', 'spec', 'head', 'speed', 'view'].some((k) => changed.has(k))) {
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
    this.chrome.reset();
    this.formula = null;
    const parts = [];
    let fillEditor = false;
    if (this.refusal) {
      this.refusalBanner = [h('p', { className: 'error link-refused', attrs: { role: 'alert' }, text: this.refusal.text }),
        h('p', { className: 'status', text: this.refusal.link ? w.linkRefused : w.lastGood })];
      parts.push(...this.refusalBanner);
    }
    if (this.ignored?.length) parts.push(h('p', { className: 'notice', attrs: { role: 'status' }, text: w.ignored(this.ignored) }));
    this.lostNotice = this.workerLost ? h('p', { className: 'notice worker-lost', attrs: { role: 'alert' }, text: w.workerLost }) : null;
    if (this.lostNotice) parts.push(this.lostNotice);
    if (c.has('examples') || c.has('lang') || c.has('edit')) parts.push(this.chrome.topBar(s, w, doc, c, this.examples));
    if (c.has('text')) parts.push(...this.chrome.exampleText(s, w, doc));
    const vision = s.trace.kind === 'vision'; // a vision block: no QKV formula and no Transformer block around it
    this.view.classList.toggle('compact', !!this.compact);
    if (!vision && !this.compact) {
      this.formula = formulaMap(this.attention.stages(), s, w, (id) => this.goTo(id));
      parts.push(this.formula.el);
    }
    if (c.has('text') && !vision) parts.push(blockDiagram(this, w, s.lang));
    // Top to bottom, everything whose height changes from stage to stage comes last: the timeline
    // and the stacked stage words keep one height for the example, so the controls and the caption
    // under them never move, and only the picture below them changes size.
    if (c.has('timeline')) parts.push(this.chrome.timeline(s, w));
    parts.push(...this.texts.build(w));
    const controls = this.chrome.controlBar(s, w, c);
    const pinned = h('div', { className: 'pinned' }, controls, this.chrome.captionRow(this.area.detail));
    // a sticky edit panel sits under the pinned controls, not under them (styles.js: --pinned-height)
    this.pinnedObserver?.disconnect();
    if (typeof ResizeObserver !== 'undefined') {
      this.pinnedObserver = new ResizeObserver(() => this.view.style.setProperty('--pinned-height', `${pinned.offsetHeight}px`));
      this.pinnedObserver.observe(pinned);
    }
    parts.push(pinned);
    const box = h('div', { className: 'stage' });
    this.area.attach(box, this.chrome.caption, this.chrome.detail); // a new box: drawn afresh, not refreshed
    this.tallest?.disconnect(); // the old box is gone
    this.tallest = keepTallest(box);
    // editing: the panel beside the picture on a wide screen (styles.js), so the picture changes in view
    const work = h('div', { className: `work${s.editing && c.has('edit') ? ' editing' : ''}` }, box);
    parts.push(work);
    if (s.editing && c.has('edit') && vision) {
      work.append(visionViews.get().visionEditor(this, s, w));
    } else if (s.editing && c.has('edit')) {
      this.editor ??= new Editor({
        schema: this.attention.schema().sequence, // the core's field tables: the fields drawn and the kinds offered
        onEdit: (field, change) => this.edit(field, change), onReset: () => this.resetToExample(),
      });
      this.editor.structure = '';
      fillEditor = true;
      work.append(this.editor.el);
    }
    if (s.exampleId === 'complexity' && doc?.sizes) {
      const { complexityPanel, pathsPanel } = complexityViews.get();
      const panel = complexityPanel(this.attention, doc, w);
      parts.push(panel.el);
      if (doc.streaming_sizes) parts.push(pathsPanel(this.attention, doc, w).el);
      if (!this.measured) {
        this.measured = true;
        setTimeout(panel.run, 50);
      }
    }
    clear(this.view).append(...parts);
    this.view.classList.remove('pending');
    this.view.lang = s.lang === 'zh' ? 'zh-CN' : 'en';
    this.renderStage();
    this.renderProgress();
    // the edit panel's fields a task after the stage (an 800 × 64 spec: both at once were over 100 ms)
    if (fillEditor) {
      const editor = this.editor;
      later(this, () => {
        const now = this.store.get();
        if (now.editing && editor.el.isConnected) editor.update(now.spec, now.error, wordsFor(now.lang));
      }, true);
    }
  }

  /**
   * The current stage: its picture (the stage area), then the words and marks around it — the stage's
   * heading and explanation, the example's numbers, the formula map's term and the timeline's step.
   */
  renderStage() {
    const s = this.store.get();
    if (!this.area.box) return;
    const w = wordsFor(s.lang);
    const doc = this.doc(s.exampleId);
    const drawn = this.area.render(w, doc);
    if (drawn === 'refreshed') this.texts.refresh(s);
    else this.texts.show(s, w, doc, drawn === 'fresh' && this.controls.has('export') ? exportMenu(this, w) : null, this.controls.has('text'));
    if (drawn !== 'vision') {
      // example texts quote numbers as {stage[i][j]}: filled from the current trace, edits included
      this.chrome.summary(s, doc);
      this.formula?.mark(this.stageId);
    }
    this.chrome.markStage(s.stageIndex);
    this.renderProgress(); // the new caption and cells at the current point of the animation
  }

  /** The animation's point: the picture's cells and caption (the stage area), then the controls. */
  renderProgress() {
    const s = this.store.get();
    if (!s.trace || !this.area.box) return; // nothing drawn yet (renderAll draws the chrome and the box)
    const w = wordsFor(s.lang);
    this.area.progress(w);
    const offer = s.offer && this.examples.find((e) => e.id === s.offer);
    this.chrome.progress(s, w, offer ? w.nextExample(pick(offer.title, s.lang)) : null);
  }

  /** Shows stage index whole, paused: what a click, a key or a link does (Play then animates it). */
  show(index) {
    this.area.hovered = null;
    this.store.set({ stageIndex: index, progress: 1, playing: false, animated: false, offer: null });
  }

  step(delta) {
    const s = this.store.get();
    const last = this.stageIds().length - 1;
    // ▶| (or →) on the last stage, shown whole: the next worked example, offered where the reader picks
    // examples (the playground); a figure in a post never leads its reader away
    if (delta > 0 && s.stageIndex === last && s.progress >= 1) {
      const next = READING_ORDER[READING_ORDER.indexOf(s.exampleId) + 1];
      if (next && s.exampleId && this.controls.has('examples') && !this.compact && this.examples.some((e) => e.id === next)) this.store.set({ offer: next });
      return;
    }
    this.show(Math.max(0, Math.min(last, s.stageIndex + delta)));
  }

  /** Opens the offered example at its first stage, drawn as it prefers; the keyboard's focus goes to its ▶|. */
  takeOffer() {
    const { offer, lang } = this.store.get();
    const focused = this.root.activeElement?.classList.contains('next-example');
    if (offer) return this.load({ example: offer, lang }).then(() => focused && this.root.querySelector('button.next')?.focus());
  }

  /** One cell (or row) further or back, paused; across into the next or previous stage at its ends. */
  stepCell(delta) {
    this.area.hovered = null;
    const s = this.store.get();
    const steps = this.area.steps;
    const revealed = s.progress >= 1 ? steps : Math.floor(s.progress * steps) + 1;
    const next = revealed + delta;
    const last = this.stageIds().length - 1;
    let change;
    if (next > steps) change = s.stageIndex < last ? { stageIndex: s.stageIndex + 1, progress: 1e-9 } : { progress: 1 };
    else if (next < 1) change = s.stageIndex > 0 ? { stageIndex: s.stageIndex - 1, progress: 1 } : { progress: 1e-9 };
    else change = { progress: next >= steps ? 1 : (next - 0.5) / steps };
    this.store.set({ ...change, playing: false, animated: false });
  }
}

/**
 * The picture's box keeps the tallest height it has had for this example (a new box for a new
 * example, language or spec structure): a shorter stage after a taller one leaves what follows the
 * picture where it was. A resize observer runs after layout and before paint, so nothing moves on screen.
 */
function keepTallest(box) {
  if (typeof ResizeObserver === 'undefined') return null;
  let tallest = 0, width = 0;
  const observer = new ResizeObserver(([entry]) => {
    if (Math.abs(entry.contentRect.width - width) > 0.5) { // a new width (a turned phone, a resized window): start again
      width = entry.contentRect.width;
      tallest = 0;
      box.style.minHeight = '';
    }
    const height = box.getBoundingClientRect().height;
    if (height > tallest + 0.5) {
      tallest = height;
      box.style.minHeight = `${Math.ceil(tallest)}px`;
    }
  });
  observer.observe(box);
  return observer;
}

/** A spec from JSON text, with the page's sentence for text that is not JSON. */
function parseSpec(text) {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new Error(`the spec is not valid JSON (${e.message}).`);
  }
}
