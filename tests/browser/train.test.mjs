// The train mode (site/train.html, <attention-trainer>) as a learner uses it: Play trains in the wasm
// core between frames until the alignment appears in the heatmap and the lines; the two-run lessons
// end apart (PE vs none, ÷√d_k vs none); Step, Reset, the learning-rate slider, the sentence picker and
// the URL; paused, the stage's gradient with each cell's chain rule; an overflowing rate refused in a
// sentence; Chinese; axe. The page's numbers are checked against the npm module trained in Node.
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';

import { createAttention } from '../../web/src/node.js';
import { webDir } from '../node/helpers.mjs';
import { artifacts, browserSession, captionsSettled } from './session.mjs';

const session = browserSession();
const { problems } = session;
const a = await createAttention();

/** The train page, once every run's stepper shows its stage. */
async function openTrainer(query) {
  const page = await session.open(`train.html?${query}`, { wait: false });
  await page.waitForFunction(() => {
    const t = document.querySelector('attention-trainer');
    return t?.runs?.length && t.runs.every((r) => r.stepper?.shadowRoot?.querySelector('.scene'));
  }, null, { timeout: 30000 });
  return page;
}

/** Plays to the end of the lesson's steps and waits for the pause. */
async function playToEnd(page) {
  await page.locator('attention-trainer').locator('select.speed').selectOption('5'); // not slow motion: the end is what is read
  await page.locator('attention-trainer').locator('button.play').click();
  await page.waitForFunction(() => { const t = document.querySelector('attention-trainer'); return !t.playing && t.done >= t.target; }, null, { timeout: 60000 });
}

/** The live α heatmap of run k: rows of values as drawn (data-value). */
const alphaOf = (page, k = 0) => page.evaluate(async (run) => {
  await document.querySelector('attention-trainer').settled(); // the pictures come from the core's worker
  const section = document.querySelector('attention-trainer').shadowRoot.querySelectorAll('section.run')[run];
  return [...section.querySelectorAll('.alpha tbody tr')].map((tr) => [...tr.querySelectorAll('td.cell')].map((td) => Number(td.dataset.value)));
}, k);

const argmax = (row) => row.indexOf(Math.max(...row));

test('alignment: the weights start near uniform and after Play every Chinese word\'s largest weight is on its English word; the page\'s numbers are the module\'s', async () => {
  const page = await openTrainer('lesson=alignment&lang=en');
  const before = await alphaOf(page);
  assert.ok(before.flat().every((v) => v > 0.1 && v < 0.25), `near uniform over 6 keys: ${before.flat()}`);
  await page.screenshot({ path: path.join(artifacts, 'train-alignment-start.png'), fullPage: true });
  await playToEnd(page);
  await page.screenshot({ path: path.join(artifacts, 'train-alignment-trained.png'), fullPage: true });
  const state = await page.evaluate(() => { const t = document.querySelector('attention-trainer'); return { done: t.done, losses: t.runs[0].losses, frames: t.frames }; });
  assert.equal(state.done, 300);
  assert.equal(state.losses.length, 300);
  assert.ok(state.losses[299] < state.losses[0] / 1000, `the loss falls: ${state.losses[0]} → ${state.losses[299]}`);
  assert.ok(state.frames >= 30, `trained over ${state.frames} frames, not in one block`);
  // the same training in Node through the npm module: the same losses, the same weights
  const task = a.task('alignment');
  const run = a.trainer(task);
  const nodeLosses = run.step(300);
  state.losses.forEach((l, k) => assert.ok(Math.abs(l - nodeLosses[k]) <= 1e-5 * Math.max(1, nodeLosses[k]), `step ${k + 1}: ${l} vs ${nodeLosses[k]}`));
  const trained = run.spec();
  run.dispose();
  // every sentence: the drawn α is the module's trace of it, and each word's row maximum is its partner
  const partners = { 猫: 'cat', 狗: 'dog', 鸟: 'bird', 坐: 'sat', 跑: 'ran', 睡: 'slept', 垫子: 'mat', 地毯: 'rug', 树: 'tree', 在: 'on', 上: 'on' };
  for (const k of [0, 5, 15]) {
    await page.locator('attention-trainer').locator('select.sentence').selectOption(String(k));
    await captionsSettled(page);
    const drawn = await alphaOf(page);
    const item = task.train.data[k];
    const t = a.trace({ ...trained, x: item.x, memory: item.memory, tokens: item.tokens });
    const weights = t.stages.find((s) => s.id === 'weights').data;
    drawn.forEach((row, i) => row.forEach((v, j) => assert.ok(Math.abs(v - weights[i * row.length + j]) <= 1e-5, `sentence ${k + 1} α[${i}][${j}]`)));
    drawn.forEach((row, i) => assert.equal(item.tokens.key[argmax(row)], partners[item.tokens.query[i]], `${item.tokens.query[i]} in sentence ${k + 1}`));
    // the lines view says the same: the heaviest line of each query
    const lines = await page.evaluate(() => [...document.querySelector('attention-trainer').runs[0].stepper.shadowRoot.querySelectorAll('path[data-i]')]
      .map((p) => ({ q: Number(p.dataset.i), k: Number(p.dataset.j), w: Number(p.dataset.weight) })));
    for (let i = 0; i < drawn.length; i++) {
      const mine = lines.filter((l) => l.q === i).sort((x, y) => y.w - x.w);
      assert.equal(mine[0].k, argmax(drawn[i]), `the heaviest line of query ${i + 1}`);
    }
  }
  assert.match(page.url(), /lesson=alignment&lang=en&sentence=16/);
  assert.deepEqual(problems, []);
  await page.close();
});

test('slow motion by default: about four steps a second at first, a step counter, and a sentence when a row\'s strongest key moves', async () => {
  const page = await openTrainer('lesson=alignment&lang=en');
  const trainer = page.locator('attention-trainer');
  assert.equal(await trainer.locator('select.speed').inputValue(), '0', 'slow motion is the default');
  await trainer.locator('button.play').click();
  await page.waitForTimeout(2000);
  const early = await page.evaluate(() => document.querySelector('attention-trainer').done);
  assert.ok(early >= 3 && early <= 12, `${early} steps in the first two seconds`);
  await page.waitForFunction(() => document.querySelector('attention-trainer').shadowRoot.querySelector('p.changed').textContent, null, { timeout: 30000 });
  await trainer.locator('button.play').click(); // pause
  const said = await trainer.locator('p.changed').textContent();
  assert.match(said, /^Step \d+: \S+ now attends most to \S+ \(it was \S+\)/, said);
  assert.match(await trainer.locator('.train-status').textContent(), /^step \d+ of 300$/);
  await page.close();
});

test('paused: the stage\'s gradient sits under it, each cell with its chain rule from the core; while playing it is gone', async () => {
  const page = await openTrainer('lesson=alignment&lang=en');
  const trainer = page.locator('attention-trainer');
  await trainer.locator('button.step').click();
  await page.waitForFunction(() => document.querySelector('attention-trainer').done === 1);
  const stepper = page.locator('attention-trainer attention-stepper');
  await stepper.locator('button[data-view="matrix"]').click();
  const gradient = stepper.locator('section.gradient');
  assert.equal(await gradient.isVisible(), true);
  assert.match(await gradient.locator('h3').textContent(), /^Gradient ∂L\/∂α/);
  const cell = gradient.locator('td.cell').nth(7); // row 2, column 2
  await cell.hover();
  await captionsSettled(page);
  const caption = await gradient.locator('.caption').textContent();
  assert.match(caption, /^∂L\/∂α\[2\]\[2\] = Σ_c ∂L\/∂c\[2\]\[c\]·v\[2\]\[c\] = .+ = /);
  assert.equal(caption.split(' = ').at(-1), await cell.textContent(), 'the sentence ends in the cell');
  // the gradient drawn is the module's for this sentence at these weights
  const spec = await page.evaluate(async () => { const t = document.querySelector('attention-trainer'); return { spec: await t.sentenceSpec(t.runs[0]), loss: t.sentenceOf(t.runs[0]).loss }; });
  const g = a.grad({ ...spec.spec, ...spec.loss }).stage_grads.find((s) => s.id === 'weights').data;
  const drawn = await gradient.locator('td.cell').evaluateAll((tds) => tds.map((td) => Number(td.dataset.value)));
  drawn.forEach((v, k) => assert.ok(Math.abs(v - g[k]) <= 1e-6, `∂L/∂α cell ${k}`));
  // the other stages have theirs too: the scores (the chain rule through the softmax)
  await stepper.locator('.timeline button', { hasText: 'Similarity scores' }).click();
  await gradient.locator('td.cell').first().hover();
  await captionsSettled(page);
  assert.match(await gradient.locator('.caption').textContent(), /^∂L\/∂e\[1\]\[1\] = ∂L\/∂scaled\[1\]\[1\] ÷ √16 = /);
  await trainer.locator('button.play').click();
  await page.waitForFunction(() => document.querySelector('attention-trainer').done > 5);
  assert.equal(await gradient.count() === 0 || !(await gradient.isVisible()), true, 'no gradient while it trains');
  await trainer.locator('button.play').click(); // pause
  assert.deepEqual(problems, []);
  await page.close();
});

test('positions and ÷√d_k: two runs side by side end far apart, as the core\'s tasks promise', async () => {
  for (const [lesson, factor, shot] of [['positions', 0.1, 'train-positions-zh.png'], ['scaling', 0.01, 'train-scaling.png']]) {
    const page = await openTrainer(`lesson=${lesson}&lang=${lesson === 'positions' ? 'zh' : 'en'}`);
    assert.equal(await page.locator('attention-trainer section.run').count(), 2);
    await playToEnd(page);
    const [good, bad] = await page.evaluate(() => document.querySelector('attention-trainer').runs.map((r) => r.losses.at(-1)));
    assert.ok(good < factor * bad, `${lesson}: ${good} vs ${bad}`);
    assert.equal(await page.locator('attention-trainer svg.loss-chart polyline.loss-line').count(), 2);
    if (lesson === 'positions') assert.match(await page.locator('attention-trainer h2').textContent(), /位置为什么重要/);
    await page.screenshot({ path: path.join(artifacts, shot), fullPage: true });
    await page.close();
  }
  assert.deepEqual(problems, []);
});

test('controls: Reset goes back to step 0, the slider sets the rate the core uses, an overflowing rate is refused in a sentence and the page keeps working', async () => {
  const page = await openTrainer('lesson=alignment&lang=en');
  const trainer = page.locator('attention-trainer');
  await trainer.locator('input.lr').fill('-1'); // 10^-1
  assert.equal(await trainer.locator('output.lr-value').textContent(), '0.1');
  for (let k = 0; k < 3; k++) await trainer.locator('button.step').click();
  await page.waitForFunction(() => document.querySelector('attention-trainer').done === 3);
  const losses = await page.evaluate(() => document.querySelector('attention-trainer').runs[0].losses);
  const run = a.trainer(a.task('alignment'));
  run.setLearningRate(0.1);
  const expected = run.step(3);
  run.dispose();
  losses.forEach((l, k) => assert.ok(Math.abs(l - expected[k]) <= 1e-6, `step ${k + 1} at lr 0.1`));
  await trainer.locator('button.reset').click();
  await page.waitForFunction(() => document.querySelector('attention-trainer').done === 0);
  await page.evaluate(() => document.querySelector('attention-trainer').settled()); // the reset's pictures, from the worker
  await trainer.locator('span.train-status', { hasText: /^step 0 of 300$/ }).waitFor({ timeout: 5000 });
  await page.evaluate(() => document.querySelector('attention-trainer').setLearningRate(1e30));
  for (let k = 0; k < 3; k++) await trainer.locator('button.step').click();
  const alert = trainer.locator('p.error[role="alert"]');
  await alert.waitFor({ state: 'visible' });
  await captionsSettled(page);
  assert.match(await alert.textContent(), /^training overflowed the float range at step \d+: /);
  const after = await page.evaluate(() => document.querySelector('attention-trainer').runs[0].stepper.trace.stages.find((s) => s.id === 'weights').data);
  assert.ok(Array.from(Object.values(after)).every(Number.isFinite), 'no NaN drawn');
  await trainer.locator('button.reset').click();
  await alert.waitFor({ state: 'hidden' });
  await trainer.locator('button.step').click();
  await page.waitForFunction(() => document.querySelector('attention-trainer').done === 1);
  assert.deepEqual(problems, []);
  await page.close();
});

test('the URL picks the lesson and the sentence; a bad one falls back; axe finds nothing serious (the phone: mobile.test.mjs)', async () => {
  let page = await openTrainer('lesson=scaling&sentence=3&lang=zh');
  assert.equal(await page.evaluate(() => document.querySelector('attention-trainer').lesson), 'scaling');
  assert.equal(await page.locator('attention-trainer select.sentence').inputValue(), '2');
  await page.locator('attention-trainer button.lesson[data-lesson="positions"]').click();
  await page.waitForFunction(() => location.search.includes('lesson=positions'));
  await page.addScriptTag({ path: path.join(webDir, 'node_modules/axe-core/axe.min.js') });
  await page.waitForFunction(() => { const t = document.querySelector('attention-trainer'); return t.runs.length && t.runs.every((r) => r.stepper?.shadowRoot?.querySelector('.scene')); });
  const bad = await page.evaluate(async () => (await window.axe.run(document, { resultTypes: ['violations'] })).violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => ({ id: v.id, target: v.nodes[0]?.target, summary: v.nodes[0]?.failureSummary })));
  assert.deepEqual(bad, [], JSON.stringify(bad, null, 1));
  await page.close();
  page = await openTrainer('lesson=<img src=x onerror=alert(1)>&sentence=99');
  assert.equal(await page.evaluate(() => document.querySelector('attention-trainer').lesson), 'alignment');
  assert.equal(await page.locator('attention-trainer select.sentence').inputValue(), '15');
  await page.close();
  assert.deepEqual(problems, []);
});
