// The online-softmax example as a learner steps through it: the running maximum, the rescale
// factor, the running sum and the accumulator tile by tile, each cell's arithmetic from the core
// with the cells it reads lit, and a result that equals the ordinary context cell for cell (the
// phone-width check is in mobile.test.mjs).
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';

import { createAttention } from '../../web/src/node.js';
import { cell } from '../../web/src/stepper/format.js';
import { artifacts, browserSession, shown, captionsSettled } from './session.mjs';

const session = browserSession();
const { open, problems } = session;
const a = await createAttention();
const trace = a.example('online-softmax');
const stageOf = (id) => trace.stages.find((s) => s.id === id);

const lit = (page) => page.evaluate(() => [...document.querySelector('attention-stepper').shadowRoot.querySelectorAll('td.cell.hl')]
  .map((td) => `${td.closest('figure').dataset.key}[${td.dataset.i}][${td.dataset.j}]`).sort());

test('every online stage shows the trace\'s numbers; the result equals the context; the formula map has the online group', async () => {
  for (const id of ['online_max', 'online_rescale', 'online_sum', 'online_acc', 'online_output']) {
    const page = await open(`playground.html?example=online-softmax&stage=${id}&lang=en`);
    const s = await shown(page);
    assert.equal(s.stage, id);
    const data = stageOf(id).data;
    assert.deepEqual(s.cells.map((c) => c.text), Array.from(data, cell), `${id}: cells are the trace's`);
    if (id === 'online_output') {
      const context = Array.from(stageOf('context').data, cell);
      assert.deepEqual(s.cells.map((c) => c.text), context, 'a ÷ ℓ reads as the context, cell for cell');
    }
    const terms = await page.evaluate(() => [...document.querySelector('attention-stepper').shadowRoot.querySelectorAll('[part=formula] .term')]
      .map((t) => [t.dataset.stage, t.getAttribute('aria-current')]));
    assert.ok(terms.some(([st, cur]) => st === id && cur === 'step'), `${id}: its term is the current one`);
    await page.screenshot({ path: path.join(artifacts, `online-${id}.png`), fullPage: true });
    await page.close();
  }
  // examples without the online softmax do not show its terms at all
  const plain = await open('playground.html?example=translation&stage=scores&lang=en');
  const plainTerms = await plain.evaluate(() => [...document.querySelector('attention-stepper').shadowRoot.querySelectorAll('[part=formula] .term')].map((t) => t.dataset.stage));
  assert.ok(!plainTerms.some((st) => st.startsWith('online_')), 'no online terms in translation');
  await plain.close();
  assert.deepEqual(problems, []);
});

test('hover: a cell of the accumulator reads its tile\'s scores, values, m, r and the previous accumulator; the caption is the core\'s', async () => {
  const page = await open('playground.html?example=online-softmax&stage=online_acc&lang=en');
  const root = page.locator('attention-stepper');
  // 垫子 (row 2), tile 3, dimension 2: column 6
  await root.locator('figure.role-result td.cell[data-i="1"][data-j="5"]').hover();
  await captionsSettled(page);
  const caption = await page.evaluate(() => document.querySelector('attention-stepper').shadowRoot.querySelector('.caption').textContent);
  assert.ok(caption.includes(a.explain(trace, 'online_acc', { i: 1, j: 5 })), caption);
  assert.match(caption, /a₂⁽³⁾\[2\] = a₂⁽²⁾\[2\]·r₂⁽³⁾/);
  const cells = await lit(page);
  const [scores] = trace.stages.find((s) => s.id === 'online_max').operands;
  for (const want of [`${scores}[1][4]`, `${scores}[1][5]`, 'v[4][1]', 'v[5][1]', 'online_max[1][2]', 'online_rescale[1][2]', 'online_acc[1][3]'])
    assert.ok(cells.includes(want), `${want} lit (lit: ${cells.join(' ')})`);
  await page.screenshot({ path: path.join(artifacts, 'online-acc-hover.png'), fullPage: true });
  await page.close();
  // the rescale factors of 垫子 are below 1 (a new maximum each tile), 猫's are 1
  const r = stageOf('online_rescale').data;
  assert.ok(r[4] < 0.6 && r[5] < 0.2 && r[1] === 1 && r[2] === 1);
});

test('Chinese: the titles and the arithmetic\'s sentence', async () => {
  const page = await open('playground.html?example=online-softmax&stage=online_sum&lang=zh');
  const s = await shown(page);
  assert.equal(s.title, '在线 softmax：运行和');
  await page.screenshot({ path: path.join(artifacts, 'online-zh.png'), fullPage: true });
  await page.close();
  assert.deepEqual(problems, []);
});
