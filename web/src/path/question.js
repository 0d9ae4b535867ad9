// Predict, then reveal: a section's question. The learner picks a choice; only then does the figure's result
// (its trace, or the core's figure) decide which choice was right and give the number the reveal quotes.
import { append, clear, h } from '../stepper/dom.js';
import { cell } from '../stepper/format.js';

/** A choice's words without the quotation marks of a quoted word (the sentence quotes it). */
const bare = (words) => words.replace(/^“(.*)”$/, '$1');

/**
 * A [data-question] block for a section: {el, setLang(lang)}. q: the section's question (sections.js),
 * words: (lang) → its words ({prompt, choices, why}), ui: (lang) → the path's ui words, result: () → a
 * promise of the figure's result (starting the figure if it has not started).
 */
export function makeQuestion(q, { words, ui, result, lang, onPick = () => {} }) {
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
    // a wrong pick hears what it picked and what the core found, then the same reason as a right one
    const missed = answer && answer.right !== picked
      ? u.you_picked.replace('{picked}', bare(w.choices[picked]?.[current] ?? picked)).replace('{right}', bare(w.choices[answer.right]?.[current] ?? answer.right))
      : '';
    const reveal = answer ? h('p', { className: `reveal ${answer.right === picked ? 'right' : 'wrong'}`, dataset: { reveal: '', value: answer.value }, attrs: { role: 'status' } },
      h('strong', { text: answer.right === picked ? u.right : u.not_quite }), current === 'zh' ? '' : ' ', missed ? `${missed}${current === 'zh' ? '' : ' '}` : '',
      w.why[current].replaceAll('{value}', answer.integer ? String(answer.value) : cell(answer.value))
        .replaceAll('{other}', answer.other === undefined ? '' : cell(answer.other))
        .replaceAll('{rows}', (answer.rows ?? []).map((r) => u.head_row.replace('{query}', r.query).replace('{one}', r.one).replace('{other}', r.other))
          .join(current === 'zh' ? '；' : '; ')))
      : picked !== null ? h('p', { className: 'reveal pending', attrs: { role: 'status' }, text: u.computing }) : null;
    append(clear(el), [h('p', { className: 'prompt' }, h('span', { className: 'predict', text: u.predict }), ' ', w.prompt[current]),
      h('div', { className: 'choices', attrs: { role: 'group', 'aria-label': w.prompt[current] } }, choices), reveal]);
  };

  async function pick(id) {
    if (picked !== null) return;
    picked = id;
    render();
    onPick();
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
