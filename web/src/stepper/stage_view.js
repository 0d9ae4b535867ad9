// The stage area: the stage's title, formula and explanation, the head selector, its matrices
// (operands, then the result) from the scene, and the caption with the arithmetic of the hovered
// or current cell. renderStage builds it; renderProgress moves the animation and the caption.
import { markStage } from './chrome.js';
import { coreText, keepWhenLeft, pointedAt, writeCaption } from './core_caption.js';
import { clear, h, svg, touchOnly } from './dom.js';
import { cell, exact, fillNumbers, labelAt } from './format.js';
import { markCurrentTerm } from './formula_map.js';
import { headsGrid, markHead, showsHeadsGrid } from './heads_grid.js';
import { pick, stageTitle, wordsFor } from './i18n.js';
import { linesPossible, linesView, showsLines } from './lines_view.js';
import { inPieces } from './later.js';
import { renderMatrix, updateMatrix } from './matrix_view.js';
import { renderGradient } from './gradient_view.js';
import { exportMenu } from './share.js';
import { refreshStageTexts, showStageTexts } from './stage_texts.js';
import { makeContext, sceneFor, shownStages } from './steps.js';
import { renderVisionProgress, renderVisionStage } from './vision_view.js';

/** Whether a stage shows softmax rows: computed from the masked scores, one row per query, keys or one column. */
function showsSoftmaxRows(ctx, id) {
  const fromMask = (x) => x === 'masked' || ctx.byId.get(x).operands.some(fromMask);
  const info = ctx.info.get(id);
  return info.rows === 'query' && (info.cols === 'key' || info.cols === 'single') && fromMask(id);
}

export function renderStage(el) {
  const s = el.store.get();
  if (!el.stageEl) return;
  if (s.trace.kind === 'vision') {
    el.views = null;
    renderVisionStage(el);
    controlsProgress(el, s, wordsFor(s.lang));
    return;
  }
  el.vision = null;
  const w = wordsFor(s.lang);
  const stage = shownStages(s.trace)[s.stageIndex];
  const ctx = makeContext(s.trace, el.attention.stages());
  const doc = el.doc(s.exampleId);
  el.scene = sceneFor(ctx, stage.id, s.head);
  const lines = showsLines(ctx, stage.id, s.view, doc);
  // the lines picture plays query by query: each step spotlights one query's lines
  if (lines) el.scene = { ...el.scene, order: 'rows', steps: ctx.nQ };
  // the same stage with the same matrices (an edit of values): new numbers into the drawn cells
  // (another head of the same stage is the same matrices too: its numbers go into the drawn cells)
  const signature = [stage.id, s.lang, s.trace.empty_rows?.join() ?? '', ...el.scene.matrices.map((m) =>
    `${m.key}:${m.rows}x${m.cols}:${m.label}:${m.rowLabels?.join(',')}:${m.colLabels?.join(',')}`)].join('|');
  if (signature === el.stageSignature && el.views && !el.lines) {
    refreshStage(el, s, w, doc, stage, ctx);
    return;
  }
  el.stageSignature = signature;
  el.drawn = (el.drawn ?? 0) + 1; // pieces queued for the last drawing of the stage area are dropped
  el.hovered = null;
  if (el.caption) el.caption.textContent = ''; // the previous stage's arithmetic is not this one's
  const parts = [];
  showStageTexts(el, s, w, doc, el.controls.has('export') ? exportMenu(el, w) : null);
  // example texts quote numbers as {stage[i][j]}: filled from the current trace, edits included
  if (el.host.summary && doc) el.host.summary.textContent = fillNumbers(pick(doc.summary, s.lang), s.trace);
  if (s.trace.empty_rows?.length && showsSoftmaxRows(ctx, stage.id)) {
    const rows = s.trace.empty_rows.map((r) => `${r + 1} (${ctx.qTokens[r]})`);
    parts.push(h('p', { className: 'notice empty-rows', attrs: { role: 'note' }, text: w.emptyRows(rows) }));
  }
  if (stage.id === 'weights' && linesPossible(ctx)) parts.push(viewSwitch(el, lines, w));
  el.host.headsGrid = showsHeadsGrid(ctx, stage.id) && !lines ? { el: headsGrid(el, ctx, stage, s.head, w), data: stage.data } : null;
  if (el.host.headsGrid) parts.push(el.host.headsGrid.el);
  // in the lines picture every head is drawn, each with its own toggle
  el.host.headButtons = null;
  if (el.scene.perHead && ctx.heads > 1 && el.controls.has('heads') && !lines) {
    el.host.headButtons = h('div', { className: 'heads', attrs: { role: 'group', 'aria-label': w.head } },
      Array.from({ length: ctx.heads }, (_, i) => h('button', {
        type: 'button', text: `${w.head} ${i + 1}`, attrs: { 'aria-pressed': String(i === s.head) },
        on: { click: () => el.store.set({ head: i }) },
      })));
    parts.push(el.host.headButtons);
  }
  const sceneEl = h('div', { className: 'scene', dataset: { stage: stage.id } });
  el.views = new Map();
  el.lines = lines ? linesView(ctx, w, () => renderProgress(el)) : null;
  if (el.lines) sceneEl.append(el.lines.el);
  else el.scene.matrices.forEach((m, k) => {
    // a large matrix draws its first rows now and the others a piece a task (no long task on the page)
    const view = renderMatrix(m, { words: w, inPieces: (jobs) => inPieces(el, jobs), drew: () => renderProgress(el) });
    el.views.set(m.key, view);
    if (k > 0 && m.role === 'result') sceneEl.append(h('span', { className: 'op', text: '→', attrs: { 'aria-hidden': 'true' } }));
    sceneEl.append(view.el);
    if (view.cells[0]?.[0]) view.cells[0][0].tabIndex = 0; // one tab stop per matrix; arrows move inside
  });
  if (el.scene.sinusoid) sceneEl.append(sinusoid(ctx, w));
  const onCell = (e) => {
    const td = e.target.closest?.('td.cell');
    if (!td) return;
    el.hovered = { key: td.dataset.key, i: Number(td.dataset.i), j: Number(td.dataset.j) };
    renderProgress(el);
  };
  sceneEl.addEventListener('pointerover', onCell);
  sceneEl.addEventListener('focusin', onCell);
  keepWhenLeft(sceneEl, el, () => renderProgress(el));
  // train mode: the stage's gradient under it (empty and hidden otherwise)
  el.host.gradient = h('section', { className: 'gradient', attrs: { 'aria-label': w.gradientTitle(el.scene.matrices.find((m) => m.key === el.scene.result)?.label ?? '') } });
  parts.push(sceneEl, el.host.gradient);
  clear(el.stageEl).append(...parts);
  renderGradient(el, stage, w);
  markCurrentTerm(el, stage.id);
  markStage(el, s.stageIndex);
  renderProgress(el); // the new caption and cells at the current point of the animation
}

/** Matrix ↔ lines, at the weights stage: two buttons, the current one pressed. */
function viewSwitch(el, lines, w) {
  const button = (view, text) => h('button', {
    type: 'button', text, dataset: { view }, attrs: { 'aria-pressed': String(lines === (view === 'lines')) },
    on: { click: () => el.store.set({ view }) },
  });
  return h('div', { className: 'view-switch', attrs: { role: 'group', 'aria-label': w.viewSwitch } },
    button('matrix', w.viewMatrix), button('lines', w.viewLines));
}

/** After an edit of values: the drawn matrices, the numbers in the texts, the caption. */
function refreshStage(el, s, w, doc, stage, ctx) {
  // the result first; the operands of a large stage after the frame (another head: thousands of cells)
  el.drawn = (el.drawn ?? 0) + 1;
  const { matrices } = el.scene;
  const pieces = { inPieces: (jobs) => inPieces(el, jobs), drew: () => renderProgress(el) };
  const update = (m, inParts = false) => updateMatrix(el.views.get(m.key), m, { words: w, ...(inParts ? pieces : {}) });
  const cells = matrices.reduce((sum, m) => sum + m.rows * m.cols, 0);
  const result = matrices.filter((m) => m.role === 'result'), operands = matrices.filter((m) => m.role !== 'result');
  const large = cells > LARGE_SCENE;
  result.forEach((m) => update(m, large));
  if (large) inPieces(el, operands.map((m) => () => update(m, true)));
  else operands.forEach((m) => update(m));
  const grid = el.host.headsGrid;
  if (grid && grid.data !== stage.data) { // new numbers (an edit): every head drawn again
    const again = headsGrid(el, ctx, stage, s.head, w);
    grid.el.replaceWith(again);
    Object.assign(grid, { el: again, data: stage.data });
  } else if (grid) markHead(grid.el, s.head);
  el.host.headButtons?.querySelectorAll('button').forEach((b, k) => b.setAttribute('aria-pressed', String(k === s.head)));
  if (el.host.summary && doc) el.host.summary.textContent = fillNumbers(pick(doc.summary, s.lang), s.trace);
  refreshStageTexts(el, s);
  renderGradient(el, stage, w);
  renderProgress(el);
}

/** Cells in a stage's matrices past which its operands are refreshed a task after its result. */
const LARGE_SCENE = 2048;

/** The first few PE columns as curves over the positions: the sinusoids being added. */
function sinusoid(ctx, w) {
  const pe = ctx.byId.get('pe');
  const [n, d] = pe.shape;
  const W = 260, H = 90;
  const g = svg('svg', { viewBox: `0 0 ${W} ${H}`, width: W, height: H, class: 'sinusoid', role: 'img', 'aria-label': w.sinusoid });
  const colors = ['#c0392b', '#2c6fbb', '#27ae60', '#8e44ad'];
  for (let j = 0; j < Math.min(4, d); j++) {
    const points = Array.from({ length: n }, (_, i) => `${(i / Math.max(1, n - 1)) * (W - 10) + 5},${H / 2 - pe.data[i * d + j] * (H / 2 - 6)}`).join(' ');
    g.append(svg('polyline', { points, fill: 'none', stroke: colors[j], 'stroke-width': 1.5 }));
  }
  return g;
}

/** The result cell shown at animation step `step`, in the scene's reading order. */
function stepCell(scene, step) {
  const { order, resultMatrix } = scene;
  if (step < 0) return null;
  if (order === 'rows') return { key: scene.result, i: step, j: 0 };
  return { key: scene.result, i: Math.floor(step / resultMatrix.cols), j: step % resultMatrix.cols };
}

function highlight(el, { key, row, col, cell }) {
  const view = el.views.get(key);
  if (!view) return;
  view.cells.forEach((line, i) => line.forEach((td, j) => {
    const on = cell ? cell[0] === i && cell[1] === j : (row === undefined || row === i) && (col === undefined || col === j);
    if (on) td.classList.add('hl');
  }));
}

/** The caption for a cell: its arithmetic (the core's) when it is a result cell, its value otherwise. */
function captionFor(el, target, w) {
  if (!target) return touchOnly() ? w.tap : w.hover;
  const s = el.store.get();
  if (target.key === el.scene.result) {
    for (const hl of el.scene.highlights(target.i, target.j)) highlight(el, hl);
    const cellOf = { head: s.head, i: target.i, j: target.j, detail: !!el.detail };
    const stage = el.stageId;
    return coreText(s.trace, `${stage} ${cellOf.head} ${cellOf.i} ${cellOf.j} ${cellOf.detail}`,
      () => el.attention.explain(s.trace, stage, cellOf), () => el.renderProgress());
  }
  const m = el.views.get(target.key)?.m;
  const value = m?.value(target.i, target.j);
  if (!m) return '';
  // named as the rows and columns beside it read (the core's captions do the same): W_q[d1, d2], x[猫, d3]
  return `${m.label}[${labelAt(m.rowLabels, target.i)}, ${labelAt(m.colLabels, target.j)}] = ${el.detail ? exact(value) : cell(value)}`;
}

export function renderProgress(el) {
  const s = el.store.get();
  const w = wordsFor(s.lang);
  if (el.vision && s.trace.kind === 'vision') {
    renderVisionProgress(el);
    controlsProgress(el, s, w);
    return;
  }
  if (!el.scene || !el.views) return;
  const revealed = s.progress >= 1 ? el.scene.steps : Math.floor(s.progress * el.scene.steps) + 1;
  const caption = el.lines ? linesProgress(el, s, w, revealed) : matrixProgress(el, s, w, revealed);
  if (el.host.detail) {
    el.host.detail.hidden = !!el.lines; // the lines caption lists weights; there is no arithmetic to expand
    el.host.detail.textContent = el.detail ? w.shortCaption : w.exactCaption;
    el.host.detail.setAttribute('aria-pressed', String(!!el.detail));
  }
  if (el.caption) {
    writeCaption(el.caption, caption);
    // a screen reader hears the caption when the reader acts, not on every animation tick
    el.caption.setAttribute('aria-live', s.playing ? 'off' : 'polite');
  }
  controlsProgress(el, s, w);
}

/** The play button, the scrubber and "stage i of n" at this point of the animation. */
function controlsProgress(el, s, w) {
  if (el.host.play) {
    el.host.play.textContent = s.playing ? `❚❚ ${w.pause}` : `► ${w.play}`;
    el.host.play.setAttribute('aria-pressed', String(s.playing));
  }
  if (el.host.range) el.host.range.value = String(s.stageIndex * 1000 + Math.round(Math.min(1, s.progress) * 999));
  if (el.host.status) el.host.status.textContent = w.stageOf(s.stageIndex + 1, shownStages(s.trace).length);
  if (el.host.edited) el.host.edited.hidden = !(s.edited && s.exampleId);
}

/** The lines picture at this point of the animation; its caption (the spotlit token's weights). */
function linesProgress(el, s, w, revealed) {
  el.lines.reveal(revealed, s.progress < 1);
  return el.lines.caption() ?? (touchOnly() ? w.linesTap : w.linesHover);
}

/** The result matrix's cells revealed so far, the current and hovered cells marked; the caption for them. */
function matrixProgress(el, s, w, revealed) {
  const { order, resultMatrix } = el.scene;
  for (const line of el.views.get(el.scene.result).cells) {
    for (const td of line) {
      const i = Number(td.dataset.i), j = Number(td.dataset.j);
      const index = order === 'rows' ? i : i * resultMatrix.cols + j;
      td.classList.toggle('hidden', index >= revealed);
      td.classList.toggle('current', s.progress < 1 && index === revealed - 1);
    }
  }
  for (const v of el.views.values()) for (const line of v.cells) for (const td of line) td.classList.remove('hl', 'hover');
  const target = pointedAt(el.hovered, s.progress) ?? (s.progress < 1 ? stepCell(el.scene, revealed - 1) : null);
  if (el.hovered) el.views.get(el.hovered.key)?.cells[el.hovered.i]?.[el.hovered.j]?.classList.add('hover');
  return captionFor(el, target, w);
}
