// <attention-induction seed="1" lang="en|zh">: the train mode's induction lesson. A fresh 2-layer model
// trains in the model's Web Worker (client.js, worker.js: lessonStart, lessonTrain), and this element only
// draws what the core sends: the loss per step, every head's induction and previous-token score per step
// (the core's head detectors), and every head's pattern on a string repeated twice. Paused, a click on a
// head opens its layer in the playground's <attention-stepper>, with the gradient of the model's loss under
// every stage (the core's m.layerGrad, carried through the layer's stages by the sequence core's a.grad).
import { clear, h, svg } from '../stepper/dom.js';
import { headColor, weightColor } from '../stepper/colors.js';
import { cell } from '../stepper/format.js';
import { shippedData } from './assets.js';
import { ModelClient } from './client.js';
import { inductionWords } from './induction_words.js';
import { FORMED } from './lesson.js';

/** Steps asked of the worker at once, and the most worker time one ask may take (the pictures keep up). */
const STEPS_PER_ASK = 25;
const ASK_MS = 60;
const CELL = 3; // px a cell of a pattern

/** 16 different characters of the vocabulary (its most frequent letters, in a fixed shuffled order), twice. */
function probeOf(vocab, nCtx) {
  const pool = vocab.slice(1).filter((c) => /^[a-z]$/.test(c));
  let s = 12345;
  for (let i = pool.length - 1; i > 0; i--) {
    s = (s * 1103515245 + 12345) >>> 0;
    const j = s % (i + 1);
    [pool[i], pool[j]] = [pool[j], pool[i]];
  }
  const half = pool.slice(0, Math.min(16, pool.length, nCtx / 2)).join('');
  return half + half;
}

export class AttentionInduction extends HTMLElement {
  static get observedAttributes() { return ['lang', 'seed']; }

  constructor() {
    super();
    this.root = this.attachShadow({ mode: 'open' });
    this.root.append(h('style', { text: CSS }));
    this.view = h('div', { className: 'lesson', attrs: { part: 'lesson' } });
    this.root.append(this.view);
    this.losses = [];
    this.history = []; // [{step, heads}] after each ask of the worker
    this.playing = false;
    this.done = 0;
    this.phaseStep = null; // the first step at which a layer-2 head's induction score reached FORMED
    this.trainMs = 0; // the page's wall time spent training (steps per second = done / trainMs)
    this.lessonRun = 0; // which start (Reset) the answers on their way belong to: an older one's are dropped
  }

  get lang() { return this.getAttribute('lang') === 'zh' ? 'zh' : 'en'; }
  get seed() {
    const s = Number(this.getAttribute('seed') ?? 1);
    return Number.isSafeInteger(s) && s >= 0 ? s : 1;
  }
  get w() { return inductionWords(this.lang); }
  /** Steps per second of training in this page so far. */
  get stepsPerSecond() { return this.trainMs > 0 ? (this.done * 1000) / this.trainMs : 0; }

  connectedCallback() {
    if (this.started) return;
    this.started = true;
    this.client = new ModelClient();
    // a worker that died took the lesson's model with it: said at once; Reset starts the lesson in a new one
    this.client.onLost = (sentence) => {
      this.pause();
      this.showError(sentence);
    };
    this.ready = this.start();
  }

  /**
   * The page's footer (train.html's says "full-batch Adam", which the other lessons use) says how this lesson trains,
   * in the lesson's language; the page's own words come back when the lesson leaves it.
   */
  ownFooter() {
    const footer = document.querySelector('body > footer[data-zh]');
    if (!footer) return;
    this.footerWas ??= { footer, en: footer.dataset.en ?? footer.textContent.trim(), zh: footer.dataset.zh };
    footer.dataset.en = inductionWords('en').footer;
    footer.dataset.zh = inductionWords('zh').footer;
    footer.textContent = this.lang === 'zh' ? footer.dataset.zh : footer.dataset.en;
  }

  disconnectedCallback() {
    if (this.footerWas) {
      const { footer, en, zh } = this.footerWas;
      Object.assign(footer.dataset, { en, zh });
      footer.textContent = document.documentElement.lang.startsWith('zh') ? zh : en;
      this.footerWas = null;
    }
    this.pause();
  }

  attributeChangedCallback(name, old, value) {
    if (!this.started || old === value) return;
    if (name === 'lang') this.render();
    if (name === 'seed') this.ready = this.start();
  }

  /** A fresh model at step 0 (the seed fixes its weights and its batches). */
  async start() {
    this.pause();
    const run = ++this.lessonRun; // a training step or a picture still on its way belongs to the old model
    this.stepperTicket = (this.stepperTicket ?? 0) + 1; // a layer still on its way belongs to the old model
    this.losses = [];
    this.history = [];
    this.done = 0;
    this.phaseStep = null;
    this.phaseHead = null;
    this.trainMs = 0;
    clear(this.view).append(h('p', { className: 'loading', text: this.w.loading }));
    try {
      const text = await shippedData('lesson-en', 'lessonText'); // the lesson's corpus, fortune-format English
      const first = await this.client.call('lessonStart', text, this.seed);
      if (run !== this.lessonRun) return; // Reset again meanwhile: the newer start draws
      this.about = first.about;
      this.steps = first.steps;
      this.probe = probeOf(first.about.vocab, first.about.config.n_ctx);
      this.history.push({ step: 0, heads: first.heads });
      this.render();
      await this.showPatterns();
    } catch (error) {
      if (run === this.lessonRun) clear(this.view).append(h('p', { className: 'error', attrs: { role: 'alert' }, text: this.w.failed(String(error?.message ?? error)) }));
    }
  }

  /** A step or a picture the worker refused (it died): its sentence under the controls, training paused. */
  showError(message) {
    if (this.host?.error) this.host.error.textContent = String(message);
  }

  play() {
    if (this.playing || !this.about || this.done >= this.steps) return;
    this.playing = true;
    this.closeStepper();
    this.showControls();
    const loop = async (id) => {
      try {
        // one loop at a time: a Pause and Play while an ask is on its way end the older loop
        while (this.playing && id === this.loopId && this.done < this.steps) {
          await this.train(STEPS_PER_ASK);
          await new Promise((resolve) => requestAnimationFrame(resolve)); // a frame between asks: the charts are drawn
        }
      } catch (error) {
        this.showError(error?.message ?? error);
      }
      if (this.playing && id === this.loopId) this.pause();
    };
    loop((this.loopId = (this.loopId ?? 0) + 1));
  }

  pause() {
    if (!this.playing) return;
    this.playing = false;
    this.showControls();
    this.showCharts(); // the throttled pictures catch up with the last steps
    if (!this.patternsBusy) this.showPatterns();
  }

  /** count steps in the worker (fewer if its time for one ask runs out), then the charts and the patterns. */
  async train(count) {
    const run = this.lessonRun;
    const started = performance.now();
    const answer = await this.client.call('lessonTrain', count, ASK_MS);
    if (run !== this.lessonRun) return; // Reset meanwhile: these steps were the old model's
    this.trainMs += performance.now() - started;
    this.losses.push(...answer.losses);
    this.done = answer.done;
    this.history.push({ step: answer.done, heads: answer.heads });
    const formed = answer.heads.filter((s) => s.layer === 1 && s.induction >= FORMED).sort((p, q) => q.induction - p.induction)[0];
    if (this.phaseStep === null && formed) {
      this.phaseStep = answer.done;
      this.phaseHead = formed; // the head that crossed, and its score then
    }
    // the charts at most four times a second and the patterns twice (each ask is a few dozen steps):
    // the page's thread draws a little, often, and training never waits for it
    const now = performance.now();
    const last = this.done >= this.steps || !this.playing;
    if (last || now - (this.chartsAt ?? 0) > 250) {
      this.chartsAt = now;
      this.showCharts();
    }
    this.showControls();
    if (!this.patternsBusy && (last || now - (this.patternsAt ?? 0) > 500)) {
      this.patternsAt = now;
      this.showPatterns(); // at most one in flight
    }
    this.dispatchEvent(new CustomEvent('trainstep', { detail: { step: this.done } }));
  }

  async stepOnce() {
    this.pause();
    try {
      await this.train(STEPS_PER_ASK);
    } catch (error) {
      this.showError(error?.message ?? error);
    }
  }

  // [SECTION] drawing

  render() {
    const w = this.w;
    this.host = {};
    this.host.play = h('button', { type: 'button', className: 'play', on: { click: () => (this.playing ? this.pause() : this.play()) } });
    this.host.status = h('span', { className: 'status', attrs: { role: 'status' } });
    this.host.phase = h('p', { className: 'phase', attrs: { 'aria-live': 'polite' } });
    this.host.charts = h('div', { className: 'charts' });
    this.host.patterns = h('div', { className: 'patterns', attrs: { role: 'group', 'aria-label': w.patterns } });
    this.host.stepper = h('div', { className: 'stepper-box' });
    this.host.error = h('p', { className: 'error', attrs: { role: 'alert' } });
    clear(this.view).append(
      h('h2', { text: w.title }),
      h('p', { className: 'why', text: w.why }),
      h('p', { className: 'setup', text: w.setup(this.steps) }),
      h('div', { className: 'bar' }, this.host.play,
        h('button', { type: 'button', className: 'step', text: w.stepButton, on: { click: () => this.stepOnce() } }),
        h('button', { type: 'button', className: 'reset', text: `↺ ${w.reset}`, on: { click: () => { this.ready = this.start(); } } }),
        h('span', { className: 'seed', text: `${w.seed} ${this.seed}` }),
        this.host.status),
      this.host.error, this.host.phase, this.host.charts,
      h('h3', { text: w.patterns }), h('p', { className: 'hint', text: w.patternsHint }), this.host.patterns, this.host.stepper,
      h('p', { className: 'hint to-model' }, h('a', { href: w.modelHref, text: w.modelLink })));
    this.view.lang = this.lang === 'zh' ? 'zh-CN' : 'en';
    this.ownFooter();
    this.showControls();
    this.showCharts();
  }

  showControls() {
    if (!this.host) return;
    const w = this.w;
    this.host.play.textContent = this.playing ? `❚❚ ${w.pause}` : `► ${w.play}`;
    this.host.play.setAttribute('aria-pressed', String(this.playing));
    this.host.status.textContent = `${w.status(this.done, this.steps)}${this.losses.length ? ` · ${w.lossNow(cell(this.losses.at(-1)))}` : ''}`;
    const at = this.phaseHead;
    this.host.phase.textContent = this.phaseStep !== null && at ? w.born(this.phaseStep, at.head + 1, cell(at.induction)) : w.notYet;
    this.host.phase.classList.toggle('formed', this.phaseStep !== null);
  }

  showCharts() {
    if (!this.host) return;
    const w = this.w;
    const top = Math.max(1, Math.ceil(Math.max(...this.losses.slice(0, 50), 4)));
    const loss = this.lineChart({
      title: w.chartLoss, yMax: top, ticks: Array.from({ length: top + 1 }, (_, k) => k),
      series: [{ points: this.losses.map((v, k) => [k + 1, v]), color: '#1b1f24', width: 1, cls: 'loss-line' }],
    });
    const heads = this.about?.config.n_head ?? 0;
    const series = [];
    for (let hh = 0; hh < heads; hh++) {
      for (const [layer, key, dash] of [[1, 'induction', ''], [0, 'previous_token', '5 3']]) {
        series.push({
          color: headColor(hh), dash, width: layer === 1 ? 2 : 1.5, cls: `score-line layer-${layer + 1}`, head: hh + 1, key,
          points: this.history.map(({ step, heads: hs }) => [step, hs.find((x) => x.layer === layer && x.head === hh)?.[key] ?? 0]),
        });
      }
    }
    const scores = this.lineChart({ title: w.chartScores, yMax: 1, ticks: [0, 0.2, FORMED, 0.6, 0.8, 1], mark: FORMED, series, legend: heads });
    clear(this.host.charts).append(h('figure', {}, h('figcaption', { text: w.chartLoss }), loss),
      h('figure', {}, h('figcaption', { text: w.chartScores }), scores));
  }

  /**
   * Lines over the lesson's steps on a linear axis from 0 to yMax (the loss; the head scores, each head its
   * colour, layer 2's induction solid and layer 1's previous token dashed, the threshold marked).
   */
  lineChart({ title, yMax, ticks, series, mark = null, legend = 0 }) {
    const w = this.w;
    const W = 600, H = 200, L = 40, R = 12, T = 10, B = 32;
    const px = (step) => L + (step / Math.max(1, this.steps)) * (W - L - R);
    const py = (v) => H - B - (Math.max(0, Math.min(yMax, v)) / yMax) * (H - B - T);
    const g = svg('svg', { viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': title, class: 'line-chart' });
    for (const v of ticks) {
      g.append(svg('line', { x1: L, x2: W - R, y1: py(v), y2: py(v), stroke: v === mark ? '#bf8700' : '#e1e4e8', 'stroke-dasharray': v === mark ? '4 3' : '' }));
      g.append(svg('text', { x: L - 6, y: py(v) + 4, 'text-anchor': 'end', 'font-size': 12, fill: '#57606a' }, String(v)));
    }
    for (let k = 0; k <= 4; k++) {
      const step = Math.round((this.steps * k) / 4);
      g.append(svg('text', { x: px(step), y: H - B + 16, 'text-anchor': 'middle', 'font-size': 12, fill: '#57606a' }, String(step)));
    }
    g.append(svg('text', { x: (L + W) / 2, y: H - 3, 'text-anchor': 'middle', 'font-size': 12, fill: '#57606a' }, w.step));
    for (const s of series) {
      const points = s.points.map(([x, y]) => `${px(x).toFixed(1)},${py(y).toFixed(1)}`).join(' ');
      g.append(svg('polyline', { points, fill: 'none', stroke: s.color, 'stroke-width': s.width, 'stroke-dasharray': s.dash ?? '', class: s.cls,
        ...(s.head ? { 'data-head': String(s.head), 'data-key': s.key } : {}) }));
    }
    // the legend: one line per head colour, and what the two dashes mean
    for (let hh = 0; hh < legend; hh++) {
      const x = L + 8 + hh * 70;
      g.append(svg('line', { x1: x, x2: x + 16, y1: T + 8, y2: T + 8, stroke: headColor(hh), 'stroke-width': 2 }));
      g.append(svg('text', { x: x + 20, y: T + 12, 'font-size': 12, fill: '#1b1f24' }, `H${hh + 1}`));
    }
    if (legend) g.append(svg('text', { x: L + 8, y: T + 28, 'font-size': 12, fill: '#57606a' }, w.legend));
    return g;
  }

  /** Every head's weights on the probe (a string repeated twice), from the core's trace in the worker. */
  async showPatterns() {
    if (!this.host || !this.about) return;
    const run = this.lessonRun;
    this.patternsBusy = true;
    try {
      const view = await this.client.call('view', 'lesson', this.probe, 1);
      if (!this.host || run !== this.lessonRun) return; // the old model's patterns, after a Reset
      const { n_layer: layers, n_head: heads } = this.about.config;
      const n = view.tokens.length;
      const w = this.w;
      const tiles = [];
      for (let l = 0; l < layers; l++) {
        for (let hh = 0; hh < heads; hh++) {
          const canvas = h('canvas', { width: n, height: n, style: `width:${n * CELL}px;height:${n * CELL}px`, attrs: { 'aria-hidden': 'true' } });
          const image = new ImageData(n, n);
          const data = view.weights[l];
          for (let i = 0; i < n; i++) {
            for (let j = 0; j < n; j++) {
              const rgb = j > i ? [246, 248, 250] : weightColor(data[(hh * n + i) * n + j]); // fixed 0 … 1
              image.data.set([...rgb, 255], 4 * (i * n + j));
            }
          }
          canvas.getContext('2d').putImageData(image, 0, 0);
          const score = this.history.at(-1)?.heads.find((s) => s.layer === l && s.head === hh);
          tiles.push(h('button', {
            type: 'button', className: 'tile', dataset: { layer: String(l + 1), head: String(hh + 1) },
            on: { click: () => this.openStepper(l, hh) },
          }, h('span', { className: 'tile-label', text: `${w.layerHead(l + 1, hh + 1)} · ${cell(l === 1 ? score?.induction ?? 0 : score?.previous_token ?? 0)}` }), canvas));
        }
      }
      clear(this.host.patterns).append(...tiles);
    } catch (error) {
      if (run === this.lessonRun) this.showError(error?.message ?? error);
    } finally {
      this.patternsBusy = false;
    }
  }

  /**
   * Paused: layer l's attention on the probe, every stage, in the playground's stepper (head hh shown), and
   * under each stage the gradient of the model's loss on the probe: the lm core sends the gradient at the
   * layer's attention output (m.layerGrad), the sequence core carries it back through every stage (a.grad).
   */
  async openStepper(l, hh) {
    this.pause();
    const w = this.w;
    if (!customElements.get('attention-stepper')) {
      clear(this.host.stepper).append(h('p', { className: 'hint', text: w.needsStepper }));
      return;
    }
    // a newer click, Play or Reset while the worker answers makes this answer stale: it is not drawn
    const ticket = (this.stepperTicket = (this.stepperTicket ?? 0) + 1);
    const current = () => ticket === this.stepperTicket && !this.playing && this.host;
    const failed = (error) => {
      if (current()) clear(this.host.stepper).append(h('p', { className: 'error', attrs: { role: 'alert' }, text: w.stepperFailed(String(error?.message ?? error)) }));
    };
    let answer;
    try {
      answer = await this.client.call('layerGrad', 'lesson', this.probe, l);
    } catch (error) {
      failed(error);
      return;
    }
    if (!current()) return;
    const { loss: kind, upstream, ...spec } = answer.spec;
    const stepper = h('attention-stepper', { attrs: { stage: 'weights', lang: this.lang, controls: 'nav timeline heads', spec: JSON.stringify(spec) } });
    clear(this.host.stepper).append(h('h3', { text: w.stepper(l + 1, hh + 1) }), stepper);
    this.stepperReady = customElements.whenDefined('attention-stepper').then(() => stepper.ready).then(() => {
      if (!current()) return undefined;
      stepper.store?.set({ head: hh });
      return stepper.inspect(spec, { loss: kind, upstream }, answer.loss);
    }).catch(failed);
  }

  closeStepper() {
    this.stepperTicket = (this.stepperTicket ?? 0) + 1; // an answer still on its way is not drawn
    if (this.host) clear(this.host.stepper);
  }
}

const CSS = `
.lesson { all: initial; display: block; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", "Noto Sans", "Noto Sans CJK SC", sans-serif; color: #1b1f24; }
h2 { font-size: 20px; margin: 4px 0 8px; } h3 { font-size: 16px; margin: 16px 0 4px; }
p { margin: 6px 0; } .hint, .setup { color: #57606a; font-size: 14px; }
.bar { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; margin: 10px 0; }
button { font: inherit; min-height: 44px; min-width: 44px; padding: 6px 12px; border: 1px solid #d0d7de; border-radius: 6px; background: #f6f8fa; color: #1b1f24; cursor: pointer; }
button.play { background: #1f6feb; color: #fff; border-color: #1f6feb; }
button:focus-visible { outline: 3px solid #1f6feb; outline-offset: 2px; }
.status, .seed { font-size: 14px; color: #1b1f24; }
.phase { font-weight: 600; } .phase.formed { color: #1a7f37; }
.charts { display: grid; grid-template-columns: repeat(auto-fit, minmax(300px, 1fr)); gap: 12px; }
figure { margin: 0; } figcaption { font-size: 14px; color: #57606a; } svg { width: 100%; height: auto; }
.patterns { display: flex; flex-wrap: wrap; gap: 8px; }
.tile { display: flex; flex-direction: column; align-items: center; gap: 2px; padding: 4px; background: #fff; }
.tile-label { font-size: 12px; }
canvas { image-rendering: pixelated; }
.error { color: #a40e26; }
`;
