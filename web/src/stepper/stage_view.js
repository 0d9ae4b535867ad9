// The stage area: the picture of the current stage (its matrices or its lines, a vision block's maps), the
// head selector and every head's grid, train mode's gradient under it, and the caption of the hovered or
// current cell. A StageArea keeps its own state (the scene, the drawn views, the hovered cell, whether the
// caption shows every term) and draws what it is given: the store's state, the core's registry and
// arithmetic, the example's document. The element owns one, hands it the boxes it draws into, and draws
// the words and the chrome around it itself.
import { coreText, keepWhenLeft, pointedAt, writeCaption } from './core_caption.js';
import { clear, h, svg, touchOnly } from './dom.js';
import { cell, exact, labelAt } from './format.js';
import { pick } from './i18n.js';
import { headsGrid, markHead, showsHeadsGrid } from './heads_grid.js';
import { linesPossible, linesView, showsLines } from './lines_view.js';
import { inPieces } from './later.js';
import { renderMatrix, updateMatrix } from './matrix_view.js';
import { renderGradient } from './gradient_view.js';
import { makeContext, sceneFor, shownStages } from './steps.js';
import { visionViews } from './vision_ready.js';

/** Whether a stage shows softmax rows: computed from the masked scores, one row per query, keys or one column. */
function showsSoftmaxRows(ctx, id) {
  const fromMask = (x) => x === 'masked' || ctx.byId.get(x).operands.some(fromMask);
  const info = ctx.info.get(id);
  return info.rows === 'query' && (info.cols === 'key' || info.cols === 'single') && fromMask(id);
}

/** Matrix ↔ lines, at the weights stage: two buttons, the current one pressed. */
function viewSwitch(store, lines, w) {
  const button = (view, text) => h('button', {
    type: 'button', text, dataset: { view }, attrs: { 'aria-pressed': String(lines === (view === 'lines')) },
    on: { click: () => store.set({ view }) },
  });
  return h('div', { className: 'view-switch', attrs: { role: 'group', 'aria-label': w.viewSwitch } },
    button('matrix', w.viewMatrix), button('lines', w.viewLines));
}

/** Cells in a stage's matrices past which its operands are refreshed a task after its result. */
const LARGE_SCENE = 2048;

/**
 * The first few PE columns as curves over the positions: the sinusoids being added, with the position axis
 * (one tick a position), the value axis (−1 … 1) and a legend naming each curve's column (sin or cos).
 */
function sinusoid(ctx, w) {
  const pe = ctx.byId.get('pe');
  const [n, d] = pe.shape;
  const W = 320, H = 170, L = 34, R = 8, T = 26, B = 34; // the plot inside: x L … W−R, y T … H−B
  const x = (i) => L + (i / Math.max(1, n - 1)) * (W - L - R), y = (v) => T + (1 - v) / 2 * (H - T - B);
  const text = (attrs, t) => svg('text', { 'font-size': 12, fill: '#57606a', ...attrs }, t);
  const g = svg('svg', { viewBox: `0 0 ${W} ${H}`, width: W, height: H, class: 'sinusoid', role: 'img', 'aria-label': w.sinusoid });
  for (const v of [1, 0, -1]) {
    g.append(svg('line', { x1: L, x2: W - R, y1: y(v), y2: y(v), stroke: v ? '#eaeef2' : '#8c959f' }),
      text({ x: L - 4, y: y(v) + 4, 'text-anchor': 'end' }, v));
  }
  const every = Math.ceil(n / 16); // a tick a position, thinned past 16
  for (let i = 0; i < n; i += every) g.append(text({ x: x(i), y: H - B + 14, 'text-anchor': 'middle' }, i));
  g.append(text({ x: (L + W - R) / 2, y: H - 3, 'text-anchor': 'middle', class: 'axis-x' }, w.pePosition),
    text({ x: 10, y: (T + H - B) / 2, 'text-anchor': 'middle', transform: `rotate(-90 10 ${(T + H - B) / 2})`, class: 'axis-y' }, w.peValue));
  const colors = ['#c0392b', '#2c6fbb', '#27ae60', '#8e44ad'];
  for (let j = 0; j < Math.min(4, d); j++) {
    const points = Array.from({ length: n }, (_, i) => `${x(i)},${y(pe.data[i * d + j])}`).join(' ');
    const at = L + j * ((W - L) / 4); // the legend: one entry a curve, along the top
    g.append(svg('polyline', { points, fill: 'none', stroke: colors[j], 'stroke-width': 1.5 }),
      svg('line', { x1: at, x2: at + 14, y1: 9, y2: 9, stroke: colors[j], 'stroke-width': 2 }),
      text({ x: at + 18, y: 13, class: 'legend-entry', fill: '#1b1f24' }, `${ctx.dims[j]} ${j % 2 ? 'cos' : 'sin'}`));
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

export class StageArea {
  /**
   * store: the element's state; attention: the core (its registry, explain, explainGrad); controls: the
   * controls shown (heads); working(promise): counts work for the element's settled().
   */
  constructor({ store, attention, controls, working }) {
    Object.assign(this, { store, attention, controls, working });
    this.box = null;          // the box the picture is drawn into (attach)
    this.caption = null;      // the caption box under the controls, and its "every term" toggle
    this.detailButton = null;
    this.detail = false;      // the caption shows every term and every digit
    this.scene = null;        // the scene of the stage drawn (steps.js), or a vision stage's {steps}
    this.views = null;        // its drawn matrices by key
    this.lines = null;        // or its lines picture
    this.vision = null;       // or a vision stage's drawn tensors (vision_view.js)
    this.hovered = null;      // the cell pointed at: {key, i, j} (a vision value: {stage, index}), left: the pointer has gone
    this.signature = null;    // what the drawn matrices are: the same again is refreshed, not drawn anew
    this.drawn = 0;           // bumped on every drawing: pieces queued for an older one are dropped (later.js)
    this.gradients = null;    // train mode: {spec, result, modelLoss} of the stage's gradients, or null
    this.headsGrid = null;    // every head's small picture: {el, data}
    this.headButtons = null;
    this.gradientBox = null;
  }

  /** A new box to draw into (the element drew its chrome anew), the caption's box and its toggle. */
  attach(box, caption, detailButton) {
    Object.assign(this, { box, caption, detailButton, signature: null });
  }

  /** How many animation steps the drawn stage has (the animator's and cell stepping's). */
  get steps() { return this.scene?.steps ?? 1; }

  /**
   * Draws the current stage of the store's state: "fresh" when drawn anew, "refreshed" when the same
   * matrices took new numbers (an edit, another head), "vision" for a vision block's stage.
   */
  render(w, doc) {
    const s = this.store.get();
    if (!this.box) return null;
    if (s.trace.kind === 'vision') {
      this.views = null;
      visionViews.get().renderVisionStage(this, s, w);
      return 'vision';
    }
    this.vision = null;
    const stage = shownStages(s.trace)[s.stageIndex];
    // the example's names for its dimensions, in the reader's language, label the columns (makeContext checks the width)
    const ctx = makeContext(s.trace, this.attention.stages(), doc?.dimensions?.map((name) => pick(name, s.lang)));
    this.scene = sceneFor(ctx, stage.id, s.head);
    const lines = showsLines(ctx, stage.id, s.view, doc);
    // the lines picture plays query by query: each step spotlights one query's lines
    if (lines) this.scene = { ...this.scene, order: 'rows', steps: ctx.nQ };
    // the same stage with the same matrices (an edit of values): new numbers into the drawn cells
    // (another head of the same stage is the same matrices too: its numbers go into the drawn cells)
    const signature = [stage.id, s.lang, s.trace.empty_rows?.join() ?? '', ...this.scene.matrices.map((m) =>
      `${m.key}:${m.rows}x${m.cols}:${m.label}:${m.rowLabels?.join(',')}:${m.colLabels?.join(',')}`)].join('|');
    if (signature === this.signature && this.views && !this.lines) {
      this.refresh(s, w, stage, ctx);
      return 'refreshed';
    }
    this.signature = signature;
    this.drawn += 1;
    this.hovered = null;
    if (this.caption) this.caption.textContent = ''; // the previous stage's arithmetic is not this one's
    const parts = [];
    if (s.trace.empty_rows?.length && showsSoftmaxRows(ctx, stage.id)) {
      const rows = s.trace.empty_rows.map((r) => `${r + 1} (${ctx.qTokens[r]})`);
      parts.push(h('p', { className: 'notice empty-rows', attrs: { role: 'note' }, text: w.emptyRows(rows) }));
    }
    if (stage.id === 'weights' && linesPossible(ctx)) parts.push(viewSwitch(this.store, lines, w));
    this.headsGrid = showsHeadsGrid(ctx, stage.id) && !lines ? { el: headsGrid(this, ctx, stage, s.head, w), data: stage.data } : null;
    if (this.headsGrid) parts.push(this.headsGrid.el);
    // in the lines picture every head is drawn, each with its own toggle
    this.headButtons = null;
    if (this.scene.perHead && ctx.heads > 1 && this.controls().has('heads') && !lines) {
      this.headButtons = h('div', { className: 'heads', attrs: { role: 'group', 'aria-label': w.head } },
        Array.from({ length: ctx.heads }, (_, i) => h('button', {
          type: 'button', text: `${w.head} ${i + 1}`, attrs: { 'aria-pressed': String(i === s.head) },
          on: { click: () => this.store.set({ head: i }) },
        })));
      parts.push(this.headButtons);
    }
    const sceneEl = h('div', { className: 'scene', dataset: { stage: stage.id } });
    this.views = new Map();
    this.lines = lines ? linesView(ctx, w, () => this.progress(w)) : null;
    if (this.lines) sceneEl.append(this.lines.el);
    else this.scene.matrices.forEach((m, k) => {
      // a large matrix draws its first rows now and the others a piece a task (no long task on the page)
      const view = renderMatrix(m, { words: w, inPieces: (jobs) => inPieces(this, jobs), drew: () => this.progress(w) });
      this.views.set(m.key, view);
      if (k > 0 && m.role === 'result') sceneEl.append(h('span', { className: 'op', text: '→', attrs: { 'aria-hidden': 'true' } }));
      sceneEl.append(view.el);
      if (view.cells[0]?.[0]) view.cells[0][0].tabIndex = 0; // one tab stop per matrix; arrows move inside
    });
    if (this.scene.sinusoid) sceneEl.append(sinusoid(ctx, w));
    const onCell = (e) => {
      const td = e.target.closest?.('td.cell');
      if (!td) return;
      this.hovered = { key: td.dataset.key, i: Number(td.dataset.i), j: Number(td.dataset.j) };
      this.progress(w);
    };
    sceneEl.addEventListener('pointerover', onCell);
    sceneEl.addEventListener('focusin', onCell);
    keepWhenLeft(sceneEl, this, () => this.progress(w));
    // train mode: the stage's gradient under it (empty and hidden otherwise)
    this.gradientBox = h('section', { className: 'gradient', attrs: { 'aria-label': w.gradientTitle(this.scene.matrices.find((m) => m.key === this.scene.result)?.label ?? '') } });
    parts.push(sceneEl, this.gradientBox);
    clear(this.box).append(...parts);
    renderGradient(this, stage, w);
    return 'fresh';
  }

  /** After an edit of values: the drawn matrices, the heads' pictures and the gradient take the new numbers. */
  refresh(s, w, stage, ctx) {
    // the result first; the operands of a large stage after the frame (another head: thousands of cells)
    this.drawn += 1;
    const { matrices } = this.scene;
    const pieces = { inPieces: (jobs) => inPieces(this, jobs), drew: () => this.progress(w) };
    const update = (m, inParts = false) => updateMatrix(this.views.get(m.key), m, { words: w, ...(inParts ? pieces : {}) });
    const cells = matrices.reduce((sum, m) => sum + m.rows * m.cols, 0);
    const result = matrices.filter((m) => m.role === 'result'), operands = matrices.filter((m) => m.role !== 'result');
    const large = cells > LARGE_SCENE;
    result.forEach((m) => update(m, large));
    if (large) inPieces(this, operands.map((m) => () => update(m, true)));
    else operands.forEach((m) => update(m));
    const grid = this.headsGrid;
    if (grid && grid.data !== stage.data) { // new numbers (an edit): every head drawn again
      const again = headsGrid(this, ctx, stage, s.head, w);
      grid.el.replaceWith(again);
      Object.assign(grid, { el: again, data: stage.data });
    } else if (grid) markHead(grid.el, s.head);
    this.headButtons?.querySelectorAll('button').forEach((b, k) => b.setAttribute('aria-pressed', String(k === s.head)));
    renderGradient(this, stage, w);
  }

  /** The animation's point: the cells revealed so far, the current and hovered ones marked, and the caption. */
  progress(w) {
    const s = this.store.get();
    if (this.vision && s.trace.kind === 'vision') {
      visionViews.get().renderVisionProgress(this, s, w);
      return;
    }
    if (!this.scene || !this.views) return;
    const revealed = s.progress >= 1 ? this.scene.steps : Math.floor(s.progress * this.scene.steps) + 1;
    const caption = this.lines ? this.linesProgress(s, w, revealed) : this.matrixProgress(s, w, revealed);
    if (this.detailButton) {
      this.detailButton.hidden = !!this.lines; // the lines caption lists weights; there is no arithmetic to expand
      this.detailButton.textContent = this.detail ? w.shortCaption : w.exactCaption;
      this.detailButton.setAttribute('aria-pressed', String(this.detail));
    }
    if (this.caption) {
      writeCaption(this.caption, caption);
      // a screen reader hears the caption when the reader acts, not on every animation tick
      this.caption.setAttribute('aria-live', s.playing ? 'off' : 'polite');
    }
  }

  /** The lines picture at this point of the animation; its caption (the spotlit token's weights). */
  linesProgress(s, w, revealed) {
    this.lines.reveal(revealed, s.progress < 1);
    return this.lines.caption() ?? (touchOnly() ? w.linesTap : w.linesHover);
  }

  /** The result matrix's cells revealed so far, the current and hovered cells marked; the caption for them. */
  matrixProgress(s, w, revealed) {
    const { order, resultMatrix } = this.scene;
    for (const line of this.views.get(this.scene.result).cells) {
      for (const td of line) {
        const i = Number(td.dataset.i), j = Number(td.dataset.j);
        const index = order === 'rows' ? i : i * resultMatrix.cols + j;
        td.classList.toggle('hidden', index >= revealed);
        td.classList.toggle('current', s.progress < 1 && index === revealed - 1);
      }
    }
    for (const v of this.views.values()) for (const line of v.cells) for (const td of line) td.classList.remove('hl', 'hover');
    const target = pointedAt(this.hovered, s.progress) ?? (s.progress < 1 ? stepCell(this.scene, revealed - 1) : null);
    if (this.hovered) this.views.get(this.hovered.key)?.cells[this.hovered.i]?.[this.hovered.j]?.classList.add('hover');
    return this.captionFor(s, target, w);
  }

  highlight({ key, row, col, cell: at }) {
    const view = this.views.get(key);
    if (!view) return;
    view.cells.forEach((line, i) => line.forEach((td, j) => {
      const on = at ? at[0] === i && at[1] === j : (row === undefined || row === i) && (col === undefined || col === j);
      if (on) td.classList.add('hl');
    }));
  }

  /** The caption for a cell: its arithmetic (the core's) when it is a result cell, its value otherwise. */
  captionFor(s, target, w) {
    if (!target) return touchOnly() ? w.tap : w.hover;
    if (target.key === this.scene.result) {
      for (const hl of this.scene.highlights(target.i, target.j)) this.highlight(hl);
      const cellOf = { head: s.head, i: target.i, j: target.j, detail: this.detail };
      const stage = shownStages(s.trace)[s.stageIndex].id;
      return coreText(s.trace, `${stage} ${cellOf.head} ${cellOf.i} ${cellOf.j} ${cellOf.detail}`,
        () => this.attention.explain(s.trace, stage, cellOf), () => this.progress(w));
    }
    const m = this.views.get(target.key)?.m;
    const value = m?.value(target.i, target.j);
    if (!m) return '';
    // named as the rows and columns beside it read (the core's captions do the same): W_q[d1, d2], x[猫, d3]
    return `${m.label}[${labelAt(m.rowLabels, target.i)}, ${labelAt(m.colLabels, target.j)}] = ${this.detail ? exact(value) : cell(value)}`;
  }
}
