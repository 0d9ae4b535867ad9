// Where this layer sits: one Transformer block drawn as five boxes, embedding + PE → multi-head
// attention → add & LayerNorm → feed-forward → add & LayerNorm. Only attention is computed here
// (its box opens the stepper at the projections); the others are context, each with one sentence.
// With block="model" (the model mode's stepper on a real layer) the block is the model's own, pre-LN
// decoder block, every part computed: attention opens the projections, each other box asks the page to
// open that stage (a "blockstage" event, detail {stage}, which <attention-model> answers).
import { h } from './dom.js';

export function blockDiagram(el, w, lang) {
  if (el.getAttribute('block') === 'model') return modelBlock(el, w, lang);
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

/**
 * The model's own block: a box for each stage its registry marks as the block's, in the order the residual
 * stream meets them (el.blockFacts, which <attention-model> sets from m.stages(): [{id, symbol, title: {en, zh},
 * explain: {en, zh}}]), each named and explained in the registry's words; the attention's output is this
 * stepper's box, in its own words. Without facts, the attention's box alone. lang: en or zh.
 */
function modelBlock(el, w, lang) {
  const facts = el.blockFacts?.length ? el.blockFacts : [{ id: 'output' }];
  const boxes = facts.map((fact) => {
    const attention = fact.id === 'output';
    const [title, text] = attention ? [w.modelAttention.title, w.modelAttention.text] : [`${fact.symbol} · ${fact.title[lang]}`, fact.explain[lang]];
    const content = [h('strong', { text: title }), h('span', { className: 'block-text', text }), h('em', { className: 'block-note', text: w.computedHere })];
    const open = attention
      ? () => el.goTo('q')
      : () => el.dispatchEvent(new CustomEvent('blockstage', { detail: { stage: fact.id }, bubbles: true, composed: true }));
    return h('button', { type: 'button', className: `block here${attention ? '' : ' model-part'}`, dataset: { stage: attention ? 'q' : fact.id },
      attrs: attention ? { 'aria-current': 'true' } : {}, on: { click: open } }, ...content);
  });
  return diagram(boxes, w);
}
