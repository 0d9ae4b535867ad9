// Under the stage, in train mode: dL/d(stage) laid out like the stage's own result matrix (the same
// rows, columns and labels, on the signed colour scale), and for the hovered or focused cell the chain
// rule with both passes' numbers, written by the core (attention.explainGrad). The gradients are the
// core's backward pass (attention.grad); nothing here differentiates anything.
import { coreText, writeCaption } from './core_caption.js';
import { clear, h, touchOnly } from './dom.js';
import { cell } from './format.js';
import { renderMatrix } from './matrix_view.js';
import { makeContext, sceneFor } from './steps.js';

/**
 * What the gradient is of: this sentence's own loss; or, for an "upstream" spec, a later loss whose gradient
 * reached this attention's output (a language model's next-character loss, with its value when given).
 */
function explanation(g, w) {
  const what = g.spec.loss !== 'upstream' ? w.gradientExplain(cell(g.result.loss))
    : g.modelLoss === undefined ? w.gradientExplainUpstream : w.gradientExplainModel(cell(g.modelLoss));
  return `${what}${w.lang === 'zh' ? '' : ' '}${touchOnly() ? w.gradientCellTap : w.gradientCell}`; // a touch screen has no hover
}

/**
 * Draws the gradient of the shown stage into the stage area's gradient box, or empties it when there is no
 * loss (area.gradients: {spec: the grad spec, result: the core's a.grad(spec), from its worker, modelLoss: the
 * value of the later loss an "upstream" spec's gradient came from, or undefined}).
 */
export function renderGradient(area, stage, w) {
  const box = area.gradientBox;
  if (!box) return;
  clear(box);
  const g = area.gradients;
  const s = area.store.get();
  const grads = g && new Map(g.result.stage_grads.map((x) => [x.id, x.data]));
  box.hidden = !grads?.has(stage.id);
  if (box.hidden) return;
  // the trace with every stage's values replaced by its gradient: the scene lays it out as it lays out the stage
  const adjoint = { ...s.trace, stages: s.trace.stages.map((st) => ({ ...st, data: grads.get(st.id) ?? st.data })) };
  const scene = sceneFor(makeContext(adjoint, area.attention.stages()), stage.id, s.head);
  const result = scene.matrices.find((m) => m.key === scene.result);
  const matrix = { ...result, key: 'gradient', heat: undefined, label: `∂L/∂${result.label}`, role: 'result' };
  const view = renderMatrix(matrix, { words: w });
  if (view.cells[0]?.[0]) view.cells[0][0].tabIndex = 0;
  const caption = h('div', { className: 'caption', attrs: { 'aria-live': 'polite' }, text: touchOnly() ? w.gradientTap : w.gradientHover });
  const onCell = (e) => {
    const td = e.target.closest?.('td.cell');
    if (!td) return;
    const at = { head: s.head, i: Number(td.dataset.i), j: Number(td.dataset.j), detail: area.detail };
    const key = `${stage.id} ${at.head} ${at.i} ${at.j} ${at.detail}`;
    pointed = key;
    const show = () => {
      if (pointed === key) writeCaption(caption, coreText(g.result, key, () => area.attention.explainGrad(g.result, stage.id, at), show));
    };
    show();
  };
  let pointed = null; // the cell whose chain rule the caption should show
  view.el.addEventListener('pointerover', onCell);
  view.el.addEventListener('focusin', onCell);
  box.append(h('h3', { className: 'gradient-title', text: w.gradientTitle(result.label) }),
    h('p', { className: 'explain', text: explanation(g, w) }),
    view.el, caption);
}
