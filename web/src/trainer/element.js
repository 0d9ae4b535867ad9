// <attention-trainer>: attention that learns, live. A lesson trains one or two of the core's training
// tasks side by side (full-batch Adam in the wasm core, which runs in the page's core worker: a few steps
// per animation frame, each frame's work bounded), plots their losses, and shows one sentence of the
// data through each run's current weights in an <attention-stepper>: the weights as lines and as a live
// heatmap while it trains and, paused, every forward stage with its gradient dL/d(stage) and the chain
// rule of each cell (the core's). The induction lesson is its own element, <attention-induction>.
//
// Attributes: lesson (alignment | positions | scaling | induction), lang (en | zh), url-state (read
// lesson, lang and sentence, or the induction lesson's seed, from the page URL and keep it in step).
//
// [SECTION] set-up
// [SECTION] training
// [SECTION] drawing
import { pageAttention } from '../stepper/page_core.js';
import { headColor } from '../stepper/colors.js';
import { clear, h } from '../stepper/dom.js';
import { cell, labelAt } from '../stepper/format.js';
import { pickLanguage, wordsFor } from '../stepper/i18n.js';
import { renderMatrix, updateMatrix } from '../stepper/matrix_view.js';
import { assetsUrl } from '../stepper/site_assets.js';
import { lossChart } from './loss_chart.js';
import { css } from './styles.js';
import { LESSONS, trainerWords } from './words.js';

// 0: slow motion, then faster (slowMotion): the lesson is sharp within about 15 steps, too fast to see at 5 a frame
const STEPS_PER_FRAME = [0, 1, 5, 20];
/** Slow motion: four steps a second for the first SLOW_STEPS steps, one a frame until GENTLE_STEPS, then five a frame. */
const SLOW_STEPS = 30, GENTLE_STEPS = 100, SLOW_MS = 250;
const FRAME_BUDGET_MS = 12; // the worker stops a frame's training after this long, so the pictures keep up
const DASHES = ['', '6 4'];

// [SECTION] set-up

export class AttentionTrainer extends HTMLElement {
  static get observedAttributes() {
    return ['lesson', 'lang'];
  }

  constructor() {
    super();
    this.root = this.attachShadow({ mode: 'open' });
    this.root.append(h('style', { text: css }));
    this.view = h('div', { className: 'trainer', attrs: { part: 'trainer' } });
    this.root.append(this.view);
    this.runs = [];
    this.playing = false;
    this.stepsPerFrame = 0; // slow motion, then faster
    this.lastSlowStep = 0;
    this.sentence = 0;
    this.frames = 0; // animation frames drawn while training (the benchmark reads the frame rate from it)
  }

  connectedCallback() {
    if (this.started) return;
    this.started = true;
    const url = this.hasAttribute('url-state') ? new URLSearchParams(location.search) : new URLSearchParams();
    this.lesson = pickLesson(url.get('lesson') ?? this.getAttribute('lesson'));
    this.lang = pickLanguage(url.get('lang') ?? this.getAttribute('lang'), document.documentElement.lang);
    const sentence = Number(url.get('sentence'));
    if (Number.isInteger(sentence) && sentence >= 1) this.sentence = sentence - 1;
    this.view.append(h('p', { className: 'loading', text: '…' }));
    /** Settles when the lesson is drawn and its runs are ready to train. */
    this.ready = pageAttention()
      .then((attention) => {
        this.attention = attention;
        return this.start();
      })
      .catch((error) => clear(this.view).append(h('p', { className: 'error', attrs: { role: 'alert' }, text: String(error?.message ?? error) })));
  }

  disconnectedCallback() {
    this.pause();
    for (const run of this.runs) this.attention?.dispose(run.trainer);
    this.runs = [];
    this.started = false;
  }

  attributeChangedCallback(name, old, value) {
    if (!this.attention || old === value) return;
    if (name === 'lesson') this.chooseLesson(value);
    if (name === 'lang') this.chooseLanguage(value);
  }

  get words() { return trainerWords(this.lang); }

  /** The lesson's runs from the core's tasks, at step 0, and everything drawn. */
  async start() {
    this.pause();
    for (const run of this.runs) this.attention.dispose(run.trainer);
    const lesson = LESSONS[this.lesson];
    if (lesson.element) return this.startElement(lesson.element);
    const a = this.attention;
    this.runs = await Promise.all(lesson.tasks.map(async (id) => {
      const task = await a.task(id);
      const trainer = await a.trainer(task);
      return { id, task, trainer, losses: [], firstSpec: await a.trainerSpec(trainer) };
    }));
    const first = this.runs[0].task;
    this.sentence = Math.min(this.sentence, first.train.data.length - 1);
    this.target = first.train.steps;
    this.learningRate = Number(Object.values(first.train.optimizer)[0].lr.toPrecision(3)); // the task's float32 rate, as written
    this.error = null;
    this.renderAll();
    await Promise.all(this.runs.map((run) => run.stepper.ready));
    this.showRuns();
    this.writeUrl();
  }

  /**
   * A lesson that is its own element (the induction lesson, <attention-induction>): the lesson bar above it.
   * Its script (the model mode's, beside this one) is loaded when the lesson is first chosen.
   */
  async startElement(tag) {
    this.runs = [];
    this.host = null;
    const w = this.words;
    const box = h('div', { className: 'element-lesson' }, h('p', { className: 'loading', text: '…' }));
    clear(this.view).append(this.lessonBar(w), box);
    this.view.lang = this.lang === 'zh' ? 'zh-CN' : 'en';
    this.writeUrl();
    try {
      await loadElement(tag);
      // the lesson's seed rides in the URL too (train.html?lesson=induction&seed=2)
      const seed = this.hasAttribute('url-state') ? new URLSearchParams(location.search).get('seed') : null;
      this.lessonElement = h(tag, { attrs: { lang: this.lang, ...(seed ? { seed } : {}) } });
      clear(box).append(this.lessonElement);
    } catch (error) {
      clear(box).append(h('p', { className: 'error', attrs: { role: 'alert' }, text: String(error?.message ?? error) }));
    }
  }

  chooseLesson(id) {
    this.lesson = pickLesson(id);
    this.sentence = 0;
    return this.start();
  }

  chooseLanguage(lang) {
    this.lang = pickLanguage(lang, null);
    if (LESSONS[this.lesson].element) {
      this.startElement(LESSONS[this.lesson].element);
      return;
    }
    for (const run of this.runs) run.stepper.setAttribute('lang', this.lang);
    this.renderAll(true);
    this.writeUrl();
  }

  writeUrl() {
    if (!this.hasAttribute('url-state')) return;
    const q = new URLSearchParams({ lesson: this.lesson, lang: this.lang });
    if (!LESSONS[this.lesson].element) q.set('sentence', String(this.sentence + 1));
    else {
      const seed = new URLSearchParams(location.search).get('seed'); // the induction lesson's own
      if (seed) q.set('seed', seed);
    }
    history.replaceState(history.state, '', `?${q}`);
  }

  // [SECTION] training

  play() {
    if (this.playing || !this.runs.length) return;
    if (this.done >= this.target) this.target += this.runs[0].task.train.steps; // Play after the end: as many steps again
    this.playing = true;
    this.error = null;
    // a frame asks the worker for its steps and pictures, and the next frame waits for them
    const frame = async () => {
      this.frameRequest = 0;
      if (!this.playing) return;
      const steps = this.stepsPerFrame || this.slowMotion();
      if (steps) await this.train(steps);
      this.frames++;
      if (!this.playing) return;
      if (this.done >= this.target) this.pause();
      else this.frameRequest = requestAnimationFrame(frame);
    };
    this.frameRequest = requestAnimationFrame(frame);
    this.showControls();
  }

  /** How many steps this frame trains in slow motion (0: wait for the next quarter second). */
  slowMotion() {
    if (this.done >= GENTLE_STEPS) return 5;
    if (this.done >= SLOW_STEPS) return 1;
    const now = performance.now();
    if (now - this.lastSlowStep < SLOW_MS) return 0;
    this.lastSlowStep = now;
    return 1;
  }

  pause() {
    if (this.frameRequest) cancelAnimationFrame(this.frameRequest);
    this.frameRequest = 0;
    if (!this.playing) return;
    this.playing = false;
    this.showRuns(); // paused: the gradients come in under every stage
    this.showControls();
  }

  /** One optimizer step of every run, paused: for a calm look at what a single step changes. */
  stepOnce() {
    this.pause();
    return this.train(1); // draws the runs, gradients included (paused)
  }

  /** Back to step 0: the tasks' own starting weights, the chosen learning rate. */
  async reset() {
    this.pause();
    if (this.host?.changed) this.host.changed.textContent = '';
    const a = this.attention;
    await Promise.all(this.runs.map(async (run) => {
      a.dispose(run.trainer);
      run.trainer = await a.trainer(run.task);
      await a.setLearningRate(run.trainer, this.learningRate);
      run.losses = [];
      run.strongest = null; // step 0 again: nothing "moved" from the last run's last picture
    }));
    this.target = this.runs[0].task.train.steps;
    this.error = null;
    this.showControls(); // "step 0" at once; the pictures follow from the worker
    return this.showRuns();
  }

  setLearningRate(lr) {
    this.learningRate = lr;
    for (const run of this.runs) this.attention.setLearningRate(run.trainer, lr); // before the next step: the worker keeps the order
    this.showControls();
  }

  get done() { return this.runs[0]?.trainer.done ?? 0; }

  /** count steps of every run (fewer if the frame's time runs out, or the target is reached), then the live pictures. */
  async train(count) {
    const runs = this.runs;
    const answer = await this.attention.trainTogether(runs.map((run) => run.trainer), Math.min(count, this.target - this.done), FRAME_BUDGET_MS);
    if (runs !== this.runs) return; // another lesson, or a reset, meanwhile
    runs.forEach((run, k) => {
      run.losses.push(...answer.losses[k]);
      run.losses.length = run.trainer.done; // a refused step (an overflow) kept the weights and has no loss
    });
    if (answer.error) this.error = answer.error;
    if (answer.error && this.playing) this.pause(); // pausing draws the runs
    else await this.showRuns();
    this.dispatchEvent(new CustomEvent('trainstep', { detail: { step: this.done } }));
  }

  // [SECTION] drawing

  /** The spec the stepper shows: the chosen sentence through the run's current weights (a promise). */
  async sentenceSpec(run) {
    return { ...(await this.attention.trainerSpec(run.trainer)), ...this.sentenceOf(run).item };
  }

  /** The chosen sentence ({x, tokens, memory}) and its loss fields. */
  sentenceOf(run) {
    const { x, tokens, memory, labels, target } = run.task.train.data[this.sentence];
    const loss = labels ? { loss: 'cross_entropy', labels } : { loss: 'mse', target };
    return { item: memory ? { x, tokens, memory } : { x, tokens }, loss };
  }

  /** The lessons and the language, as buttons. */
  lessonBar(w) {
    return h('div', { className: 'bar', attrs: { role: 'group', 'aria-label': w.lessons } },
      Object.keys(LESSONS).map((id) => h('button', {
        type: 'button', className: 'lesson', text: w.lesson[id].title.split(':')[0].split('：')[0], dataset: { lesson: id },
        attrs: { 'aria-pressed': String(id === this.lesson) }, on: { click: () => this.chooseLesson(id) },
      })),
      h('span', { className: 'grow' }),
      h('div', { attrs: { role: 'group', 'aria-label': w.language } }, ['en', 'zh'].map((lang) => h('button', {
        type: 'button', className: 'lang', text: lang === 'en' ? 'English' : '中文', dataset: { lang },
        attrs: { 'aria-pressed': String(lang === this.lang), lang: lang === 'zh' ? 'zh-CN' : 'en' },
        on: { click: () => this.chooseLanguage(lang) },
      }))));
  }

  renderAll(keepSteppers = false) {
    const w = this.words;
    const lesson = LESSONS[this.lesson];
    const lessonBar = this.lessonBar(w);
    this.host = {};
    this.host.play = h('button', { type: 'button', className: 'play', on: { click: () => (this.playing ? this.pause() : this.play()) } });
    this.host.lr = h('input', {
      type: 'range', className: 'lr', attrs: { min: '-4', max: '0', step: '0.1', 'aria-label': w.learningRate },
      on: { input: (e) => this.setLearningRate(Number((10 ** Number(e.target.value)).toPrecision(2))) },
    });
    this.host.lrValue = h('output', { className: 'lr-value' });
    this.host.status = h('span', { className: 'status train-status', attrs: { role: 'status' } });
    const data = this.runs[0].task.train.data;
    const sentencePicker = h('select', {
      className: 'sentence', attrs: { 'aria-label': w.sentence },
      on: { change: (e) => { this.sentence = Number(e.target.value); this.showRuns(); this.writeUrl(); } },
    }, data.map((item, k) => h('option', { attrs: { value: String(k) }, text: w.sentenceOf(k + 1, data.length, item.tokens.query.join(' ')) })));
    sentencePicker.value = String(this.sentence);
    const controls = h('div', { className: 'bar controls' },
      this.host.play,
      h('button', { type: 'button', className: 'step', text: `${w.step} +1`, on: { click: () => this.stepOnce() } }),
      h('button', { type: 'button', className: 'reset', text: `↺ ${w.reset}`, on: { click: () => this.reset() } }),
      h('label', {}, `${w.learningRate} `, this.host.lr, ' ', this.host.lrValue),
      h('label', {}, `${w.speed} `, h('select', {
        className: 'speed', attrs: { 'aria-label': w.speed }, on: { change: (e) => { this.stepsPerFrame = Number(e.target.value); } },
      }, STEPS_PER_FRAME.map((n) => h('option', { attrs: { value: String(n), ...(n === this.stepsPerFrame ? { selected: '' } : {}) }, text: n ? w.stepsPerFrame(n) : w.slowMotion })))),
      this.host.status);
    this.host.error = h('p', { className: 'error', attrs: { role: 'alert' } });
    this.host.chart = h('div', { className: 'chart-box' });
    this.host.mode = h('p', { className: 'mode' });
    this.host.changed = h('p', { className: 'changed', attrs: { 'aria-live': 'polite' } }); // what the last steps changed
    const runsEl = h('div', { className: `runs runs-${this.runs.length}` });
    for (const [k, run] of this.runs.entries()) {
      if (!keepSteppers || !run.stepper) {
        const first = { ...run.firstSpec, ...this.sentenceOf(run).item };
        run.stepper = document.createElement('attention-stepper');
        run.stepper.setAttribute('controls', 'nav timeline heads');
        run.stepper.setAttribute('stage', lesson.stage);
        run.stepper.setAttribute('view', lesson.view);
        run.stepper.setAttribute('spec', JSON.stringify(first));
      }
      run.stepper.setAttribute('lang', this.lang);
      run.lossEl = h('span', { className: 'run-loss' });
      run.alphaEl = h('div', { className: 'alpha' });
      run.alphaView = null;
      runsEl.append(h('section', { className: 'run', dataset: { run: run.id }, attrs: { 'aria-label': w.run[run.id] } },
        h('h3', {}, h('span', { className: 'swatch', style: `background:${headColor(k)}` }), ` ${w.run[run.id]} `, run.lossEl),
        run.alphaEl, run.stepper));
    }
    clear(this.view).append(lessonBar,
      h('h2', { text: w.lesson[this.lesson].title }),
      h('p', { className: 'text', text: w.lesson[this.lesson].text }),
      controls, h('label', { className: 'sentence-row' }, `${w.sentence} `, sentencePicker), this.host.error, this.host.chart, this.host.mode, this.host.changed, runsEl);
    this.view.lang = this.lang === 'zh' ? 'zh-CN' : 'en';
    this.showControls();
    if (keepSteppers) this.showRuns();
  }

  showControls() {
    const w = this.words;
    if (!this.host) return;
    this.host.play.textContent = this.playing ? `❚❚ ${w.pause}` : `► ${w.play}`;
    this.host.play.setAttribute('aria-pressed', String(this.playing));
    this.host.lr.value = String(Math.log10(this.learningRate));
    this.host.lrValue.textContent = String(this.learningRate);
    this.host.status.textContent = w.stepOf(this.done, this.target);
    this.host.error.textContent = this.error ?? '';
    this.host.error.hidden = !this.error;
    this.host.mode.textContent = this.playing ? w.playing : w.paused;
  }

  /** The loss chart, and every run's sentence through its current weights (with gradients when paused). */
  showRuns() {
    const drawing = this.drawRuns();
    this.drawing = drawing;
    return drawing;
  }

  /** Settles once the newest pictures asked for are drawn (the runs' traces come from the core's worker). */
  async settled() {
    let seen;
    do {
      seen = this.drawing;
      await seen?.catch(() => {});
    } while (seen !== this.drawing);
    await Promise.all(this.runs.map((run) => run.stepper?.settled?.()));
  }

  async drawRuns() {
    const w = this.words;
    if (!this.host) return;
    const ticket = (this.drawn = (this.drawn ?? 0) + 1);
    const series = this.runs.map((run, k) => ({ label: w.run[run.id], color: headColor(k), dash: DASHES[k], losses: run.losses }));
    const chart = lossChart(series, this.target, { title: w.chartTitle, step: w.chartStep, loss: w.chartLoss });
    // before the first step there is no loss to read out (not "NaN")
    chart.setAttribute('aria-label', w.chartSummary(this.runs.map((run) => `${w.run[run.id]} ${run.losses.length ? cell(run.losses.at(-1)) : w.notTrained}`)));
    clear(this.host.chart).append(chart);
    await Promise.all(this.runs.map(async (run) => {
      run.lossEl.textContent = run.losses.length ? `· ${w.lossNow(cell(run.losses.at(-1)))}` : '';
      if (!run.stepper.attention) return; // not loaded yet: start() shows it once it is
      const { item, loss } = this.sentenceOf(run);
      try {
        const { trace, gradients } = await this.attention.inspect(run.trainer, item, this.playing ? null : loss);
        if (ticket !== this.drawn) return; // a newer picture is on its way
        await run.stepper.showComputed(trace, gradients);
      } catch (error) {
        // weights a step made too large to draw: the stepper keeps its last picture, the sentence says why
        // (a refusal of the trainer itself, set before, is the one to read)
        this.error ??= error.message;
      }
      this.showAlpha(run);
    }));
    this.showControls();
  }

  /** A sentence when a row's strongest key moved since the last picture of the first run ("猫 now looks most at cat"). */
  sayWhatChanged(run, data, nQ, nK, axes) {
    if (run !== this.runs[0] || !this.host.changed) return;
    const now = strongest(data, nQ, nK);
    const before = run.strongest?.length === nQ && run.sentenceShown === this.sentence ? run.strongest : null;
    run.strongest = now;
    run.sentenceShown = this.sentence;
    if (!before) return;
    const moved = now.map((j, i) => [i, j]).filter(([i, j]) => j !== before[i]);
    if (!moved.length) return;
    const [i, j] = moved[0];
    this.host.changed.textContent = this.words.moved(this.done, labelAt(axes.query, i), labelAt(axes.key, j), labelAt(axes.key, before[i]), moved.length - 1);
  }

  /** The weights of the sentence (head 1) as a heatmap that updates in place every frame. */
  showAlpha(run) {
    const trace = run.stepper.trace;
    const weights = trace?.stages.find((s) => s.id === 'weights');
    if (!weights) return;
    const [, nQ, nK] = weights.shape;
    const m = {
      key: 'alpha', label: this.words.alpha, rows: nQ, cols: nK, rowLabels: trace.axes.query, colLabels: trace.axes.key,
      role: 'result', heat: weights.scale, value: (i, j) => weights.data[i * nK + j],
    };
    this.sayWhatChanged(run, weights.data, nQ, nK, trace.axes);
    const words = wordsFor(this.lang);
    if (run.alphaView && run.alphaView.m.rows === nQ && run.alphaView.m.cols === nK) {
      updateMatrix(run.alphaView, m, { words });
    } else {
      run.alphaView = renderMatrix(m, { words });
      clear(run.alphaEl).append(run.alphaView.el);
    }
  }
}

/** Each row's strongest key (head 1): the index of its largest weight. */
function strongest(data, nQ, nK) {
  return Array.from({ length: nQ }, (_, i) => {
    let best = 0;
    for (let j = 1; j < nK; j++) if (data[i * nK + j] > data[i * nK + best]) best = j;
    return best;
  });
}

/** Defines a lesson's element: the model mode's script, beside this one, loaded once. */
function loadElement(tag) {
  if (customElements.get(tag)) return Promise.resolve();
  if (!assetsUrl) return Promise.reject(new Error(`this lesson needs <${tag}>: add assets/attention-model.js to the page.`));
  loadElement.tag ??= new Promise((resolve, reject) => {
    const el = document.createElement('script');
    el.src = new URL('attention-model.js', assetsUrl).href; // model mode's script, beside the site's others
    el.onload = () => customElements.whenDefined(tag).then(resolve);
    el.onerror = () => reject(new Error('assets/attention-model.js could not be read.'));
    document.head.append(el);
  });
  return loadElement.tag;
}

function pickLesson(id) {
  return Object.hasOwn(LESSONS, id ?? '') ? id : 'alignment';
}
