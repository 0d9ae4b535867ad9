// A vision block's stage (SE, ECA, CBAM, Coordinate Attention): the stage's tensor drawn by its
// shape — a C × H × W map as one small heatmap per channel, a vector as labelled bars, a 2-D
// stage as one heatmap (a spatial gate over the input it gates) — after the operands it is computed
// from, with the operand values the current value reads lit up as the stage animates: the pooling
// sweeping channel by channel, the 1-D convolution sliding across channels, the K × K kernel sliding
// over the maps. Hovering or focusing a value gives its arithmetic (the core's, attention.explain).
// Every number is the trace's.
import { css, inkFor, scaleColor, scaleRange } from './colors.js';
import { coreText, keepWhenLeft, pointedAt, writeCaption } from './core_caption.js';
import { append, clear, h, touchOnly } from './dom.js';
import { cell } from './format.js';
import { stageTitle } from './i18n.js';
import { shownStages } from './steps.js';

/** More values than this animate a channel (or a row) at a time. */
const MAX_VALUE_STEPS = 64;

/**
 * Which values of operand `op` value `index` of stage `id` reads: a Set of flat indices, or null
 * for all of them (a dense layer reads the whole vector).
 */
function reads(id, op, index, spec) {
  const C = spec.feature.length, H = spec.feature[0].length, W = spec.feature[0][0].length;
  const range = (from, n) => new Set(Array.from({ length: n }, (_, k) => from + k));
  const channelOf = (i) => Math.floor(i / (H * W));
  if ((id === 'pool_avg' || id === 'pool_max') && op === 'feature') return range(index * H * W, H * W);  // the sweep
  if (id === 'conv1d') {
    const k = spec.eca.w.length, p = (k - 1) / 2;
    return new Set(Array.from({ length: k }, (_, t) => index + t - p).filter((c) => c >= 0 && c < C));
  }
  if (id === 'spatial_avg' || id === 'spatial_max') return new Set(Array.from({ length: C }, (_, c) => c * H * W + index));
  if (id === 'spatial_conv') {  // the K × K window around the pixel, on both maps
    const K = spec.cbam.spatial[0].length, p = (K - 1) / 2, i = Math.floor(index / W), j = index % W;
    const out = new Set();
    for (let di = -p; di <= p; di++) for (let dj = -p; dj <= p; dj++) if (i + di >= 0 && i + di < H && j + dj >= 0 && j + dj < W) out.add((i + di) * W + j + dj);
    return out;
  }
  if (id === 'pool_h' && op === 'feature') return range(index * W, W);  // (c, i): row i of channel c
  if (id === 'pool_w' && op === 'feature') {
    const c = Math.floor(index / W), j = index % W;
    return new Set(Array.from({ length: H }, (_, i) => (c * H + i) * W + j));
  }
  if (['relu', 'gate', 'channel_gate', 'spatial_gate', 'bn', 'act'].includes(id)) return new Set([index]);
  if (id === 'channel_refined' || id === 'output') {
    const c = channelOf(index), pix = index % (H * W);
    if (op === 'feature' || op === 'channel_refined') return new Set([index]);
    if (op === 'gate' || op === 'channel_gate') return new Set([c]);
    if (op === 'spatial_gate') return new Set([pix]);
    if (op === 'gate_h') return new Set([c * H + Math.floor(pix / W)]);
    if (op === 'gate_w') return new Set([c * W + (pix % W)]);
  }
  if (id === 'gate_h' || id === 'gate_w') {  // the act column of the row's (or column's) position, every feature
    const P = H + W, pos = id === 'gate_h' ? index % H : H + (index % W);
    const m = spec.ca.w1[0].length;
    return new Set(Array.from({ length: m }, (_, o) => o * P + pos));
  }
  return null;
}

/** The labels along a vision stage's axes: the core's (attn::vision_axes_json), as the exports write them too. */
export function axes(stage) {
  return stage.axes;
}

/** A colour for a value of a stage, on its registry scale (gates 0 … 1, a ReLU 0 … the largest, the rest ±; colors.js). */
function colorFor(stage, scale) {
  return (v) => scaleColor(stage.scale, v, scale);
}

/** One stage's tensor as labelled value elements (each with data-index and its aria-label). */
function tensorView(stage, spec, role, w) {
  const scale = Math.max(0, ...Array.from(stage.data, Math.abs));
  const color = colorFor(stage, scale);
  const labels = axes(stage);
  const symbol = stage.symbol;
  const values = [];
  /** The focusable element of value k (a gridcell); a bar's colour is a child filling part of it. */
  const value = (k, text, bar = false) => {
    const v = stage.data[k];
    const bg = color(v);
    const paint = `background:${css(bg)};color:${inkFor(bg)}`;
    const max = scaleRange(stage.scale, scale || 1)[1]; // a bar's full length: a gate's 1, else the largest
    const el = h('span', {
      className: bar ? 'vcell bar-track' : 'vcell', dataset: { index: String(k), stage: stage.id, value: String(v) },
      attrs: { tabindex: '-1', role: 'gridcell', 'aria-label': `${symbol} ${text} = ${cell(v)}` },
      style: bar ? '' : paint,
    }, bar ? h('span', { className: 'fill', style: `${paint};width:${Math.max(2, (Math.abs(v) / max) * 100)}%` }) : null);
    values.push(el);
    return el;
  };
  let body;
  if (stage.shape.length === 1) {  // bars: one per channel (or feature), the value written beside
    body = h('div', { className: 'bars', attrs: { role: 'grid', 'aria-label': `${symbol}: ${stageTitle(stage, 'en')}` } },
      Array.from(stage.data, (v, k) => h('div', { className: 'bar-row', attrs: { role: 'row' } },
        h('span', { className: 'bar-label', text: labels.cols[k], attrs: { role: 'rowheader' } }),
        value(k, labels.cols[k], true),
        h('span', { className: 'bar-value', text: cell(v), attrs: { role: 'gridcell', 'aria-hidden': 'true' } }))));
  } else {
    const grids = stage.shape.length === 3 ? stage.shape[0] : 1;
    const [rows, cols] = stage.shape.slice(-2);
    body = h('div', { className: 'maps' }, Array.from({ length: grids }, (_, g) => h('div', { className: 'map' },
      stage.shape.length === 3 ? h('span', { className: 'map-label', text: labels.channels[g] }) : null,
      h('div', {
        className: 'map-grid', style: `grid-template-columns: ${stage.shape.length === 2 ? 'minmax(4em, max-content) ' : ''}repeat(${cols}, minmax(12px, 1fr))`,
        attrs: { role: 'grid', 'aria-label': `${symbol}${stage.shape.length === 3 ? ` ${labels.channels[g]}` : ''}` },
      }, Array.from({ length: rows }, (_, i) => h('div', { className: 'map-row', attrs: { role: 'row' } },
        stage.shape.length === 2 ? h('span', { className: 'row-label', text: labels.rows[i], attrs: { role: 'rowheader' } }) : null,
        ...Array.from({ length: cols }, (_, j) => value((g * rows + i) * cols + j,
          stage.shape.length === 3 ? `${labels.channels[g]} [${i + 1}][${j + 1}]` : `${labels.rows[i]} ${labels.cols[j]}`))))))));
  }
  if (values[0]) values[0].tabIndex = 0;  // one tab stop per tensor; arrows move inside
  const title = h('figcaption', {}, h('span', { className: 'label', text: symbol }), h('span', { className: 'size', text: ` ${stage.shape.join(' × ')}` }));
  return { el: h('figure', { className: `tensor role-${role}`, dataset: { stage: stage.id } }, title, body), values, stage, cols: stage.shape.at(-1) };
}

/** The spatial gate laid over the picture it gates: the input's mean over channels in grey, the gate in colour on top. */
function overlay(gate, trace, w) {
  const x = trace.stages.find((st) => st.id === 'feature');
  const [C, H, W] = x.shape;
  const mean = Array.from({ length: H * W }, (_, p) => Array.from({ length: C }, (_, c) => x.data[c * H * W + p]).reduce((a, b) => a + b, 0) / C);
  const top = Math.max(1e-9, ...mean.map(Math.abs));
  const cells = mean.map((m, p) => {
    const grey = Math.round(235 - 150 * Math.min(1, Math.abs(m) / top));
    return h('span', {
      className: 'ocell', attrs: { 'aria-hidden': 'true' },
      style: `background: linear-gradient(rgba(130, 80, 223, ${gate.data[p].toFixed(3)}), rgba(130, 80, 223, ${gate.data[p].toFixed(3)})), rgb(${grey}, ${grey}, ${grey})`,
    });
  });
  // fixed cells, no gaps between them: the gate reads as one H × W picture (1fr columns under a wide caption
  // spread the cells apart into W vertical strips)
  return h('figure', { className: 'tensor overlay' }, h('figcaption', { text: w.gateOverlay }),
    h('div', { className: 'map-grid', style: `grid-template-columns: repeat(${W}, 16px); gap: 0` }, cells));
}

/** How many animation steps a stage takes and which values step k reveals (values before `limit`). */
function stepping(stage) {
  const size = stage.data.length;
  if (size <= MAX_VALUE_STEPS) return { steps: size, limit: (k) => k };
  const per = stage.shape.length === 3 ? stage.shape[1] * stage.shape[2] : stage.shape.at(-1);  // a channel, or a row
  return { steps: Math.ceil(size / per), limit: (k) => k * per };
}

/** Draws a vision stage of state s into the stage area: its operands, then its result, and the overlay of a spatial gate. */
export function renderVisionStage(area, s, w) {
  const trace = s.trace;
  const stage = shownStages(trace)[s.stageIndex];
  area.hovered = null;
  if (area.caption) area.caption.textContent = ''; // the previous stage's arithmetic is not this one's
  const ops = stage.operands.map((id) => trace.stages.find((x) => x.id === id)); // the core's (attn::vision_operands)
  // (the channels are named in the reader's language by the trace itself: the element traces a zh example with
  // its channels_zh, so the core's labels and captions say them too)
  const views = [...ops.map((o) => tensorView(o, trace.spec, 'operand', w)), tensorView(stage, trace.spec, 'result', w)];
  const { steps, limit } = stepping(stage);
  area.vision = { stage, views, result: views.at(-1), steps, limit };
  area.scene = { steps, order: 'values' };  // what the animator and the cell stepping read
  const scene = h('div', { className: 'scene vision-scene', dataset: { stage: stage.id } });
  views.forEach((v, k) => {
    if (k > 0 && k === views.length - 1) scene.append(h('span', { className: 'op', text: '→', attrs: { 'aria-hidden': 'true' } }));
    scene.append(v.el);
  });
  const redraw = () => renderVisionProgress(area, area.store.get(), w);
  const onValue = (e) => {
    const target = e.target.closest?.('.vcell');
    if (!target) return;
    area.hovered = { stage: target.dataset.stage, index: Number(target.dataset.index) };
    redraw();
  };
  scene.addEventListener('pointerover', onValue);
  scene.addEventListener('focusin', onValue);
  keepWhenLeft(scene, area, redraw);
  if (stage.id === 'spatial_gate') scene.append(overlay(stage, trace, w));
  if (area.detailButton) area.detailButton.hidden = true; // a vision caption has no longer form
  append(clear(area.box), [scene]);
}

/** The values revealed so far, the current one and what it reads lit, and the caption. */
export function renderVisionProgress(area, s, w) {
  const v = area.vision;
  if (!v || !area.caption) return;
  const revealed = s.progress >= 1 ? v.steps : Math.floor(s.progress * v.steps) + 1;
  const shownUpTo = s.progress >= 1 ? Infinity : v.limit(revealed);
  const currentFrom = s.progress >= 1 ? -1 : v.limit(revealed - 1);
  for (const view of v.views) for (const c of view.values) c.classList.remove('hl', 'current', 'hover');
  v.result.values.forEach((c, k) => {
    c.classList.toggle('hidden', k >= shownUpTo);
    if (s.progress < 1 && k >= currentFrom && k < shownUpTo) c.classList.add('current');
  });
  const target = pointedAt(area.hovered, s.progress) ?? (s.progress < 1 ? { stage: v.stage.id, index: currentFrom } : null);
  let text = touchOnly() ? w.tap : w.hover;
  if (target) {
    const view = v.views.find((x) => x.stage.id === target.stage);
    view?.values[target.index]?.classList.add('hover');
    if (target.stage === v.stage.id) {
      for (const op of v.views.slice(0, -1)) {
        const lit = reads(v.stage.id, op.stage.id, target.index, s.trace.spec);
        op.values.forEach((c, k) => { if (!lit || lit.has(k)) c.classList.add('hl'); });
      }
      const { trace } = s;
      text = coreText(trace, `${v.stage.id} ${target.index}`, () => area.attention.explain(trace, v.stage.id, { index: target.index }),
        () => renderVisionProgress(area, area.store.get(), w));
    } else if (view) {
      text = view.values[target.index].getAttribute('aria-label');
    }
  }
  writeCaption(area.caption, text);
  area.caption.setAttribute('aria-live', s.playing ? 'off' : 'polite');
}

/** Arrow keys inside a tensor: left and right by one value, up and down by a row. */
export function moveInTensor(area, target, key) {
  const view = area.vision?.views.find((x) => x.stage.id === target.dataset.stage);
  if (!view) return;
  const k = Number(target.dataset.index);
  const step = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -view.cols, ArrowDown: view.cols }[key];
  const next = view.values[k + step];
  if (!next) return;
  target.tabIndex = -1;
  next.tabIndex = 0;
  next.focus();
}
