// The formula map: softmax(QKᵀ/√d_k + M)·V laid out as one strip of terms, one per stage, always in
// view. The current stage's term is highlighted (aria-current="step"); every term is a button that
// jumps to its stage; terms of stages this spec does not have (no mask, one head, no W_o) are greyed.
// The terms and their grouping (softmax's four sub-steps) come from the core's stage registry.
import { h } from './dom.js';
import { stageTitle } from './i18n.js';
import { shownStages } from './steps.js';

/**
 * The strip for a trace, from the stage registry (a.stages()); goTo(id) shows a stage. Returns {el, mark}:
 * mark(id) highlights the current stage's term.
 */
export function formulaMap(registry, s, w, goTo) {
  const shown = new Set(shownStages(s.trace).map((st) => st.id));
  const strip = h('nav', { className: 'formula-map', attrs: { part: 'formula', 'aria-label': w.formulaMap } });
  const terms = new Map(); // stage id -> its button
  let groupName = '';
  let group = null;
  // a group of optional stages (the online softmax's, the rotary positions' RoPE(Q K)) appears only in the traces that have it
  const groupShown = (g) => registry.some((st) => st.group === g && shown.has(st.id));
  const written = new Map(s.trace.stages.map((st) => [st.id, st.term])); // this spec's (no W_q: "Q = X")
  for (const info of registry) {
    const present = shown.has(info.id);
    if (!present && info.group && !groupShown(info.group)) continue;
    const text = written.get(info.id) ?? info.term;
    const term = h('button', {
      type: 'button', className: 'term', text, dataset: { stage: info.id },
      // the accessible name starts with the visible term (WCAG "label in name"), then the stage's title
      attrs: { title: stageTitle(info, s.lang), 'aria-label': `${text}: ${stageTitle(info, s.lang)}`, 'aria-disabled': String(!present) },
      on: { click: () => present && goTo(info.id) },
    });
    terms.set(info.id, term);
    if (info.group && info.group === groupName) {
      group.append(term);
      continue;
    }
    if (group) group.append(h('span', { className: 'paren', text: ')' }));
    if (strip.childNodes.length && !strip.lastChild.textContent.endsWith('+')) strip.append(h('span', { className: 'arrow', text: '→', attrs: { 'aria-hidden': 'true' } }));
    groupName = info.group;
    group = info.group ? h('span', { className: 'group' }, h('span', { className: 'paren', text: `${info.group}(` }), term) : null;
    strip.append(group ?? term);
  }
  if (group) group.append(h('span', { className: 'paren', text: ')' }));
  const mark = (id) => {
    for (const [stage, term] of terms) term.setAttribute('aria-current', stage === id ? 'step' : 'false');
  };
  return { el: strip, mark };
}
