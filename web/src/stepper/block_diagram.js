// Where this layer sits: one Transformer block drawn as five boxes, embedding + PE → multi-head
// attention → add & LayerNorm → feed-forward → add & LayerNorm. Only attention is computed here
// (its box opens the stepper at the projections); the others are context, each with one sentence.
// With block="model" (the model mode's stepper on a real layer) the block is the model's own, pre-LN
// decoder block, every part computed: attention opens the projections, each other box asks the page to
// open that stage (a "blockstage" event, detail {stage}, which <attention-model> answers).
import { h } from './dom.js';

export function blockDiagram(el, w) {
  if (el.getAttribute('block') === 'model') return modelBlock(el, w);
  const boxes = w.block.map((box) => {
    const here = box.computed;
    const content = [h('strong', { text: box.title }), h('span', { className: 'block-text', text: box.text })];
    return here
      ? h('button', { type: 'button', className: 'block here', attrs: { 'aria-current': 'true' }, on: { click: () => el.goTo('q') } }, ...content)
      : h('div', { className: 'block context' }, ...content, h('em', { className: 'block-note', text: w.notComputed }));
  });
  return diagram(boxes, w);
}

function diagram(boxes, w, open = false) {
  const row = [];
  boxes.forEach((b, k) => row.push(...(k ? [h('span', { className: 'arrow', text: '→', attrs: { 'aria-hidden': 'true' } }), b] : [b])));
  return h('details', { className: 'block-diagram', attrs: { open } }, h('summary', { text: w.blockTitle }), h('div', { className: 'blocks' }, row));
}

function modelBlock(el, w) {
  const boxes = w.modelBlock.map((box) => {
    const content = [h('strong', { text: box.title }), h('span', { className: 'block-text', text: box.text }), h('em', { className: 'block-note', text: w.computedHere })];
    const open = box.attention
      ? () => el.goTo('q')
      : () => el.dispatchEvent(new CustomEvent('blockstage', { detail: { stage: box.stage }, bubbles: true, composed: true }));
    return h('button', { type: 'button', className: `block here${box.attention ? '' : ' model-part'}`, dataset: { stage: box.stage ?? 'q' },
      attrs: box.attention ? { 'aria-current': 'true' } : {}, on: { click: open } }, ...content);
  });
  return diagram(boxes, w);
}
