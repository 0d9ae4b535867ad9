// Where this layer sits: one Transformer block drawn as five boxes, embedding + PE → multi-head
// attention → add & LayerNorm → feed-forward → add & LayerNorm. Only attention is computed here
// (its box opens the stepper at the projections); the others are context, each with one sentence.
import { h } from './dom.js';

export function blockDiagram(el, w) {
  const boxes = w.block.map((box) => {
    const here = box.computed;
    const content = [h('strong', { text: box.title }), h('span', { className: 'block-text', text: box.text })];
    return here
      ? h('button', { type: 'button', className: 'block here', attrs: { 'aria-current': 'true' }, on: { click: () => el.goTo('q') } }, ...content)
      : h('div', { className: 'block context' }, ...content, h('em', { className: 'block-note', text: w.notComputed }));
  });
  const row = [];
  boxes.forEach((b, k) => row.push(...(k ? [h('span', { className: 'arrow', text: '→', attrs: { 'aria-hidden': 'true' } }), b] : [b])));
  return h('details', { className: 'block-diagram' }, h('summary', { text: w.blockTitle }), h('div', { className: 'blocks' }, row));
}
