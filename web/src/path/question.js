// Predict, then reveal: a section's question. The learner picks a choice; only then does the figure's result
// (its trace, or the core's figure) decide which choice was right and give the number the reveal quotes.
import { append, clear, h } from '../stepper/dom.js';
import { cell } from '../stepper/format.js';

/**
 * A [data-question] block for a section: {el, setLang(lang)}. q: the section's question (sections.js),
 * words: (lang) → its words ({prompt, choices, why}), ui: (lang) → the path's ui words, result: () → a
 * promise of the figure's result (starting the figure if it has not started).
 */
export function makeQuestion(q, { words, ui, result, lang }) {
  const el = h('div', { className: 'question', dataset: { question: '' } });
  let picked = null;
  let answer = null; // {right, value, other?, integer?} from the figure's result
  let current = lang;

  const render = () => {
    const w = words(current), u = ui(current);
    const choices = q.choices.map((id) => {
      const state = answer ? (id === answer.right ? 'right' : id === picked ? 'wrong' : '') : id === picked ? 'picked' : '';
      return h('button', {
        className: `choice ${state}`, dataset: { choice: id }, disabled: picked !== null,
        attrs: { type: 'button', 'aria-pressed': id === picked ? 'true' : 'false' },
        on: { click: () => pick(id) },
      }, w.choices[id]?.[current] ?? id);
    });
    const reveal = answer ? h('p', { className: `reveal ${answer.right === picked ? 'right' : 'wrong'}`, dataset: { reveal: '', value: answer.value }, attrs: { role: 'status' } },
      h('strong', { text: answer.right === picked ? u.right : u.not_quite }), ' ',
      w.why[current].replaceAll('{value}', answer.integer ? String(answer.value) : cell(answer.value))
        .replaceAll('{other}', answer.other === undefined ? '' : cell(answer.other)))
      : picked !== null ? h('p', { className: 'reveal pending', attrs: { role: 'status' }, text: u.computing }) : null;
    append(clear(el), [h('p', { className: 'prompt' }, h('span', { className: 'predict', text: u.predict }), ' ', w.prompt[current]),
      h('div', { className: 'choices', attrs: { role: 'group', 'aria-label': w.prompt[current] } }, choices), reveal]);
  };

  async function pick(id) {
    if (picked !== null) return;
    picked = id;
    render();
    try {
      answer = q.answer(await result());
    } catch (error) {
      answer = null;
      el.append(h('p', { className: 'refusal', attrs: { role: 'alert' }, text: String(error?.message ?? error) }));
      return;
    }
    render();
  }

  render();
  return { el, setLang(l) { current = l; render(); } };
}
