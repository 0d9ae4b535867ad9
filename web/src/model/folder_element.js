// <attention-folder-model>: a model you bring (GPT-2, Llama, Qwen2 from a Hugging Face folder) in the model mode:
// open it from chosen or dropped files, or from a URL the site serves (model.html?model=URL); read every stage of
// every layer on your text — rotary positions, shared key/value heads, the SwiGLU MLP — its next-token
// probabilities, generation, and one step through the key/value cache. The model runs in its own worker
// (folder_worker.js), which reads the files by range; every number comes from the C++ core.
//
// [SECTION] the worker
// [SECTION] the element: opening, the view, the stage figure, generation and the cache
import { AttentionError } from '../attention_error.js';
import { WorkerCalls } from '../remote/worker_calls.js';
import { h, touchOnly } from '../stepper/dom.js';
import { cell } from '../stepper/format.js';
import { drawStage, STYLE } from './element.js';
import { folderWords } from './folder_words.js';

// [SECTION] the worker

/**
 * The folder view's worker and the model folders' module are served in hf/ beside the model mode's script
 * (assets/hf/ in the site, dist/hf/ in the package), loaded only when a folder is opened.
 */
const scriptBase = typeof document !== 'undefined' && document.currentScript?.src ? new URL('.', document.currentScript.src) : null;
const workerUrl = () => new URL('hf/folder-worker.js', scriptBase ?? globalThis.location?.href).href;

/** The worker's calls: progress(fraction) for the loading; cancel() ends the worker (a new one starts on the next call). */
function folderCalls(onLost) {
  return new WorkerCalls({
    spawn: () => new Worker(workerUrl()),
    what: 'the model\'s worker',
    lost: onLost,
  });
}

const DEFAULT_TEXT = '我今天去了火锅店，那家店需要提前预约吗？';
/** The stages whose columns are the keys: one per token the query row sees. */
const ATTENTION_IDS = /^(scores|scaled|masked|exp|weights)$/;
const PER_HEAD_IDS = /^(q|k|v|q_rot|k_rot|scores|scaled|masked|row_max|exp|row_sum|weights|context|kv_cache)$/;

// [SECTION] the element: opening, the view, the stage figure, generation and the cache

export class AttentionFolderModel extends HTMLElement {
  constructor() {
    super();
    this.root = this.attachShadow({ mode: 'open' });
    this.state = { text: DEFAULT_TEXT, layer: 0, stage: 'q_rot', head: 0, lang: 'en', temperature: 0.8, seed: 1 };
    this.opened = null; // {about, facts, memory, ms, threads, relaxedSimd}
    this.pending = 0;
  }

  connectedCallback() {
    if (this.calls) return;
    this.state.lang = (this.getAttribute('lang') ?? 'en').startsWith('zh') ? 'zh' : 'en';
    this.calls = folderCalls((sentence) => this.say(sentence, 'error'));
    this.build();
  }

  disconnectedCallback() {
    this.calls?.call('close', []).catch(() => {});
  }

  /** The model's worker, for tests (which may close it). */
  get worker() { return this.calls.worker; }

  build() {
    const w = folderWords(this.state.lang);
    const s = this.state;
    this.root.replaceChildren();
    const frame = h('div', { className: 'frame', attrs: { part: 'folder-model', lang: s.lang === 'zh' ? 'zh-CN' : 'en' } });
    this.root.append(h('style', { text: `${STYLE}
.tokens { display: flex; flex-wrap: wrap; gap: 3px; margin: 4px 0 8px; } .tok { border: 1px solid #d0d7de; border-radius: 4px; padding: 1px 5px; font: 14px/1.4 "Noto Sans CJK SC", monospace; white-space: pre; }
.tok.piece { border-style: dashed; color: #6b3f00; }
progress { width: min(420px, 100%); } .drop { border: 2px dashed #8a96a3; border-radius: 8px; padding: 8px 12px; }
.drop.over { background: #eef3fa; border-color: #1a5fb4; } .figure { overflow: auto; max-height: 70vh; } .pickers { display: flex; flex-wrap: wrap; gap: 8px 16px; align-items: center; }
.pickers select { max-width: 22em; }
.bars .candidate { grid-template-columns: minmax(3em, 10em) 1fr 4.5em; } .candidate > span:first-child { white-space: pre; overflow: hidden; text-overflow: ellipsis; }` }), frame);
    this.fileInput = h('input', { type: 'file', attrs: { multiple: '', webkitdirectory: '', 'aria-label': w.open, hidden: '' },
      onchange: () => this.fileInput.files.length && this.open({ files: [...this.fileInput.files] }).catch(() => {}) }); // said in the status line
    this.status = h('p', { className: 'hint', attrs: { 'aria-live': 'polite' } });
    this.progress = h('progress', { attrs: { hidden: '', max: '1', value: '0' } });
    this.cancelButton = h('button', { text: w.cancel, attrs: { hidden: '' }, onclick: () => this.cancel() });
    this.aboutLine = h('p', { className: 'hint about' });
    this.textBox = h('textarea', { value: s.text, rows: 2, attrs: { 'aria-label': w.text }, oninput: () => { s.text = this.textBox.value; this.refresh(); } });
    this.tokensLine = h('p', { className: 'hint' });
    this.tokensEl = h('div', { className: 'tokens', attrs: { role: 'list' } });
    this.layerSelect = h('select', { attrs: { 'aria-label': w.layer }, onchange: () => { s.layer = Number(this.layerSelect.value); this.fillStages(); this.fillStepperSection(); this.refresh(); } });
    this.stageSelect = h('select', { attrs: { 'aria-label': w.stage }, onchange: () => { s.stage = this.stageSelect.value; s.head = 0; this.refresh(); } });
    this.headSelect = h('select', { attrs: { 'aria-label': w.head }, onchange: () => { s.head = Number(this.headSelect.value); this.drawFigure(); } });
    this.figTitle = h('h2');
    this.figAbout = h('p', { className: 'stage-about hint' });
    this.axes = h('p', { className: 'hint axes' });
    this.canvas = h('canvas', { attrs: { role: 'img' } });
    this.canvas.addEventListener('pointermove', (e) => this.hoverCell(e));
    this.canvas.addEventListener('pointerdown', (e) => this.hoverCell(e)); // a tap on a touch screen
    this.caption = h('p', { className: 'caption', attrs: { 'aria-live': 'polite' }, text: touchOnly() ? w.tap : w.hover });
    this.bars = h('div', { className: 'bars' });
    this.tempInput = h('input', { type: 'number', min: '0', max: '2', step: '0.1', value: String(s.temperature), attrs: { 'aria-label': w.temperature } });
    this.seedInput = h('input', { type: 'number', min: '0', step: '1', value: String(s.seed), attrs: { 'aria-label': w.seed } });
    this.cacheEl = h('div', {});
    this.view = h('div', { attrs: { hidden: '' } },
      this.aboutLine,
      h('label', { text: w.text, attrs: { for: 'folder-text' } }), this.textBox,
      this.tokensLine, this.tokensEl,
      h('div', { className: 'pickers' }, h('label', {}, `${w.layer} `, this.layerSelect), h('label', {}, `${w.stage} `, this.stageSelect),
        h('label', {}, `${w.head} `, this.headSelect)),
      this.figTitle, this.figAbout, this.axes, h('div', { className: 'figure', attrs: { tabindex: '0', 'aria-label': w.figure } }, this.canvas), this.caption,
      h('section', {}, h('h2', { text: w.next }), h('p', { className: 'hint', text: w.nextHint }), this.bars,
        h('div', { className: 'gen' }, h('label', {}, w.temperature, this.tempInput), h('label', {}, w.seed, this.seedInput),
          h('button', { className: 'primary', text: w.generate(10), onclick: () => this.generate(10) }))),
      h('section', {}, h('h2', { text: w.cacheTitle }), h('button', { text: w.cacheButton, onclick: () => this.showCache() }), this.cacheEl),
      this.stepperSection = h('section', {}));
    this.textBox.id = 'folder-text';
    const drop = h('div', { className: 'drop' },
      h('div', { className: 'top' }, h('h1', { text: w.title }),
        h('button', { className: 'primary', text: w.open, onclick: () => this.fileInput.click() }),
        h('button', { text: w.back, onclick: () => this.dispatchEvent(new CustomEvent('close', { bubbles: true, composed: true })) })),
      h('p', { className: 'hint', text: w.openHint }), this.fileInput,
      h('div', { className: 'top' }, this.progress, this.cancelButton), this.status);
    drop.addEventListener('dragover', (e) => { e.preventDefault(); drop.classList.add('over'); });
    drop.addEventListener('dragleave', () => drop.classList.remove('over'));
    drop.addEventListener('drop', (e) => { e.preventDefault(); drop.classList.remove('over'); this.dropped(e.dataTransfer); });
    frame.append(drop, this.view);
    if (this.opened) this.showOpened();
  }

  /** A sentence in the status line (kind 'hint' or 'error'). */
  say(text, kind = 'hint') {
    this.status.textContent = text;
    this.status.className = kind;
    if (kind === 'error') this.status.setAttribute('role', 'alert');
    else this.status.removeAttribute('role');
  }

  /** Files or a folder dropped: a folder's entries are read one level down. */
  async dropped(transfer) {
    const entries = [...(transfer.items ?? [])].map((item) => item.webkitGetAsEntry?.()).filter(Boolean);
    const files = [];
    const fileOf = (entry) => new Promise((resolve, reject) => entry.file(resolve, reject));
    for (const entry of entries) {
      if (entry.isFile) files.push(await fileOf(entry));
      else if (entry.isDirectory) {
        const inner = await new Promise((resolve, reject) => entry.createReader().readEntries(resolve, reject));
        for (const e of inner) if (e.isFile) files.push(await fileOf(e));
      }
    }
    if (!files.length) files.push(...(transfer.files ?? []));
    if (files.length) await this.open({ files }).catch(() => {}); // a refusal is said in the status line
  }

  /**
   * Opens a model: {files} (File objects) or a folder's URL. Resolves with the model's about, or rejects with the
   * core's sentence (also said in the page); the view of a model opened before stays until the new one is open.
   */
  async open(source) {
    const w = folderWords(this.state.lang);
    if (typeof source === 'string' && location.protocol === 'file:') {
      this.say(w.served, 'error');
      throw new AttentionError(w.served);
    }
    this.progress.hidden = this.cancelButton.hidden = false;
    this.progress.removeAttribute('value');
    this.say(w.reading('0', 0));
    const started = performance.now();
    try {
      // a folder's URL resolved here: the worker's own location is a blob: URL, which no relative URL resolves against
      const what = typeof source === 'string' ? new URL(source, location.href).href : source;
      const opened = await this.calls.call('open', [what], (p) => {
        if (p.total) this.progress.value = p.loaded / p.total;
        this.say(w.reading((p.loaded / 2 ** 20).toFixed(1), p.total ? (p.total / 2 ** 20).toFixed(1) : 0));
      });
      this.opened = { ...opened, chooseMs: performance.now() - started };
      this.say('');
      this.showOpened();
      await this.refresh();
      this.opened.firstDrawnMs = performance.now() - started; // from choosing the files to the first drawn layer
      this.dispatchEvent(new CustomEvent('opened', { detail: this.opened }));
      return opened.about;
    } catch (error) {
      if (!this.cancelling) this.say(w.failed(error.message), 'error');
      throw error;
    } finally {
      this.progress.hidden = this.cancelButton.hidden = true;
      this.cancelling = false;
    }
  }

  /** Stops a loading: its worker ends (a new one starts on the next call). */
  cancel() {
    this.cancelling = true;
    this.calls.die(this.calls.worker, 'cancelled');
    this.opened = null;
    this.view.hidden = true;
    this.say(folderWords(this.state.lang).cancelled);
  }

  showOpened() {
    const { about, facts, memory, ms, threads, relaxedSimd } = this.opened;
    const w = folderWords(this.state.lang);
    this.aboutLine.textContent = w.about(about, (about.weight_bytes / 2 ** 20).toFixed(1), (ms / 1000).toFixed(1), threads, relaxedSimd);
    this.aboutLine.dataset.heapBytes = memory.heapInUse;
    this.aboutLine.dataset.threads = threads;
    this.aboutLine.dataset.simd = relaxedSimd ? 'relaxed' : 'simd128';
    this.facts = facts;
    this.layerSelect.replaceChildren(h('option', { value: '-1', text: w.global }),
      ...Array.from({ length: about.n_layer }, (_, l) => h('option', { value: String(l), text: `${w.layer} ${l + 1}` })));
    if (this.state.layer >= about.n_layer) this.state.layer = 0;
    this.layerSelect.value = String(this.state.layer);
    this.view.hidden = false;
    this.fillStages();
    this.fillStepperSection();
  }

  /** The layer in the playground's stepper: GPT-2's from its LayerNorm, Llama's and Qwen2's from their RMS norm. */
  fillStepperSection() {
    const w = folderWords(this.state.lang);
    const rotary = this.opened.about.architecture !== 'gpt2';
    const layer = Math.max(0, this.state.layer) + 1;
    this.stepperBox = h('div', {});
    this.stepperSection.replaceChildren(h('h2', { text: w.stepperTitle }),
      h('p', { className: 'hint', text: rotary ? w.stepperHintRotary : w.stepperHint }),
      h('button', { text: w.stepperButton(layer), onclick: () => this.showLayer() }), this.stepperBox);
  }

  /** The chosen layer's attention as a spec from the core (m.layerSpec), traced by the stepper with the model's numbers. */
  async showLayer() {
    const w = folderWords(this.state.lang);
    if (!customElements.get('attention-stepper')) return this.stepperBox.replaceChildren(h('p', { className: 'hint', text: w.needsStepper }));
    try {
      const spec = await this.calls.call('layerSpec', [this.state.text, Math.max(0, this.state.layer)]);
      this.stepperEl = h('attention-stepper', { attrs: { stage: 'weights', lang: this.state.lang, spec: JSON.stringify(spec) } });
      this.stepperBox.replaceChildren(this.stepperEl);
    } catch (error) {
      this.say(error.message, 'error');
    }
  }

  /** The stage picker: the stages of the chosen layer (or the global ones) in trace order, with their titles. */
  fillStages() {
    const lang = this.state.lang;
    const global = this.state.layer < 0;
    const ids = this.opened.ids.filter((id) => this.opened.globals.includes(id) === global);
    if (!ids.includes(this.state.stage)) this.state.stage = ids.includes('q_rot') ? 'q_rot' : ids[0];
    this.stageSelect.replaceChildren(...ids.map((id) => h('option', { value: id, text: `${this.facts[id].symbol} · ${this.facts[id].title[lang]} (${id})` })));
    this.stageSelect.value = this.state.stage;
  }

  /** Traces the text (the worker keeps the trace) and draws its tokens, the chosen stage and the next-token bars. */
  async refresh() {
    if (!this.opened) return;
    const s = this.state;
    const w = folderWords(s.lang);
    if (!s.text) return this.say(w.empty);
    const ticket = ++this.pending;
    try {
      const v = await this.calls.call('view', [s.text, s.stage, s.layer < 0 ? null : s.layer, 10]);
      if (ticket !== this.pending) return; // a newer keystroke's view follows
      this.say('');
      this.shown = v;
      this.tokensLine.textContent = w.tokens(v.tokens.length);
      this.tokensEl.replaceChildren(...v.tokens.map((t, i) => h('span', { className: /\(\d+\/\d+\)$/.test(t) ? 'tok piece' : 'tok', text: t,
        attrs: { role: 'listitem', 'data-id': String(v.ids[i]) } })));
      this.drawFigure();
      this.bars.replaceChildren(...v.next.map((c) => h('div', { className: 'candidate', attrs: { 'data-token-id': String(c.id) } },
        h('span', { text: c.token }), h('div', { className: 'bar', attrs: { style: `width: ${(100 * c.p).toFixed(1)}%` } }), h('span', { text: cell(c.p) }))));
    } catch (error) {
      if (ticket === this.pending) this.say(error.message, 'error');
    }
  }

  /** The chosen stage (one head of a per-head stage) as a heatmap on its registry's colour scale. */
  drawFigure() {
    const { stage } = this.shown;
    const s = this.state;
    const w = folderWords(s.lang);
    const fact = this.facts[stage.id];
    const heads = stage.shape.length === 3 && PER_HEAD_IDS.test(stage.id) ? stage.shape[0] : 1;
    const about = this.opened.about;
    const kv = /^(k|v|k_rot)$/.test(stage.id) && about.n_kv_head < about.n_head;
    const group = about.n_head / about.n_kv_head;
    this.headSelect.replaceChildren(...Array.from({ length: heads }, (_, i) => h('option', { value: String(i),
      text: kv ? w.kvHead(i + 1, Array.from({ length: group }, (_, k) => i * group + k + 1).join(', ')) : String(i + 1) })));
    if (s.head >= heads) s.head = 0;
    this.headSelect.value = String(s.head);
    this.headSelect.disabled = heads === 1;
    const rows = stage.shape.length === 3 ? stage.shape[1] : stage.shape[0];
    const cols = stage.shape.at(-1);
    const data = heads > 1 ? stage.data.subarray(s.head * rows * cols, (s.head + 1) * rows * cols) : stage.data;
    const layerName = stage.layer === null ? w.global : `${w.layer} ${stage.layer + 1}`;
    this.figTitle.textContent = `${layerName} · ${fact.symbol} · ${fact.title[s.lang]}`;
    this.figAbout.replaceChildren(h('code', { text: fact.formula }), ` ${fact.explain[s.lang]}`);
    const size = Math.max(2, Math.min(28, Math.floor(900 / Math.max(cols, 1)), Math.floor(560 / Math.max(rows, 1))));
    drawStage(this.canvas, data, rows, cols, size, size, fact.scale);
    const tokens = this.shown.tokens.length;
    this.axes.textContent = w.axes(rows === tokens ? tokens : null, rows, ATTENTION_IDS.test(stage.id) ? tokens : null, cols);
    Object.assign(this.canvas.dataset, { stage: stage.id, layer: stage.layer === null ? '' : String(stage.layer + 1), head: String(s.head + 1),
      rows: String(rows), cols: String(cols), first: String(data[0]) });
    this.canvas.setAttribute('aria-label', this.figTitle.textContent);
    this.cellSize = size;
    this.figureData = { data, rows, cols };
  }

  hoverCell(e) {
    if (!this.figureData) return;
    const { data, rows, cols } = this.figureData;
    const r = this.canvas.getBoundingClientRect();
    const i = Math.floor((e.clientY - r.top) / this.cellSize);
    const j = Math.floor((e.clientX - r.left) / this.cellSize);
    if (i < 0 || j < 0 || i >= rows || j >= cols) return;
    const row = this.shown.tokens[i] !== undefined && rows === this.shown.tokens.length ? `${i + 1} (${this.shown.tokens[i]})` : String(i + 1);
    this.caption.textContent = folderWords(this.state.lang).cell(row, j + 1, cell(data[i * cols + j]));
  }

  /** n new tokens with the chosen temperature and seed, through the cache; appended to the text. */
  async generate(n) {
    const s = this.state;
    s.temperature = Math.max(0, Math.min(2, Number(this.tempInput.value) || 0));
    s.seed = Math.max(0, Math.floor(Number(this.seedInput.value) || 0));
    try {
      const made = await this.calls.call('generate', [s.text, { n, temperature: s.temperature, seed: s.seed }]);
      s.text += made.text;
      this.textBox.value = s.text;
      await this.refresh();
      return made.text;
    } catch (error) {
      this.say(error.message, 'error');
      throw error;
    }
  }

  /** The last token through the key/value cache in the chosen layer: the cache's keys (one kv head) and the new row. */
  async showCache() {
    const s = this.state;
    const w = folderWords(s.lang);
    const layer = Math.max(0, s.layer);
    try {
      const step = await this.calls.call('step', [s.text, layer]);
      const [, g, n, dh] = step.cache.shape;
      const keys = h('canvas', { attrs: { role: 'img', 'aria-label': `K cache, layer ${layer + 1}`, 'data-shape': step.cache.shape.join('×') } });
      const row = h('canvas', { attrs: { role: 'img', 'aria-label': `new row of weights, layer ${layer + 1}`, 'data-shape': step.weights.shape.join('×') } });
      const size = Math.max(2, Math.min(20, Math.floor(700 / Math.max(n, dh))));
      drawStage(keys, step.cache.data.subarray(0, n * dh), n, dh, size, size, 'signed');
      drawStage(row, step.weights.data.subarray(0, n), 1, n, size, size, 'probability');
      this.cacheEl.replaceChildren(h('p', { className: 'hint', text: w.cache(layer + 1, n, g, dh) }), keys, h('div', {}, row));
    } catch (error) {
      this.say(error.message, 'error');
    }
  }

  /** The trace now shown, every stage copied out ({tokens, ids, stages}), as the npm model's trace gives it. */
  trace() {
    return this.calls.call('trace', [this.state.text]);
  }
}
