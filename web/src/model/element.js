// <attention-model model="zh" text="…">: the tiny language model on text the reader types. Every layer ×
// head as a grid of small attention patterns (labelled with each head's measured role), the chosen head
// large with its characters (hover a cell: the core's arithmetic), the next character's top 10, and
// generation with a temperature and a seed. The model runs in a Web Worker (client.js); this file only
// draws what it sends. With the url-state attribute the page's URL holds the whole state.
import { bytesOf } from '../byte_string.js';
import { h } from '../stepper/dom.js';
import { css, scaleColor, scaleRange, weightColor } from '../stepper/colors.js';
import { cell } from '../stepper/format.js';
import { xmlSafe } from '../xml_text.js';
import { shippedData, stillBuilding } from './assets.js';
import { ModelClient } from './client.js';
import { folderWords } from './folder_words.js';
import { wordsFor } from './words.js';

/** The context of the shipped models; the loaded model's own n_ctx is used once it is known. */
const N_CTX = 128;
/** The most text the element keeps (the text box's maxlength): a longer attribute or URL is cut before any work. */
const MAX_TEXT = 4 * N_CTX;

/**
 * At most MAX_TEXT characters of text, read from its start only (a 2·10⁷-character attribute took 35 s of the
 * main thread to split, lay out and write into the URL): {text, given} with given the length when it was cut.
 */
function boundText(text) {
  const raw = String(text ?? '');
  if (raw.length <= MAX_TEXT) return { text: raw, given: null }; // UTF-16 units: at least as many as characters
  const kept = [...raw.slice(0, 2 * MAX_TEXT)].slice(0, MAX_TEXT).join('');
  return kept.length === raw.length ? { text: raw, given: null } : { text: kept, given: raw.length };
}

/** Texts to start from: well-known lines for zh, a repeated sentence (where induction shows) for en. */
const PICKS = {
  zh: ['床前明月光，疑是地上霜。举头望明月，低头思故乡。', '白日依山尽，黄河入海流。欲穷千里目，更上一层楼。', '春眠不觉晓，处处闻啼鸟。夜来风雨声，花落知多少。',
    '红豆生南国，春来发几枝。愿君多采撷，此物最相思。', '千山鸟飞绝，万径人踪灭。孤舟蓑笠翁，独钓寒江雪。'],
  en: ['The cat sat on the mat. The cat sat on the', 'Knowledge is power. Knowledge is', 'To be or not to be, that is the question.',
    'A penny saved is a penny earned.', 'abcdefgh abcdefgh abcd'],
};
const ROLES = ['previous_token', 'induction', 'first_token', 'line_alignment'];
/** The line each model opens on when no text is given (model.html?model=en opened on the zh line: every character <unk>). */
const DEFAULT_TEXT = { zh: '床前明月光，疑是地上霜。', en: 'The lazy dog sleeps all day. The lazy dog sl' };
/** The smallest cell of the large pattern: its characters stay readable (the view scrolls past about 40 of them). */
const MIN_CELL = 16;
/** A role is named when its score reaches this (TransformerLens's detectors use 0.3 as "it does this"). */
const ROLE_THRESHOLD = 0.3;

/** The bytes of a shipped model: models/<name>.js holds its safetensors file as a string of bytes (byte_string.js). */
const modelBytes = (name) => shippedData(name, name).then(bytesOf);

/** While scripts/serve.sh is still building the site, asks every few seconds; reloads the page once it is done. */
let reloading = false;
function reloadWhenBuilt() {
  if (reloading) return;
  reloading = true;
  const ask = async () => ((await stillBuilding()) ? setTimeout(ask, 5000) : location.reload());
  setTimeout(ask, 5000);
}

/** A character as a label: a space and a line break made visible. */
const shownChar = (ch) => ({ ' ': '␣', '\n': '⏎', '\t': '⇥' })[ch] ?? ch; // as the core's captions show them (stages.cpp shown())

/**
 * Draws a (rows × cols) stage into a canvas, each cell cw × ch CSS pixels, on the colour scale the core's
 * registry gives the stage (scale: 'signed' | 'positive' | 'probability'; colors.js); returns its top value.
 */
export function drawStage(canvas, data, rows, cols, cw, ch, scale) {
  const ratio = globalThis.devicePixelRatio || 1;
  canvas.width = Math.round(cols * cw * ratio);
  canvas.height = Math.round(rows * ch * ratio);
  canvas.style.width = `${cols * cw}px`;
  canvas.style.height = `${rows * ch}px`;
  const g = canvas.getContext('2d');
  g.setTransform(ratio, 0, 0, ratio, 0, 0);
  let top = 0;
  for (const v of data) top = Math.max(top, Math.abs(v));
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < cols; j++) {
      g.fillStyle = css(scaleColor(scale, data[i * cols + j], top));
      g.fillRect(j * cw, i * ch, Math.ceil(cw), Math.ceil(ch));
    }
  }
  return top;
}

/** Outlines cell (i, targets[i]) of a pattern for every i that has one: the pattern a head score measures. */
function markCells(canvas, targets, size) {
  const g = canvas.getContext('2d');
  g.strokeStyle = '#c01c28';
  g.lineWidth = 2;
  targets.forEach((j, i) => { if (j >= 0) g.strokeRect(j * size + 1, i * size + 1, size - 2, size - 2); });
}

/** A weight in [0, 1] on the playground's weight scale (viridis, a strong weight dark), fixed from 0 to 1. */
const shade = (w) => css(weightColor(Math.max(0, Math.min(1, w))));

/**
 * Draws head hd of a layer's weights (h × n × n) into a canvas of px × px pixels at the device's ratio,
 * row i over column j. sized: also fix its CSS size (the grid's thumbnails scale with their column instead).
 */
function drawPattern(canvas, weights, hd, n, px, sized = true) {
  const ratio = globalThis.devicePixelRatio || 1;
  canvas.width = Math.round(px * ratio);
  canvas.height = Math.round(px * ratio);
  if (sized) {
    canvas.style.width = `${px}px`;
    canvas.style.height = `${px}px`;
  }
  const g = canvas.getContext('2d');
  g.setTransform(ratio, 0, 0, ratio, 0, 0);
  g.fillStyle = '#fff';
  g.fillRect(0, 0, px, px);
  const cell = px / n;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j <= i; j++) {
      g.fillStyle = shade(weights[(hd * n + i) * n + j]);
      g.fillRect(j * cell, i * cell, Math.ceil(cell), Math.ceil(cell));
    }
  }
}

export const STYLE = `
:host { display: block; max-width: 1100px; }
/* the font on the frame inside, in px: a page's "* { font-size }" sets the host's own font, and rem is the page's root */
.frame { font: 15px/1.45 system-ui, "Noto Sans CJK SC", sans-serif; color: #1b1f24; text-align: left; }
h1 { font-size: 21.6px; margin: 0 0 4.8px; } h2 { font-size: 16.8px; margin: 16px 0 4.8px; }
p { margin: 3.2px 0 8px; } .hint { color: #4a5560; font-size: 14.4px; }
.top { display: flex; flex-wrap: wrap; gap: 8px 16px; align-items: center; margin-bottom: 6.4px; }
.top a, .top button, select, input, button { font: inherit; }
select { max-width: 100%; }
button, select { min-height: 44px; padding: 0 12.8px; border: 1px solid #8a96a3; border-radius: 6px; background: #fff; color: #1b1f24; cursor: pointer; }
button.primary { background: #1a5fb4; color: #fff; border-color: #1a5fb4; }
textarea { width: 100%; box-sizing: border-box; font: 20px/1.5 "Noto Sans CJK SC", system-ui, monospace; padding: 6.4px; border: 1px solid #8a96a3; border-radius: 6px; resize: vertical; min-height: 51.2px; }
.unknown { color: #a51d2d; font-size: 14.4px; min-height: 1.2em; }
.error { color: #a51d2d; }
.layout { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 16px; }
@media (max-width: 720px) { .layout { grid-template-columns: minmax(0, 1fr); } }
.grid { display: grid; grid-template-columns: repeat(var(--heads), minmax(0, 1fr)); gap: 6.4px; }
.head { border: 2px solid transparent; border-radius: 6px; padding: 2px; background: none; min-height: 0; display: flex; flex-direction: column; align-items: center; gap: 2px; }
.head[aria-pressed="true"] { border-color: #1a5fb4; }
.head canvas { width: 100%; height: auto; aspect-ratio: 1; border: 1px solid #d0d7de; }
.head span { font-size: 12.48px; line-height: 1.2; text-align: center; color: #333; }
.big { position: relative; overflow: auto; }
.cols, .rows { font: 12.8px/1 "Noto Sans CJK SC", monospace; color: #333; }
.big-grid { display: grid; grid-template-columns: auto 1fr; grid-template-rows: auto 1fr; }
.cols { display: flex; } .rows { display: flex; flex-direction: column; }
.cols span, .rows span { display: flex; align-items: center; justify-content: center; overflow: hidden; }
.unk { color: #a51d2d; text-decoration: underline wavy; }
.caption { font: 15.2px/1.4 ui-monospace, monospace; background: #f3f5f7; border-radius: 6px; padding: 6.4px 9.6px; min-height: 2.8em; overflow-wrap: anywhere; }
.bars { display: grid; gap: 2px; font-size: 15.2px; }
.candidate { width: 100%; background: none; border: 0; padding: 0 4.8px; text-align: left; font: inherit; color: inherit; }
.candidate { display: grid; grid-template-columns: 2.2em 1fr 4.5em; gap: 8px; align-items: center; min-height: 24px; border-radius: 4px; }
.candidate:hover, .candidate:focus { background: #eef3fa; outline: 2px solid #1a5fb4; }
.bar { height: 14px; background: #1a5fb4; border-radius: 3px; }
.gen { display: flex; flex-wrap: wrap; gap: 8px 16px; align-items: center; margin-top: 9.6px; }
.gen label, .overlay { display: flex; align-items: center; gap: 6.4px; }
.overlay { font-size: 13.6px; margin-top: 4.8px; }
.gen input[type=number] { width: 6em; min-height: 40px; }
details { margin-top: 8px; font-size: 14.4px; }
.strip { display: flex; flex-wrap: wrap; gap: 4.8px; margin: 4.8px 0; }
.box { display: flex; flex-direction: column; align-items: center; gap: 2px; padding: 4px; font-size: 12.48px; max-width: 9.5em; }
.box[aria-pressed="true"] { border: 2px solid #1a5fb4; }
.head .on-probe { color: #57606a; font-size: 11.52px; }
h3 { font-size: 15.2px; margin: 12.8px 0 3.2px; }
.candidate[aria-pressed="true"] { background: #eef3fa; }
.sources { display: grid; gap: 1px; font-size: 13.6px; }
.part { display: grid; grid-template-columns: 7.5em 1fr 4em; gap: 6.4px; align-items: center; min-height: 18px; }
.part span:last-child { text-align: right; font-variant-numeric: tabular-nums; }
.track { position: relative; height: 12px; background: linear-gradient(90deg, transparent calc(50% - .5px), #8a96a3 calc(50% - .5px), #8a96a3 calc(50% + .5px), transparent calc(50% + .5px)); }
.track .pos { position: absolute; left: 50%; height: 100%; background: #1a5fb4; border-radius: 0 2px 2px 0; }
.track .neg { position: absolute; right: 50%; height: 100%; background: #a51d2d; border-radius: 2px 0 0 2px; }
.part.total { border-top: 1px solid #8a96a3; font-weight: 600; }
.lens, .sampling { overflow-x: auto; }
.lens table, .sampling table { border-collapse: collapse; font-size: 13.6px; }
.lens th, .lens td, .sampling th, .sampling td { padding: 2px 8px; text-align: left; white-space: nowrap; }
.lens .ch { font-weight: 600; }
.sampling td { min-width: 7em; } .sampling td .bar { display: inline-block; height: 10px; max-width: 4.5em; vertical-align: middle; margin-right: .3em; }
.sampling tr[aria-current="true"] th { outline: 2px solid #c01c28; border-radius: 3px; }
.drawn { font-size: 14.4px; }
.stage-about { margin: 4.8px 0; } .stage-about code { font: 14.4px/1.4 ui-monospace, monospace; background: #f3f5f7; padding: 0 4px; }
`;

export class AttentionModel extends HTMLElement {
  static get observedAttributes() { return ['model', 'text', 'lang']; }

  constructor() {
    super();
    this.root = this.attachShadow({ mode: 'open' });
    this.state = { model: 'zh', text: null, layer: 1, head: 0, temperature: 0.8, topK: 0, topP: 1, seed: 1, lang: 'en' };
    this.view = null;
    this.loaded = new Map(); // model name -> {about, heads}
    this.generation = 0;
  }

  connectedCallback() {
    if (this.client) return;
    this.client = new ModelClient();
    // a worker that died is said at once (the calls waiting on it are refused with the same sentence); the
    // next action starts a new one
    this.client.onLost = (sentence) => {
      this.stopGenerating();
      if (this.error) this.error.textContent = sentence;
    };
    const s = this.state;
    for (const name of ['model', 'text', 'lang']) if (this.hasAttribute(name)) s[name] = this.getAttribute(name);
    if (this.hasAttribute('url-state')) this.readUrl();
    // model.html?model=URL: a model folder the site serves beside the page (a model you bring)
    const folderUrl = typeof s.model === 'string' && s.model.includes('/') ? s.model : null;
    s.model = s.model === 'en' ? 'en' : 'zh';
    s.lang = s.lang === 'zh' ? 'zh' : 'en';
    this.takeText(s.text ?? DEFAULT_TEXT[s.model]);
    this.build();
    if (folderUrl) {
      this.ready = Promise.resolve();
      this.showFolder(folderUrl);
      return;
    }
    this.ready = this.loadModel().then(() => this.retrace(), () => {}); // a failed load has said so in the status line
  }

  /**
   * "Open a model…": the view of a model you bring (<attention-folder-model>) in place of ours; with a source (a
   * folder's URL) it opens it at once, else the file chooser opens. Its "back" button brings ours back.
   */
  showFolder(source = null) {
    this.stopGenerating();
    if (!this.folderEl) {
      this.folderEl = document.createElement('attention-folder-model');
      this.folderEl.addEventListener('close', () => {
        this.build();
        this.draw();
        this.loadModel().then(() => this.retrace(), () => {});
      });
    }
    this.folderEl.setAttribute('lang', this.state.lang);
    this.root.replaceChildren(this.folderEl);
    if (source) this.folderEl.open(source).catch(() => {}); // a refusal is said in its status line
    else this.folderEl.fileInput.click();
  }

  attributeChangedCallback(name, old, value) {
    if (!this.client || old === value) return;
    if (name === 'text') this.takeText(value);
    else this.state[name] = name === 'lang' ? (String(value).startsWith('zh') ? 'zh' : 'en') : value;
    if (name === 'lang') this.build(), this.draw();
    else {
      if (name === 'text' && this.textBox) this.textBox.value = this.state.text;
      if (name === 'model' && this.modelSelect) this.modelSelect.value = value === 'en' ? 'en' : 'zh';
      this.stopGenerating();
      this.loadModel().then(() => this.retrace(), () => {});
    }
  }

  disconnectedCallback() {
    this.stopGenerating();
  }

  /** Takes text as the state's (an attribute's, the URL's), cut to MAX_TEXT when longer (cutNote() says so). */
  takeText(text) {
    const { text: kept, given } = boundText(text);
    this.state.text = kept;
    this.cutFrom = given; // the length of the text given, when it was cut
  }

  /** The sentence of a text that was cut, in the page's language, or ''. */
  cutNote() {
    return this.cutFrom ? wordsFor(this.state.lang).cut(MAX_TEXT, this.cutFrom) : '';
  }

  readUrl() {
    const p = new URLSearchParams(location.search);
    const s = this.state;
    if (p.has('model')) s.model = p.get('model');
    if (p.has('text')) s.text = p.get('text');
    if (p.has('lang')) s.lang = p.get('lang');
    const whole = (key, lo, hi) => {
      const v = Number(p.get(key));
      return p.has(key) && Number.isSafeInteger(v) && v >= lo && v <= hi ? v : null;
    };
    s.layer = (whole('layer', 1, 12) ?? s.layer + 1) - 1;
    s.head = (whole('head', 1, 16) ?? s.head + 1) - 1;
    s.seed = whole('seed', 0, 2 ** 31) ?? s.seed;
    s.overlay = p.get('lines') === '1';
    // the stage the layer's stepper shows, and the block's stage (ids only: anything else is ignored)
    if (/^[a-z_0-9]{1,24}$/.test(p.get('stage') ?? '')) s.stage = p.get('stage');
    if (/^[a-z_0-9]{1,24}$/.test(p.get('block') ?? '')) this.blockStage = p.get('block');
    const t = Number(p.get('t'));
    if (p.has('t') && Number.isFinite(t) && (t === 0 || t >= 1e-3) && t <= 2) s.temperature = t;
    s.topK = whole('topk', 0, 4096) ?? s.topK;
    const topP = Number(p.get('topp'));
    if (p.has('topp') && Number.isFinite(topP) && topP >= 1e-3 && topP <= 1) s.topP = topP;
  }

  writeUrl() {
    if (!this.hasAttribute('url-state')) return;
    const s = this.state;
    const p = new URLSearchParams({ model: s.model, text: s.text, layer: s.layer + 1, head: s.head + 1, t: s.temperature, seed: s.seed, lang: s.lang });
    if (s.topK) p.set('topk', s.topK);
    if (s.topP < 1) p.set('topp', s.topP);
    if (s.overlay) p.set('lines', '1');
    if (s.stage) p.set('stage', s.stage);
    if (this.blockStage) p.set('block', this.blockStage);
    history.replaceState(history.state, '', `?${p}`);
  }

  async loadModel() {
    const s = this.state;
    s.model = s.model === 'en' ? 'en' : 'zh';
    if (this.loaded.has(s.model)) return;
    const w = wordsFor(s.lang);
    this.status.textContent = w.loading(s.model);
    this.status.className = 'hint';
    try {
      const bytes = await modelBytes(s.model);
      this.loaded.set(s.model, await this.client.call('load', s.model, bytes));
      this.status.textContent = '';
    } catch (error) {
      if (await stillBuilding()) {
        // the model or its module is not built yet: say so, and reload once the build is done
        this.status.textContent = w.building(s.model);
        this.status.className = 'hint';
        this.status.removeAttribute('role');
        reloadWhenBuilt();
        throw error;
      }
      this.status.textContent = w.loadFailed(error.message);
      this.status.className = 'error';
      this.status.setAttribute('role', 'alert');
      throw error;
    }
  }

  /** The loaded model's context length (characters a trace reads). */
  nCtx() {
    return this.loaded.get(this.state.model)?.about.config.n_ctx ?? N_CTX;
  }

  /** Traces the text (latest wins) and redraws everything that depends on it. */
  async retrace() {
    const s = this.state;
    const info = this.loaded.get(s.model);
    if (!info) return;
    const w = wordsFor(s.lang);
    this.warning.textContent = [this.cutNote(), [...s.text].length > this.nCtx() ? w.full(this.nCtx()) : ''].filter(Boolean).join(' ');
    if (!s.text) { // nothing to trace: no picture of an older text is left standing
      this.view = null;
      this.viewText = '';
      this.clearViews(w.empty);
      return;
    }
    try {
      const got = await this.client.view(s.model, [...s.text].slice(0, this.nCtx()).join(''), 10, this.drawOptions());
      // a newer text is being traced, or the model changed meanwhile: this answer is not drawn
      if (!got || got.model !== s.model) return;
      this.view = got.view;
      this.viewText = got.text;
      this.error.textContent = '';
    } catch (error) {
      this.error.textContent = error.message;
      return;
    }
    const c = info.about.config;
    s.layer = Math.min(s.layer, c.n_layer - 1);
    s.head = Math.min(s.head, c.n_head - 1);
    this.draw();
    this.showLayer();
    this.showBlock();
    this.writeUrl();
    this.dispatchEvent(new CustomEvent('traced', { detail: { text: this.viewText } }));
  }

  /** What sampling draws with: the element's temperature, top-k, top-p and seed. */
  drawOptions() {
    const s = this.state;
    return { temperature: s.temperature, topK: s.topK, topP: s.topP, seed: s.seed };
  }

  /** The sampling table after the temperature, top-k or top-p changed: the core's distributions on the same trace. */
  async redraw() {
    this.writeUrl();
    if (!this.view || !this.viewText) return;
    const key = [this.state.model, this.viewText, JSON.stringify(this.drawOptions())].join('\u0000');
    this.sampleKey = key;
    try {
      const sample = await this.client.call('sample', this.state.model, this.viewText, this.drawOptions(), 10);
      if (this.sampleKey !== key || !this.view) return;
      this.view.sample = sample;
      this.drawSampling();
    } catch (error) {
      this.error.textContent = error.message;
    }
  }

  // [SECTION] building the page's parts once, then drawing into them

  build() {
    const s = this.state;
    const w = wordsFor(s.lang);
    this.stepperEl = null; // the layer's stepper is made again, in this language, when its section opens
    this.layerKey = null;
    this.blockStrip = this.blockBig = this.blockCaption = null; // and the block's boxes

    this.root.replaceChildren();
    // everything inside one frame that sets the font (STYLE: the page's own font-size does not reach in)
    const frame = h('div', { className: 'frame', attrs: { part: 'model' } });
    this.root.append(h('style', { text: STYLE }), frame);
    const select = h('select', { attrs: { 'aria-label': w.model }, onchange: (e) => this.setModel(e.target.value) },
      h('option', { value: 'zh', text: w.zh }), h('option', { value: 'en', text: w.en }));
    select.value = s.model;
    this.modelSelect = select;
    const langButton = h('button', { text: w.lang, attrs: { lang: s.lang === 'zh' ? 'en' : 'zh' }, onclick: () => this.setLang(s.lang === 'zh' ? 'en' : 'zh') });
    const back = this.hasAttribute('url-state') ? h('a', { href: 'index.html', text: w.back }) : null;
    this.picker = h('select', { attrs: { 'aria-label': w.pick }, onchange: () => { if (this.picker.value) this.textBox.value = this.picker.value, this.setText(this.picker.value); } },
      h('option', { value: '', text: w.pick }), ...PICKS[s.model].map((t) => h('option', { value: t, text: t })));
    this.textBox = h('textarea', { value: s.text, rows: 2, attrs: { 'aria-label': w.text, maxlength: String(MAX_TEXT), lang: s.model === 'zh' ? 'zh' : 'en' },
      oninput: () => this.setText(this.textBox.value) });
    this.status = h('p', { className: 'hint', attrs: { 'aria-live': 'polite' } });
    this.error = h('p', { className: 'error', attrs: { role: 'alert' } });
    this.warning = h('p', { className: 'hint', attrs: { 'aria-live': 'polite' }, text: this.cutNote() });
    this.unknownLine = h('p', { className: 'unknown' });
    this.corpusLine = h('p', { className: 'hint corpus' });
    this.gridEl = h('div', { className: 'grid', attrs: { role: 'group', 'aria-label': w.grid } });
    this.bigTitle = h('h2');
    this.bigEl = h('div', { className: 'big' });
    this.caption = h('p', { className: 'caption', attrs: { 'aria-live': 'polite' }, text: w.hover });
    this.bars = h('div', { className: 'bars' });
    this.push = h('p', { className: 'caption push', attrs: { 'aria-live': 'polite' }, text: w.pushHint });
    this.sources = h('div', { className: 'sources', attrs: { role: 'list', 'aria-label': w.sourcesTitle } });
    this.lensEl = h('div', { className: 'lens' });
    this.samplingEl = h('div', { className: 'sampling' });
    this.tempInput = h('input', { type: 'range', min: '0', max: '2', step: '0.05', value: String(s.temperature), attrs: { 'aria-label': w.temperature },
      oninput: () => { s.temperature = Number(this.tempInput.value); this.tempValue.textContent = s.temperature.toFixed(2); this.redraw(); } });
    this.topKInput = h('input', { type: 'number', min: '0', max: '4096', step: '1', value: String(s.topK), attrs: { 'aria-label': w.topK },
      onchange: () => { const v = Number(this.topKInput.value); if (Number.isSafeInteger(v) && v >= 0 && v <= 4096) s.topK = v; this.redraw(); } });
    this.topPInput = h('input', { type: 'range', min: '0.05', max: '1', step: '0.05', value: String(s.topP), attrs: { 'aria-label': w.topP },
      oninput: () => { s.topP = Number(this.topPInput.value); this.topPValue.textContent = s.topP.toFixed(2); this.redraw(); } });
    this.topPValue = h('output', { text: s.topP.toFixed(2) });
    this.tempValue = h('output', { text: s.temperature.toFixed(2) });
    this.seedInput = h('input', { type: 'number', min: '0', step: '1', value: String(s.seed), attrs: { 'aria-label': w.seed },
      onchange: () => { const v = Number(this.seedInput.value); if (Number.isSafeInteger(v) && v >= 0) s.seed = v; this.redraw(); } });
    this.genButton = h('button', { className: 'primary', text: w.generate, onclick: () => this.generate() });
    this.animateBox = h('input', { type: 'checkbox', checked: s.animate !== false, onchange: () => (s.animate = this.animateBox.checked) });
    frame.append(
      h('div', { className: 'top' }, back, h('h1', { text: w.title }), select, langButton,
        h('button', { text: folderWords(s.lang).open, onclick: () => this.showFolder() })),
      h('p', { text: w.intro, className: 'hint' }), this.corpusLine,
      h('div', { className: 'top' }, h('label', { text: `${w.text} (${w.textHint(N_CTX)})`, attrs: { for: 'text' } }), this.picker),
      this.textBox, this.warning, this.unknownLine, this.status, this.error,
      h('div', { className: 'layout' },
        h('section', {}, h('h2', { text: w.grid }), h('p', { className: 'hint', text: w.gridHint }), this.gridEl,
          h('details', {}, h('summary', { text: w.roles.previous_token + ', ' + w.roles.induction + ', …' }), h('p', { text: w.roleHelp })),
          h('button', { className: 'export', text: w.exportSVG, onclick: () => this.exportSVG() })),
        h('section', {}, this.bigTitle, this.bigEl, this.caption)),
      this.blockBox = h('details', { className: 'block', ontoggle: () => this.showBlock() },
        h('summary', { text: w.block(s.layer + 1) }), h('p', { className: 'hint', text: w.blockHint })),
      this.stepperBox = h('details', { className: 'stepper', ontoggle: () => this.showLayer() },
        h('summary', { text: w.stepper }), h('p', { className: 'hint', text: w.stepperHint })),
      h('section', { className: 'next' }, h('h2', { text: w.next }), h('p', { className: 'hint', text: w.nextHint }),
        h('div', { className: 'layout' },
          h('div', {}, this.bars, this.push),
          h('div', {}, h('h3', { text: w.sourcesTitle }), h('p', { className: 'hint', text: w.sourcesHint }), this.sources)),
        h('h3', { text: w.lensTitle }), h('p', { className: 'hint', text: w.lensHint }), this.lensEl,
        h('h3', { text: w.samplingTitle }), h('p', { className: 'hint', text: w.samplingHint }),
        h('div', { className: 'gen' },
          h('label', {}, w.temperature, this.tempInput, this.tempValue),
          h('label', {}, w.topK, this.topKInput), h('label', {}, w.topP, this.topPInput, this.topPValue),
          h('label', {}, w.seed, this.seedInput)),
        this.samplingEl,
        h('div', { className: 'gen' }, h('label', {}, this.animateBox, w.animate), this.genButton),
        h('p', { className: 'hint links' }, h('a', { href: w.lessonHref, text: w.lessonLink }))));
    this.textBox.id = 'text';
    // the page's own language too, on the page the element owns (model.html)
    if (this.hasAttribute('url-state')) {
      document.documentElement.lang = s.lang === 'zh' ? 'zh-CN' : 'en';
      document.title = w.title;
    }
    // the language on the shadow root's parts, not the host: lang is an attribute the page may set
    for (const part of frame.children) part.setAttribute('lang', s.lang === 'zh' ? 'zh-CN' : 'en');
  }

  setModel(name) {
    this.stopGenerating();
    this.state.model = name === 'en' ? 'en' : 'zh';
    if (name === 'en' && /[\u3400-\u9fff]/.test(this.state.text)) this.state.text = DEFAULT_TEXT.en;
    if (name === 'zh' && !/[\u3400-\u9fff]/.test(this.state.text)) this.state.text = DEFAULT_TEXT.zh;
    this.textBox.value = this.state.text;
    this.picker.replaceChildren(this.picker.firstChild, ...PICKS[this.state.model].map((t) => h('option', { value: t, text: t })));
    this.cutFrom = null; // about a text no longer shown
    this.view = null; // the other model's picture is not this one's
    this.clearViews('');
    this.loadModel().then(() => this.retrace(), () => {}); // a failed load has said so in the status line
  }

  setLang(lang) {
    this.stopGenerating();
    this.state.lang = lang;
    this.build();
    this.draw();
    this.writeUrl();
  }

  setText(text) {
    this.takeText(text); // the box holds MAX_TEXT; a script may set more
    this.stopGenerating();
    this.retrace();
  }

  /** Stops a generation in progress (the reader typed, or switched model or language). */
  stopGenerating() {
    this.generation++;
    this.generating = false;
    if (this.genButton) this.genButton.textContent = wordsFor(this.state.lang).generate;
  }

  /** Empties the views that draw a trace, saying why. */
  clearViews(why) {
    for (const el of [this.gridEl, this.bigEl, this.bars, this.sources, this.lensEl, this.samplingEl]) el?.replaceChildren();
    if (this.caption) this.caption.textContent = why;
    if (this.push) this.push.textContent = '';
    this.unknownLine.textContent = '';
  }

  chooseHead(layer, head) {
    const layerChanged = layer !== this.state.layer;
    this.state.layer = layer;
    this.state.head = head;
    this.draw();
    if (layerChanged) this.showLayer(), this.showBlock();
    this.writeUrl();
  }

  /**
   * The rest of the chosen layer's block, when its section is open: each of the model's own stages
   * (LayerNorms, the attention's output, residual sums, MLP) as a box in block order; one opens large,
   * its cells' arithmetic from the core (m.explain) on hover.
   */
  async showBlock() {
    if (!this.blockBox?.open || !this.viewText) return;
    const s = this.state;
    const w = wordsFor(s.lang);
    this.blockBox.querySelector('summary').textContent = w.block(s.layer + 1);
    const key = `${s.model}\n${s.layer}\n${this.viewText}`;
    if (key !== this.blockKey) {
      this.blockKey = key;
      let stages;
      try {
        stages = await this.client.call('block', s.model, this.viewText, s.layer);
      } catch (error) {
        this.error.textContent = error.message;
        return;
      }
      if (key !== this.blockKey) return;
      this.blockStages = stages;
    }
    const stages = this.blockStages;
    if (!stages.some((st) => st.id === this.blockStage)) this.blockStage = 'mlp_act';
    this.blockStrip ??= h('div', { className: 'strip', attrs: { role: 'group' } });
    this.blockBig ??= h('div', { className: 'big' });
    this.blockCaption ??= h('p', { className: 'caption block-caption', attrs: { 'aria-live': 'polite' }, text: w.hover });
    if (!this.blockStrip.isConnected) this.blockBox.append(this.blockStrip, this.blockBig, this.blockCaption);
    this.blockStrip.replaceChildren(...stages.map((st, k) => {
      const canvas = h('canvas', { attrs: { 'aria-hidden': 'true' } });
      drawStage(canvas, st.data, st.shape[0], st.shape[1], 48 / st.shape[1], 48 / st.shape[0], st.scale);
      return h('button', { className: 'box', attrs: { 'aria-pressed': String(st.id === this.blockStage), 'data-stage': st.id },
        onclick: () => { this.blockStage = st.id; this.showBlock(); this.writeUrl(); } },
      canvas, h('span', { text: `${k ? '→ ' : ''}${st.symbol} · ${st.title[s.lang === 'zh' ? 'zh' : 'en']}` }));
    }));
    const st = stages.find((x) => x.id === this.blockStage);
    const [rows, cols] = st.shape;
    const cw = Math.max(2, Math.min(10, Math.floor(((this.blockBox.clientWidth || 600) - 40) / cols))), ch = Math.max(6, Math.min(14, cw * 2));
    const canvas = h('canvas', { tabIndex: 0, attrs: { role: 'img', 'aria-label': st.title[s.lang === 'zh' ? 'zh' : 'en'] } });
    const top = drawStage(canvas, st.data, rows, cols, cw, ch, st.scale);
    canvas.addEventListener('pointermove', async (e) => {
      const r = canvas.getBoundingClientRect();
      const i = Math.floor((e.clientY - r.top) / ch), j = Math.floor((e.clientX - r.left) / cw);
      const cell = [key, st.id, i, j].join('\u0000'); // what the caption is of: an older answer is dropped
      if (i < 0 || j < 0 || i >= rows || j >= cols || this.blockCell === cell) return;
      this.blockCell = cell;
      let text;
      try {
        text = await this.client.call('explain', s.model, this.viewText, st.id, { layer: s.layer, i, j });
      } catch (error) {
        text = error.message;
      }
      if (this.blockCell === cell) this.blockCaption.textContent = text;
    });
    const [low, high] = scaleRange(st.scale, top);
    // what the stage is, from the core's registry: its formula and why it is there, then its size and range
    this.blockBig.replaceChildren(h('p', { className: 'stage-about' }, h('code', { text: st.formula }), ` ${st.explain[s.lang === 'zh' ? 'zh' : 'en']}`),
      h('p', { className: 'hint', text: `${st.symbol} ${rows} × ${cols} · ${cell(low)} … ${cell(high)}` }), canvas);
  }

  /**
   * The chosen layer in the playground's own <attention-stepper>, when its section is open: the layer's
   * attention as a spec from the core (m.layerSpec), which the stepper traces with the same numbers.
   */
  async showLayer() {
    if (!this.stepperBox?.open || !this.viewText) return;
    const w = wordsFor(this.state.lang);
    if (!customElements.get('attention-stepper')) {
      if (!this.stepperBox.querySelector('.needs')) this.stepperBox.append(h('p', { className: 'hint needs', text: w.needsStepper }));
      return;
    }
    const key = `${this.state.model}\n${this.state.layer}\n${this.viewText}`;
    if (key === this.layerKey) return;
    this.layerKey = key;
    let spec;
    try {
      // with the words of the block's boxes (the model's stage registry, the same for every model), asked for once
      [spec, this.blockFacts] = await Promise.all([this.client.call('layerSpec', this.state.model, this.viewText, this.state.layer),
        this.blockFacts ?? this.client.call('blockFacts', this.state.model)]);
    } catch (error) {
      this.error.textContent = error.message;
      return;
    }
    if (key !== this.layerKey) return; // a newer text or layer meanwhile
    if (!this.stepperEl) {
      // its attributes before it connects: it reads them then
      // block="model": its block diagram is this model's, every part computed; a part opens its stage below
      // the heading above names the layer (the stepper's own title of a spec it was handed is "Your numbers")
      this.stepperEl = h('attention-stepper', { attrs: { stage: this.state.stage ?? 'weights', lang: this.state.lang, block: 'model', spec: JSON.stringify(spec) } });
      this.stepperHeading = h('h3', { className: 'stepper-title' });
      this.stepperBox.append(this.stepperHeading);
      this.stepperEl.blockFacts = this.blockFacts; // its boxes' words: the stepper's core has no language model
      this.stepperEl.addEventListener('blockstage', (e) => this.openBlockStage(e.detail.stage));
      // the stage it shows rides in the URL (?stage=exp): a link opens the layer there
      this.stepperEl.addEventListener('stagechange', (e) => { this.state.stage = e.detail.stage; this.writeUrl(); });
      this.stepperBox.append(this.stepperEl);
      this.stepperHeading.textContent = wordsFor(this.state.lang).stepperTitle(this.state.layer + 1, this.state.model);
      return;
    }
    this.stepperHeading.textContent = wordsFor(this.state.lang).stepperTitle(this.state.layer + 1, this.state.model);
    this.stepperEl.setAttribute('lang', this.state.lang);
    this.stepperEl.setAttribute('spec', JSON.stringify(spec));
  }

  /** Opens the block's section at a stage (the stepper's block diagram asked for it). */
  openBlockStage(stage) {
    this.blockStage = stage;
    this.writeUrl();
    if (!this.blockBox) return;
    if (this.blockBox.open) this.showBlock();
    else this.blockBox.open = true; // its toggle draws it
    this.blockBox.scrollIntoView({ block: 'nearest' });
  }

  /**
   * The measured role of a head: its best detector score, named when it reaches ROLE_THRESHOLD; on the model's standard
   * probes, or (onText) on the text shown, the core's scores of this text (a score not measured on it, null, is skipped).
   */
  roleOf(layer, head, onText = false) {
    const all = onText ? this.view?.heads.map((x) => ({ layer: x.layer, head: x.head, ...x.text })) : this.loaded.get(this.state.model)?.heads;
    const scores = all?.find((x) => x.layer === layer && x.head === head);
    if (!scores) return null;
    let best = null;
    for (const r of ROLES) if (scores[r] !== undefined && scores[r] !== null && (!best || scores[r] > scores[best])) best = r;
    return { role: scores[best] >= ROLE_THRESHOLD ? best : 'mixed', score: scores[best], best };
  }

  draw() {
    const v = this.view;
    if (!v) return;
    const s = this.state;
    const w = wordsFor(s.lang);
    const info = this.loaded.get(s.model);
    const { n_layer: L, n_head: H } = info.about.config;
    const n = v.tokens.length;
    const unknown = v.unknown.map((i) => v.tokens[i]);
    this.unknownLine.textContent = unknown.length ? w.unknown([...new Set(unknown)].join(' ')) : '';
    this.corpusLine.textContent = info.about.corpus?.length ? w.corpus(info.about.corpus) : '';
    // the grid: one small pattern a head, rows = layers (a focused head keeps the focus through the redraw)
    const focused = this.root.activeElement?.closest?.('button.head');
    const refocus = focused ? `${focused.dataset.layer - 1}/${focused.dataset.head - 1}` : null;
    this.gridEl.style.setProperty('--heads', String(H));
    this.gridEl.replaceChildren();
    for (let l = 0; l < L; l++) {
      for (let hd = 0; hd < H; hd++) {
        const role = this.roleOf(l, hd, true), probe = this.roleOf(l, hd);
        // a score under the threshold still names what it measures, marked weak: "weak induction 0.20"
        const roleName = (r) => (r.role === 'mixed' ? w.weak(w.roles[r.best]) : w.roles[r.role]);
        // the visible text is the button's whole name: which head, its role and score on this text and on the probes
        const canvas = h('canvas', { attrs: { 'aria-hidden': 'true' } });
        const button = h('button', { className: 'head', attrs: { 'aria-pressed': String(l === s.layer && hd === s.head), 'data-layer': l + 1, 'data-head': hd + 1,
          'data-role': role.score >= ROLE_THRESHOLD ? role.best.replace('_', '-') : 'none', 'data-score': role.score.toFixed(4),
          'data-probe-role': probe.score >= ROLE_THRESHOLD ? probe.best.replace('_', '-') : 'none', 'data-probe-score': probe.score.toFixed(4) },
        onclick: () => this.chooseHead(l, hd) }, canvas, h('span', { text: w.layerHead(l + 1, hd + 1) }),
        h('span', { className: 'on-text', text: w.onText(roleName(role), role.score.toFixed(2)) }),
        h('span', { className: 'on-probe', text: w.onProbe(roleName(probe), probe.score.toFixed(2)) }));
        this.gridEl.append(button);
        if (refocus === `${l}/${hd}`) queueMicrotask(() => button.focus());
        drawPattern(canvas, v.weights[l], hd, n, 96, false);
      }
    }
    // the chosen head, large, its characters on both axes; a caption of another head or text goes
    if (this.cell && this.cell.key !== this.cellKey(this.cell.i, this.cell.j)) this.cell = null;
    if (!this.cell) this.caption.textContent = w.hover;
    this.bigTitle.textContent = w.chosen(s.layer + 1, s.head + 1);
    const size = Math.max(MIN_CELL, Math.min(22, Math.floor((this.bigEl.clientWidth || 480) / (n + 2))));
    const chars = (axis) => h('div', { className: axis }, ...v.tokens.map((ch, i) => h('span', {
      text: shownChar(ch), className: v.unknown.includes(i) ? 'unk' : '',
      attrs: { style: `${axis === 'cols' ? 'width' : 'height'}: ${size}px; ${axis === 'cols' ? 'height' : 'width'}: ${size + 4}px` } })));
    const big = h('canvas', { tabIndex: 0, attrs: { role: 'img', 'aria-label': this.bigTitle.textContent } });
    big.addEventListener('pointermove', (e) => this.hoverCell(big, e, n, size));
    big.addEventListener('click', (e) => this.hoverCell(big, e, n, size)); // a tap on a phone: no pointer moves there
    const overlay = h('input', { type: 'checkbox', checked: !!s.overlay, onchange: () => { s.overlay = overlay.checked; this.draw(); this.writeUrl(); } });
    big.addEventListener('keydown', (e) => this.keyCell(e, n));
    const hasLines = v.lines.some((t) => t >= 0);
    const lineNote = h('p', { className: 'hint line-note', attrs: { 'aria-live': 'polite' } });
    this.bigEl.replaceChildren(h('div', { className: 'big-grid' }, h('span'), chars('cols'), chars('rows'), big),
      ...(hasLines ? [h('label', { className: 'overlay' }, overlay, w.overlay), lineNote] : []));
    drawPattern(big, v.weights[s.layer], s.head, n, size * n);
    if (s.overlay && hasLines) {
      markCells(big, v.lines, size);
      this.sayLineScores(lineNote);
    }
    // the next character
    const top = v.next;
    const most = Math.max(...top.map((c) => c.p), 1e-9);
    this.bars.replaceChildren(...top.map((c) => {
      const row = h('button', { className: 'candidate', attrs: { 'aria-pressed': 'false', 'data-char': c.char },
        onpointerenter: () => this.showPush(c), onfocus: () => this.showPush(c), onclick: () => this.showPush(c) },
        h('span', { text: shownChar(c.char) }),
        h('div', { className: 'bar', attrs: { style: `width: ${(100 * c.p / most).toFixed(1)}%` } }),
        h('span', { text: c.p.toFixed(4) }));
      return row;
    }));
    this.push.textContent = w.pushHint;
    const shown = top.find((c) => c.char === this.pushed) ?? top[0];
    if (shown) this.showPush(shown, false);
    this.drawLens();
    this.drawSampling();
  }

  /** The logit lens: what ln_f and the unembedding read from the residual stream after each layer's attention and MLP. */
  drawLens() {
    const v = this.view, w = wordsFor(this.state.lang);
    if (!v?.lens) return;
    this.lensEl.replaceChildren(h('table', {},
      h('tbody', {}, ...v.lens.map((pt) => h('tr', { attrs: { 'data-layer': pt.layer + 1, 'data-after': pt.after } },
        h('th', { attrs: { scope: 'row' }, text: w.lensRow(pt.layer + 1, pt.after) }),
        ...pt.top.map((c) => h('td', {}, h('span', { className: 'ch', text: shownChar(c.char) }), ` ${c.p.toFixed(3)}`)))))));
  }

  /** The distribution sampling draws from, after the temperature, after top-k and after top-p, the seed's draw marked. */
  drawSampling() {
    const v = this.view, s = this.state, w = wordsFor(s.lang);
    if (!v?.sample) return;
    const { candidates, sampled } = v.sample;
    const steps = [['temperature', w.afterT(s.temperature)], ['top_k', w.afterK(s.topK)], ['top_p', w.afterP(s.topP)]];
    const cellOf = (c, key) => h('td', {}, h('div', { className: 'bar', attrs: { style: `width: ${(100 * c[key]).toFixed(1)}%` } }), h('span', { text: c[key].toFixed(3) }));
    const rows = candidates.map((c) => h('tr', { attrs: { 'data-char': c.char, ...(c.char === sampled.char ? { 'aria-current': 'true' } : {}) } },
      h('th', { attrs: { scope: 'row' }, text: shownChar(c.char) }), ...steps.map(([key]) => cellOf(c, key))));
    this.samplingEl.replaceChildren(h('table', {},
      h('thead', {}, h('tr', {}, h('th', { text: '' }), ...steps.map(([, label]) => h('th', { attrs: { scope: 'col' }, text: label })))),
      h('tbody', {}, ...rows)),
    h('p', { className: 'drawn', text: w.drawn(s.seed, shownChar(sampled.char), sampled.top_p.toFixed(3)) }));
  }

  /**
   * How much the chosen head, and the best head, attend to the marked cells on this text: the core's
   * line-alignment scores (m.heads(text)), so the overlay never claims a pattern the model does not have.
   */
  async sayLineScores(note) {
    const s = this.state;
    const key = `${s.model}\n${this.viewText}`;
    // one ask per text: redraws while it is on its way share it
    if (this.lineScores?.key !== key) this.lineScores = { key, scores: this.client.call('lineScores', s.model, this.viewText).catch(() => null) };
    const scores = await this.lineScores.scores;
    if (!scores?.length || this.lineScores?.key !== key || !note.isConnected) return; // a newer text, or a redraw, took over
    const mine = scores.find((x) => x.layer === s.layer && x.head === s.head);
    const best = scores.reduce((p, q) => (q.score > p.score ? q : p));
    if (!mine) return;
    note.textContent = wordsFor(s.lang).lineScore(s.layer + 1, s.head + 1, cell(mine.score), best.layer + 1, best.head + 1, cell(best.score),
      best.score < ROLE_THRESHOLD ? String(ROLE_THRESHOLD) : null);
  }

  /**
   * Where candidate c's logit comes from (the core's exact split, attn lm attribute): every part as a bar on one
   * scale, the largest first in the caption, and the grid tinted by its heads' parts on that same scale.
   */
  showPush(c, chosen = true) {
    const w = wordsFor(this.state.lang);
    if (chosen) this.pushed = c.char;
    for (const b of this.bars.querySelectorAll('.candidate')) b.setAttribute('aria-pressed', String(b.dataset.char === c.char));
    const label = (p) => (p.part === 'head' ? w.layerHead(p.layer + 1, p.head + 1) : w.part[p.part](p.layer === null ? 0 : p.layer + 1));
    const fmt = (p) => `${label(p)} ${p.value >= 0 ? '+' : '−'}${Math.abs(p.value).toFixed(2)}`;
    const ranked = [...c.parts].sort((p, q) => Math.abs(q.value) - Math.abs(p.value));
    this.push.textContent = `${w.pushed(shownChar(c.char), c.logit.toFixed(2))} ${ranked.map(fmt).join(' · ')}`;
    const most = Math.max(...c.parts.map((p) => Math.abs(p.value)), 1e-9);
    const sum = c.parts.reduce((t, p) => t + p.value, 0);
    this.sources.replaceChildren(...c.parts.map((p) => h('div', { className: `part ${p.part}`, attrs: { role: 'listitem', 'data-part': p.part,
      'data-layer': p.layer === null ? '' : p.layer + 1, 'data-head': p.head === null ? '' : p.head + 1, 'data-value': p.value } },
    h('span', { text: label(p) }),
    h('div', { className: 'track' }, h('div', { className: p.value >= 0 ? 'pos' : 'neg',
      attrs: { style: `width: ${(50 * Math.abs(p.value) / most).toFixed(2)}%` } })),
    h('span', { text: `${p.value >= 0 ? '+' : '−'}${Math.abs(p.value).toFixed(2)}` }))),
    h('div', { className: 'part total' }, h('span', { text: w.logitSum }), h('span'), h('span', { text: sum.toFixed(2) })));
    // the grid: each head's part on the same scale as the MLPs' and the embedding's
    for (const button of this.gridEl.querySelectorAll('button.head')) {
      const part = c.parts.find((p) => p.part === 'head' && p.layer === button.dataset.layer - 1 && p.head === button.dataset.head - 1);
      const a = (0.45 * Math.abs(part.value) / most).toFixed(3);
      button.style.background = part.value >= 0 ? `rgba(26, 95, 180, ${a})` : `rgba(165, 29, 45, ${a})`;
      button.dataset.tint = (Math.abs(part.value) / most).toFixed(4);
    }
  }

  async hoverCell(canvas, e, n, size) {
    const rect = canvas.getBoundingClientRect();
    const i = Math.floor((e.clientY - rect.top) / size), j = Math.floor((e.clientX - rect.left) / size);
    if (i < 0 || j < 0 || i >= n || j >= n || this.cell?.key === this.cellKey(i, j)) return;
    this.showCell(i, j);
  }

  /** What a caption is of: the model, the text, the layer, the head and the cell (an older answer is dropped). */
  cellKey(i, j) {
    const s = this.state;
    return [s.model, this.viewText, s.layer, s.head, i, j].join('\u0000');
  }

  keyCell(e, n) {
    const c = this.cell ?? { i: 0, j: 0 };
    const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    if (!moves[e.key]) return;
    e.preventDefault();
    const i = Math.max(0, Math.min(n - 1, c.i + moves[e.key][0]));
    this.showCell(i, Math.max(0, Math.min(i, c.j + moves[e.key][1])));
  }

  /** The arithmetic of weight (i, j) of the chosen head, written by the core (m.explain). */
  async showCell(i, j) {
    const key = this.cellKey(i, j);
    this.cell = { i, j, key };
    const s = this.state;
    try {
      const text = await this.client.call('explain', s.model, this.viewText, 'weights', { layer: s.layer, head: s.head, i, j });
      if (this.cell?.key === key) this.caption.textContent = text;
    } catch (error) {
      if (this.cell?.key === key) this.caption.textContent = error.message;
    }
  }

  /**
   * Appends n generated characters (at most what the context has room for; the core's m.generate with this temperature,
   * top-k, top-p and seed), one a frame; resolves to them. The button's call (n undefined) stops a generation in progress.
   */
  async generate(n) {
    const s = this.state;
    if (this.generating) {
      if (n === undefined) return void this.stopGenerating(); // the button says Stop meanwhile
      await new Promise((resolve) => this.addEventListener('generated', resolve, { once: true }));
    }
    const run = ++this.generation;
    const w = wordsFor(s.lang);
    const room = this.nCtx() - [...s.text].length;
    if (!s.text) return void (this.warning.textContent = w.empty);
    if (room <= 0) return void (this.warning.textContent = w.full(this.nCtx()));
    this.generating = true;
    this.genButton.textContent = w.stop;
    const prompt = s.text, model = s.model;
    const current = () => run === this.generation && this.generating && s.model === model; // not stopped, typed over or switched
    try {
      const { temperature, topK, topP, seed } = this.drawOptions();
      const added = await this.client.call('generate', model, prompt, { n: Math.min(n ?? 32, room), temperature, topK, topP, seed });
      if (!current()) return;
      this.lastGenerated = added;
      const steps = s.animate === false ? [added] : [...added]; // all at once: one trace of the whole text
      for (const piece of steps) {
        if (!current()) break;
        s.text += piece;
        this.textBox.value = s.text;
        await this.retrace();
        // animated: the new character's row as the cache step computes it (its keys and values appended)
        if (s.animate !== false && current()) await this.showKvRow(model, s.text);
      }
      this.kvRow = null;
      return added;
    } catch (error) {
      if (run === this.generation) this.error.textContent = error.message;
    } finally {
      if (run === this.generation) {
        this.generating = false;
        this.genButton.textContent = wordsFor(s.lang).generate; // the language may have changed meanwhile
        this.dispatchEvent(new CustomEvent('generated', { detail: { text: this.lastGenerated } }));
      }
    }
  }

  /**
   * While generating: the chosen head's newest row, from the core's key/value-cache step (m.step), outlined
   * in the large view with what the cache holds. It equals the trace's last row (the test checks it).
   */
  async showKvRow(model, text) {
    const stages = await this.client.call('kvRow', model, text);
    const s = this.state;
    const row = stages.find((st) => st.id === 'weights' && st.layer === s.layer);
    const cache = stages.find((st) => st.id === 'kv_cache' && st.layer === s.layer);
    if (!row || !cache || text !== s.text) return;
    const n = row.shape[2];
    this.kvRow = { layer: s.layer, head: s.head, text, weights: Array.from(row.data.subarray(s.head * n, (s.head + 1) * n)) };
    const canvas = this.bigEl.querySelector('canvas');
    if (canvas) {
      const g = canvas.getContext('2d'); // drawPattern left its transform: coordinates in CSS pixels
      const cw = canvas.width / (globalThis.devicePixelRatio || 1) / n;
      g.save();
      g.strokeStyle = '#1f6feb';
      g.lineWidth = Math.max(2, cw / 6);
      g.strokeRect(1, (n - 1) * cw + 1, n * cw - 2, cw - 2);
      g.restore();
    }
    this.caption.textContent = wordsFor(s.lang).kvRow(shownChar([...text].at(-1)), n, cache.shape[3]);
    this.dispatchEvent(new CustomEvent('kvrow', { detail: { ...this.kvRow, cache: cache.shape } }));
  }

  /**
   * The grid as an SVG figure: every layer × head's pattern (a rect a kept cell, its weight in data-w and
   * its colour), its label as text, the characters along the first pattern's sides.
   */
  toSVG() {
    const v = this.view;
    const w = wordsFor(this.state.lang);
    const { n_layer: L, n_head: H } = this.loaded.get(this.state.model).about.config;
    const n = v.tokens.length, cell = 6, size = n * cell, gap = 28, left = 18;
    // the reader's text, escaped, and any character XML cannot hold made visible (xmlSafe): the file always parses
    const esc = (t) => xmlSafe(String(t).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;'));
    const parts = [];
    for (let l = 0; l < L; l++) {
      for (let hd = 0; hd < H; hd++) {
        const x0 = left + hd * (size + gap), y0 = 20 + l * (size + gap + 14);
        const role = this.roleOf(l, hd);
        parts.push(`<g data-layer="${l}" data-head="${hd}"><rect x="${x0}" y="${y0}" width="${size}" height="${size}" fill="#fff" stroke="#d0d7de"/>`);
        for (let i = 0; i < n; i++) {
          for (let j = 0; j <= i; j++) {
            const a = v.weights[l][(hd * n + i) * n + j];
            parts.push(`<rect x="${x0 + j * cell}" y="${y0 + i * cell}" width="${cell}" height="${cell}" fill="${shade(a)}" data-w="${a}"/>`);
          }
        }
        parts.push(`<text x="${x0}" y="${y0 + size + 12}" font-size="12">${esc(`${w.layerHead(l + 1, hd + 1)} · ${w.roles[role.role]} ${role.score.toFixed(2)}`)}</text></g>`);
      }
    }
    const width = left + H * (size + gap), height = 20 + L * (size + gap + 14);
    return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, sans-serif">` +
      `<title>${esc(`${w.grid}: ${this.viewText}`)}</title>${parts.join('')}</svg>`;
  }

  /** Saves the grid as attention-model-<model>.svg. */
  exportSVG() {
    const url = URL.createObjectURL(new Blob([this.toSVG()], { type: 'image/svg+xml' }));
    const a = h('a', { href: url, download: `attention-model-${this.state.model}.svg` });
    this.root.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }

  /** The model trace now shown, as m.trace gives it ({tokens, ids, unknown, stages}); a promise (the model runs in a worker). */
  trace() {
    if (!this.viewText) return Promise.resolve(null);
    return this.client.call('trace', this.state.model, this.viewText);
  }

  /** The k likeliest next characters as the page draws them: after the temperature, top-k and top-p ([{char, p}], a promise). */
  next(k = 10) {
    if (!this.viewText) return Promise.resolve([]);
    return this.client.call('next', this.state.model, this.viewText, k, this.drawOptions());
  }

  /** For tests and pages: head hd of layer l's weights as a flat n × n array, from the last trace. */
  weightsOf(layer, head) {
    const n = this.view.tokens.length;
    return Array.from(this.view.weights[layer].subarray(head * n * n, (head + 1) * n * n));
  }
}
