// The path's figures, one maker per kind: a stepper (the playground's own element, paused at a stage), a
// comparison (several traces of one stage, side by side on one colour scale), the RNN's fading influence,
// √d_k's saturation, the measured CNN/RNN/attention table, the language model, the timeline. A figure is
// made empty and started when it scrolls near (lazy.js): start() asks the core and draws, and resolves to
// what the figure drew (a trace, traces, or the core's figure result), which the section's question reads.
import { clear, h, svg } from '../stepper/dom.js';
import { cell } from '../stepper/format.js';
import { cueOverflow } from '../stepper/scroll_cue.js';
import { heatmap } from './heatmap.js';
import { matrix, tokensOf } from './trace_read.js';
import { FIGURE_WORDS } from './figure_words.js';
import { TIMELINE } from './sections.js';

/**
 * A figure for a section: {el, start(), setLang(lang)}. ctx: {core() → the page's RemoteCore, lang(),
 * words(lang) → the path's words, assets: the scripts' folder URL}.
 */
export function makeFigure(section, ctx) {
  const f = section.figure;
  const el = h('div', { className: `figure ${f.kind}`, dataset: { figure: f.kind } });
  const maker = MAKERS[f.kind];
  let result = null;
  let drawn = null; // redraws the figure in another language from the result it has
  return {
    el,
    start() {
      el.dataset.started = '';
      result ??= maker(f, el, ctx).then(({ value, draw }) => {
        drawn = draw;
        draw?.(ctx.lang());
        el.dataset.drawn = '';
        // the first figure drawn on the page (web/bench/path.mjs times it)
        if (!performance.getEntriesByName('attention-path:first-figure').length) performance.mark('attention-path:first-figure');
        return value;
      }).catch((error) => {
        clear(el).append(h('p', { className: 'refusal', attrs: { role: 'alert' }, text: String(error?.message ?? error) }));
        throw error;
      });
      return result;
    },
    setLang(lang) {
      if (drawn) drawn(lang);
      for (const child of el.querySelectorAll('attention-stepper, attention-model')) child.setAttribute('lang', lang);
    },
  };
}

const words = (lang) => FIGURE_WORDS[lang];

// [SECTION] the playground's stepper, paused at the section's stage

async function stepper(f, el, ctx) {
  await customElements.whenDefined('attention-stepper');
  const attrs = { example: f.example, variant: f.variant, stage: f.stage, view: f.view, lang: ctx.lang(), compact: true };
  const s = h('attention-stepper', { attrs });
  el.append(s);
  await s.ready;
  if (s.store.get().error) throw new Error(s.store.get().error);
  // the complexity example measures as it opens, and its charts arrive a moment after the stage: the figure is
  // drawn once they are there, so a reader scrolling on meets it whole
  if (f.example === 'complexity') await until(s.shadowRoot, '.complexity-out .charts');
  return { value: s.trace, draw: null };
}

/** Resolves once root holds an element matching selector. */
function until(root, selector) {
  return new Promise((resolve) => {
    if (root.querySelector(selector)) return resolve();
    const watch = new MutationObserver(() => {
      if (root.querySelector(selector)) watch.disconnect(), resolve();
    });
    watch.observe(root, { childList: true, subtree: true });
  });
}

// [SECTION] traces side by side, one colour scale

/** The traces a comparison draws: each panel an example variant, or a spec made from the base spec. */
async function comparedTraces(f, core) {
  const base = f.spec ?? (await core.example(f.example)).spec; // the example's spec as the core normalised it
  return Promise.all(f.panels.map((p) => (p.variant !== undefined ? core.example(f.example, p.variant) : core.trace(p.spec(base), { budget: 'interactive' }))));
}

/** Labels of a stage's axes: the tokens for rows; keys or the named dimensions for columns. */
function axes(trace, stage, dimensions) {
  const rows = tokensOf(trace, 'query');
  const { cols } = matrix(trace, stage);
  const colLabels = stage === 'weights' || stage === 'scores' || stage === 'masked' ? tokensOf(trace, 'key')
    : dimensions?.length === cols ? dimensions : Array.from({ length: cols }, (_, j) => `d${j + 1}`);
  return { rows, cols: colLabels };
}

async function compare(f, el, ctx) {
  const core = await ctx.core();
  const traces = await comparedTraces(f, core);
  const kind = core.stages().find((s) => s.id === f.stage)?.scale ?? 'signed';
  // one scale for every panel: probabilities keep their own 0…1, other stages share the largest |value| drawn
  let top = 0;
  for (const t of traces) for (const v of stageValues(t, f.stage)) top = Math.max(top, Math.abs(v));
  const scale = { kind, top };
  // the example's hand-made dimensions, named on the figure (the path's own example names its own)
  const named = f.dimensions ?? dimensionsOf(f.example && core.exampleDocument(f.example));
  const draw = (lang) => {
    const w = words(lang);
    const panels = traces.map((trace, k) => {
      const label = w.panels[f.panels[k].label] ?? f.panels[k].label;
      const { heads } = matrix(trace, f.stage);
      const dims = named?.[lang];
      const { rows: tokens, cols } = axes(trace, f.stage, dims);
      const rows = f.queryNames?.[lang] ?? tokens; // the path's own queries, named in the reader's language
      const maps = [];
      for (let head = 0; head < (f.heads ? heads : 1); head++) {
        const m = matrix(trace, f.stage, head);
        maps.push(h('div', { className: 'map' },
          f.heads && heads > 1 ? h('p', { className: 'map-title', text: `${w.head} ${head + 1}` }) : null,
          heatmap(m, { rowLabels: rows, colLabels: cols, scale, title: `${label}${f.heads && heads > 1 ? ` · ${w.head} ${head + 1}` : ''}` })));
      }
      const used = f.counts ? [...matrix(trace, 'weights').data].filter((v) => v > 0).length : null;
      return cueOverflow(h('figure', { className: 'panel', dataset: { panel: f.panels[k].label } },
        h('figcaption', { text: label }), h('div', { className: 'maps' }, maps),
        used !== null ? h('p', { className: 'count', dataset: { used }, text: w.computed(used, matrix(trace, 'weights').data.length) }) : null));
    });
    clear(el).append(h('div', { className: 'panels' }, panels), h('p', { className: 'scale-note', text: w.scale }));
  };
  return { value: traces, draw };
}

const stageValues = (trace, id) => trace.stages.find((s) => s.id === id).data;
/** An example document's named dimensions as {en: [...], zh: [...]}, or null when it names none. */
const dimensionsOf = (doc) => (doc?.dimensions ? { en: doc.dimensions.map((d) => d.en), zh: doc.dimensions.map((d) => d.zh) } : null);

// [SECTION] charts of the core's own figures

/** A bar chart: for each label, one bar per series (values share one axis from 0 to the largest). */
function bars(labels, series, { title }) {
  const W = 340, rowH = 14 * series.length + 8, left = 70;
  const top = Math.max(...series.flatMap((s) => s.values)) || 1;
  const root = svg('svg', { viewBox: `0 0 ${W} ${labels.length * rowH + 8}`, width: '100%', role: 'img', 'aria-label': title, class: 'bars' });
  labels.forEach((label, i) => {
    const y = 4 + i * rowH;
    root.append(svg('text', { x: left - 6, y: y + rowH / 2 + 3, 'text-anchor': 'end', class: 'axis' }, label));
    series.forEach((s, k) => {
      const v = s.values[i];
      const width = Math.max(1, ((W - left - 60) * v) / top);
      root.append(svg('rect', { x: left, y: y + k * 14, width, height: 12, class: `series-${k}`, 'data-value': v }));
      root.append(svg('text', { x: left + width + 4, y: y + k * 14 + 10, class: 'value-label' }, cell(v)));
    });
  });
  return root;
}

function legend(series) {
  return h('p', { className: 'legend' }, series.map((s, k) => h('span', { className: `key series-${k}` }, h('i'), s.label)));
}

async function rnn(f, el, ctx) {
  const core = await ctx.core();
  const { x, tokens } = (await core.example(f.example)).spec;
  const result = await core.figure('rnn-limits', { x, ...f.request });
  const draw = (lang) => {
    const w = words(lang).rnn;
    const series = [{ label: w.rnn, values: result.influence_rnn }, { label: w.attention, values: result.influence_attention }];
    clear(el).append(h('p', { className: 'chart-title', text: w.title }), legend(series), bars(tokens.query, series, { title: w.title }),
      h('p', { className: 'steps', dataset: { rnn: result.steps.rnn, attention: result.steps.attention }, text: w.steps(result.steps.rnn) }));
  };
  return { value: result, draw };
}

/** A line chart over log₂ x: each series a polyline with its points marked. */
function lines(xs, series, { title, yTop = 1, xLabel }) {
  const W = 320, H = 170, L = 52, B = 28, T = 10, R = 10;
  const lx = xs.map(Math.log2);
  const px = (v) => L + ((v - lx[0]) / (lx[lx.length - 1] - lx[0] || 1)) * (W - L - R);
  const py = (v) => T + (1 - v / yTop) * (H - T - B);
  const root = svg('svg', { viewBox: `0 0 ${W} ${H}`, width: '100%', role: 'img', 'aria-label': title, class: 'lines' });
  root.append(svg('line', { x1: L, y1: H - B, x2: W - R, y2: H - B, class: 'axis-line' }), svg('line', { x1: L, y1: T, x2: L, y2: H - B, class: 'axis-line' }));
  for (const v of [0, yTop / 2, yTop]) root.append(svg('text', { x: L - 4, y: py(v) + 4, 'text-anchor': 'end', class: 'axis' }, cell(v)));
  xs.forEach((x, k) => root.append(svg('text', { x: px(lx[k]), y: H - B + 14, 'text-anchor': 'middle', class: 'axis' }, String(x))));
  root.append(svg('text', { x: W - R, y: H - 2, 'text-anchor': 'end', class: 'axis' }, xLabel));
  series.forEach((s, k) => {
    root.append(svg('polyline', { points: s.values.map((v, i) => `${px(lx[i])},${py(v)}`).join(' '), class: `series-${k}`, fill: 'none' }));
    s.values.forEach((v, i) => root.append(svg('circle', { cx: px(lx[i]), cy: py(v), r: 3, class: `series-${k}`, 'data-x': xs[i], 'data-value': v },
      svg('title', {}, `${xLabel} = ${xs[i]}: ${cell(v)}`))));
  });
  return root;
}

async function sqrtdk(f, el, ctx) {
  const core = await ctx.core();
  const result = await core.figure('why-sqrt-dk', f.request);
  const draw = (lang) => {
    const w = words(lang).sqrtdk;
    const chart = (key, yTop) => {
      const series = [{ label: w.unscaled, values: result.unscaled[key] }, { label: w.scaled, values: result.scaled[key] }];
      return h('div', { className: 'chart', dataset: { chart: key } }, h('p', { className: 'chart-title', text: w[key] }), legend(series),
        lines(result.d_k, series, { title: w[key], yTop, xLabel: w.x }));
    };
    const gradTop = Math.max(...result.unscaled.grad_norm, ...result.scaled.grad_norm);
    clear(el).append(h('div', { className: 'charts' }, chart('max_weight', 1), chart('grad_norm', Math.ceil(gradTop * 10) / 10)));
  };
  return { value: result, draw };
}

async function table(f, el, ctx) {
  const core = await ctx.core();
  const result = await core.figure('cnn-rnn-attention', f.request);
  const archs = ['cnn', 'rnn', 'attention'];
  const names = ['CNN', 'RNN', 'Attention'];
  const draw = (lang) => {
    const w = words(lang).table;
    const article = h('table', { className: 'article-table' },
      h('caption', { text: w.article }),
      h('thead', {}, h('tr', {}, h('th', { text: w.feature }), names.map((n) => h('th', { text: n })))),
      h('tbody', {}, w.rows.map((r) => h('tr', {}, h('th', { text: r[0] }), r.slice(1).map((c) => h('td', { text: c }))))));
    const measured = h('table', { className: 'measured-table' },
      h('caption', { text: w.measured }),
      h('thead', {}, h('tr', {}, h('th', { text: w.n }), h('th', {}), result.rows.map((r) => h('th', { text: String(r.n) })))),
      h('tbody', {}, Object.entries(w.metrics).flatMap(([metric, label]) => archs.map((a, k) => h('tr', { dataset: { metric, arch: a } },
        k === 0 ? h('th', { attrs: { rowspan: 3 }, text: label }) : null, h('th', { className: 'arch', text: names[k] }),
        // measured times to a tenth of a microsecond: the digits past it are the clock's noise
        result.rows.map((r) => h('td', { dataset: { value: r[metric][a] }, text: cell(metric === 'microseconds' ? Math.round(r[metric][a] * 10) / 10 : r[metric][a]) })))))));
    clear(el).append(cueOverflow(h('div', { className: 'table-wrap' }, article)), cueOverflow(h('div', { className: 'table-wrap' }, measured)));
  };
  return { value: result, draw };
}

// [SECTION] the language model and the timeline

/** The model mode's script, loaded once, the first time its section comes near. */
let modelScript = null;
function loadModelScript(assets) {
  modelScript ??= new Promise((resolve, reject) => {
    const s = document.createElement('script');
    s.src = `${assets}attention-model.js`;
    s.onload = resolve;
    s.onerror = () => reject(new Error(`${s.src} could not be loaded.`));
    document.head.append(s);
  });
  return modelScript.then(() => customElements.whenDefined('attention-model'));
}

async function model(f, el, ctx) {
  await loadModelScript(ctx.assets);
  const m = h('attention-model', { attrs: { model: 'zh', text: f.text, lang: ctx.lang() } });
  const link = h('a', { className: 'open', attrs: { href: `model.html?model=zh&text=${encodeURIComponent(f.text)}` } });
  el.append(m, h('p', {}, link));
  await m.ready; // the model loaded and the sentence traced (a failed load says so in the element)
  const draw = (lang) => { link.textContent = words(lang).model.open; };
  return { value: m, draw };
}

async function timeline(f, el, ctx) {
  const draw = (lang) => {
    const steps = ctx.words(lang).sections.evolution.steps ?? {};
    const titles = ctx.words(lang).sections;
    clear(el).append(h('ol', { className: 'timeline' }, TIMELINE.map(([year, idea]) => h('li', { dataset: { year } },
      h('span', { className: 'year', text: year }), h('span', { className: 'step', text: steps[year]?.[lang] ?? '' }),
      h('a', { attrs: { href: `#${idea}` }, text: `${words(lang).timeline.see} ${titles[idea].title[lang]}` })))));
  };
  return { value: null, draw };
}

const MAKERS = { stepper, compare, rnn, sqrtdk, table, model, timeline };
