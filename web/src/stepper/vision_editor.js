// The edit panel of a vision spec: the whole spec as JSON text (feature map, channel labels and the
// block's parameters), applied with a button or Ctrl+Enter. The core checks it: a refusal comes
// back as its sentence under the text, and the picture keeps the last good trace.
import { h } from './dom.js';

/** The spec as text a person can edit: one field a line, each innermost row of numbers on one line. */
function specText(spec) {
  return JSON.stringify(spec, null, 1).replace(/\[[-0-9.e,\s]*\]/g, (row) => row.replace(/\s+/g, ' ').replace(/\[ /, '[').replace(/ \]/, ']'));
}

export function visionEditor(el, s, w) {
  const text = h('textarea', { className: 'vision-spec', value: specText(s.spec), rows: 16, attrs: { 'aria-label': w.editTitle, spellcheck: 'false' } });
  const error = h('p', { className: 'error', attrs: { role: 'alert' } });
  const apply = () => {
    let spec;
    try {
      spec = JSON.parse(text.value);
    } catch (e) {
      error.textContent = `the spec is not valid JSON (${e.message}).`;
      return;
    }
    el.edit('spec', (next) => {
      for (const key of Object.keys(next)) delete next[key];
      Object.assign(next, spec);
    }).then(() => { error.textContent = el.store.get().error?.message ?? ''; });
  };
  text.addEventListener('keydown', (e) => { if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) apply(); });
  return h('section', { className: 'editor', attrs: { 'aria-label': w.editTitle } },
    h('h3', { text: w.editTitle }),
    h('p', { className: 'hint', text: w.visionEditHint }),
    text, error,
    h('div', { className: 'bar' },
      h('button', { type: 'button', className: 'apply', text: w.apply, on: { click: apply } }),
      h('button', { type: 'button', className: 'reset', text: w.reset, on: { click: () => el.resetToExample() } })));
}
