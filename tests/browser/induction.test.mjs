// The induction lesson (train.html?lesson=induction, <attention-induction>) driven as a person would: press
// Play and let a fresh 2-layer model train in the page until a layer-2 head's induction score (the core's
// detector) passes 0.4 — the phase change, with the loss falling — while the main thread never blocks;
// the page's losses are the npm module's for the same seed, bit for bit; pause and open a head's layer in
// the stepper; 中文; axe-core finds nothing serious.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

import { createAttention } from '../../web/src/node.js';
import { FORMED, LESSON, LESSON_FILES } from '../../web/src/model/lesson.js';
import { cell } from '../../web/src/stepper/format.js';
import { attnCli, repo } from '../node/helpers.mjs';
import { artifacts, browserSession, watchTaskCpu } from './session.mjs';

const axeScript = path.join(repo, 'web/node_modules/axe-core/axe.min.js');

const session = browserSession();
const { problems } = session;

async function openLesson(query) {
  const page = await session.browser.newPage();
  await page.setViewportSize({ width: 1280, height: 900 });
  page.on('pageerror', (e) => problems.push(`induction: ${e.message}`));
  await page.addInitScript(() => {
    window.longTasks = [];
    new PerformanceObserver((list) => { for (const e of list.getEntries()) window.longTasks.push({ at: e.startTime, ms: Math.round(e.duration) }); }).observe({ type: 'longtask', buffered: true });
  });
  page.cpu = await watchTaskCpu(page);
  await page.goto(`${session.server.url}train.html?${query}`);
  await page.waitForFunction(() => document.querySelector('attention-trainer')?.shadowRoot?.querySelector('attention-induction')?.about, null, { timeout: 60000 });
  return page;
}

const lesson = (page, fn) => page.evaluate((source) => new Function('el', `return (${source})(el);`)(
  document.querySelector('attention-trainer').shadowRoot.querySelector('attention-induction')), fn.toString());

test('Play: an induction head forms in the page (score ≥ 0.4), the loss falls, no long task; the losses are the module\'s', async () => {
  const page = await openLesson('lesson=induction&lang=en');
  const root = page.locator('attention-trainer').locator('attention-induction');
  await page.screenshot({ path: path.join(artifacts, 'induction-start.png'), fullPage: true });
  await page.evaluate(() => { window.longTasks = []; });
  await root.locator('button.play').click();
  await page.waitForFunction(() => {
    const el = document.querySelector('attention-trainer').shadowRoot.querySelector('attention-induction');
    return el.phaseStep !== null || el.done >= el.steps;
  }, null, { timeout: 600000, polling: 1000 });
  await root.locator('button.play').click(); // pause
  const state = await lesson(page, (el) => ({ phase: el.phaseStep, done: el.done, losses: el.losses, perSecond: el.stepsPerSecond, history: el.history }));
  await page.screenshot({ path: path.join(artifacts, 'induction-formed.png'), fullPage: true });
  assert.ok(state.phase !== null, `no induction head within ${state.done} steps`);
  const first = state.history.find((h) => h.heads.some((s) => s.layer === 1 && s.induction >= FORMED));
  assert.equal(first.step, state.phase);
  assert.ok(state.history[0].heads.every((s) => s.induction < 0.2), 'no induction head at step 0');
  const mean = (xs) => xs.reduce((p, q) => p + q, 0) / xs.length;
  const early = mean(state.losses.slice(0, 100)), late = mean(state.losses.slice(-100));
  assert.ok(late < early - 1, `the loss falls: ${early.toFixed(3)} → ${late.toFixed(3)}`);
  assert.match(await root.locator('p.phase').textContent(), new RegExp(`^An induction head formed at step ${state.phase}: layer 2 head \\d scores 0\\.\\d+\\.$`));
  // the goal is 100 ms (the benchmark: ATTN_LONG_TASK_LIMIT=100); CI guards against a freeze (long_tasks.test.mjs),
  // each task judged by its CPU time, the work it did, which a busy machine does not stretch (273 and 403 ms of
  // wall time failed this guard at load 5–9)
  const limit = Number(process.env.ATTN_LONG_TASK_LIMIT ?? 250);
  const tasks = (await page.cpu.cpuOf(await page.evaluate(() => window.longTasks))).map((t) => ({ ...t, work: t.cpuMs ?? t.ms }));
  console.log(`induction lesson: ${tasks.length} main-thread tasks over 50 ms of wall time while training, the longest ${Math.max(0, ...tasks.map((t) => t.ms))} ms, ` +
    `the most work ${Math.max(0, ...tasks.map((t) => t.work))} ms of CPU time`);
  assert.deepEqual(tasks.filter((t) => t.work > limit), [], `main-thread tasks over ${limit} ms of CPU time while training`);
  console.log(`induction lesson in Chromium: the layer-2 induction score reached ${FORMED} at step ${state.phase}, ` +
    `${state.perSecond.toFixed(1)} steps/s (${(state.phase / state.perSecond).toFixed(0)} s of training); loss ${early.toFixed(2)} → ${late.toFixed(2)}`);
  // the same run in Node through the npm module: the same first 200 losses, bit for bit (one wasm core)
  const a = await createAttention();
  const corpus = LESSON_FILES.map((f) => readFileSync(path.join('/usr/share/games/fortunes', f), 'utf8').replace(/\n?$/, '\n')).join('%\n');
  const model = await a.freshModel(corpus, { ...LESSON.shape, seed: 1 });
  const run = model.trainer(model.trainingText, { ...LESSON.training, seed: 1 });
  const mine = run.step(200);
  mine.forEach((l, k) => assert.equal(l, state.losses[k], `step ${k + 1}`));
  run.dispose();
  model.dispose();
  // paused: a head's layer in the stepper, every stage, its weights those of the lesson's pattern
  await root.locator('.tile[data-layer="2"][data-head="1"]').click();
  await root.locator('attention-stepper').waitFor();
  await page.waitForFunction(() => document.querySelector('attention-trainer').shadowRoot.querySelector('attention-induction')
    .shadowRoot.querySelector('attention-stepper')?.shadowRoot?.querySelector('.scene'));
  await page.addScriptTag({ path: axeScript });
  const violations = await page.evaluate(async () => (await window.axe.run(document, { resultTypes: ['violations'] })).violations
    .map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => ({ target: String(n.target) })) })));
  const serious = violations.filter((v) => ['serious', 'critical'].includes(v.impact));
  assert.deepEqual(serious.map((v) => `${v.id}: ${v.nodes[0]?.target}`), []);
  await page.close();
});

test('paused after a few steps: a head\'s layer shows the gradient of the model\'s loss under each stage, as Node and the native CLI compute it', async () => {
  const page = await openLesson('lesson=induction&lang=en');
  const root = page.locator('attention-trainer').locator('attention-induction');
  await root.locator('button.step').click();
  await page.waitForFunction(() => document.querySelector('attention-trainer').shadowRoot.querySelector('attention-induction').done > 0);
  await root.locator('.tile[data-layer="2"][data-head="1"]').click();
  await page.waitForFunction(() => document.querySelector('attention-trainer').shadowRoot.querySelector('attention-induction').stepperReady);
  const shown = await lesson(page, async (el) => {
    await el.stepperReady;
    const stepper = el.shadowRoot.querySelector('attention-stepper');
    await stepper.settled();
    const g = stepper.gradients;
    const box = stepper.shadowRoot.querySelector('section.gradient');
    return {
      done: el.done, probe: el.probe, modelLoss: g.modelLoss, spec: g.spec,
      grads: g.result.stage_grads.map((s) => ({ id: s.id, data: Array.from(s.data) })),
      hidden: box.hidden, title: box.querySelector('.gradient-title')?.textContent, explain: box.querySelector('.explain')?.textContent,
      firstCell: box.querySelector('td.cell')?.textContent,
    };
  });
  assert.equal(shown.hidden, false, 'the weights stage shows its gradient');
  assert.equal(shown.title, 'Gradient ∂L/∂α: how the loss moves when each value moves');
  assert.equal(shown.spec.loss, 'upstream');
  // the same model in Node (training is bit for bit the page's), its layer 2 through the npm module, and saved
  // for the native CLI: attn lm layer-grad, then attn grad
  const a = await createAttention();
  const corpus = LESSON_FILES.map((f) => readFileSync(path.join('/usr/share/games/fortunes', f), 'utf8').replace(/\n?$/, '\n')).join('%\n');
  const model = await a.freshModel(corpus, { ...LESSON.shape, seed: 1 });
  const run = model.trainer(model.trainingText, { ...LESSON.training, seed: 1 });
  run.step(shown.done);
  const { loss, spec } = model.layerGrad(shown.probe, 1);
  assert.equal(shown.modelLoss, loss);
  assert.match(shown.explain, new RegExp(`^The backward pass of the model's next-character loss on this text \\(${cell(loss)} nats a character\\)`));
  const node = a.grad(spec);
  const file = path.join(artifacts, 'induction-lesson.safetensors');
  writeFileSync(file, model.save());
  const native = JSON.parse(execFileSync(attnCli, ['lm', 'layer-grad', '--model', file, '--text', shown.probe, '--layer', '2'], { encoding: 'utf8', maxBuffer: 1 << 28 }));
  const nativeGrad = JSON.parse(execFileSync(attnCli, ['grad', '-'], { input: JSON.stringify(native.spec), encoding: 'utf8', maxBuffer: 1 << 28 }));
  assert.ok(Math.abs(native.loss - loss) <= 1e-5, `native loss ${native.loss} vs ${loss}`);
  assert.deepEqual(shown.grads.map((s) => s.id), node.stage_grads.map((s) => s.id));
  let worst = 0;
  shown.grads.forEach((s, k) => s.data.forEach((v, i) => {
    assert.equal(v, node.stage_grads[k].data[i], `${s.id}[${i}]: the page's and Node's wasm`);
    const n = nativeGrad.stage_grads[k].data[i];
    worst = Math.max(worst, Math.abs(v - n) / Math.max(1, Math.abs(n)));
  }));
  assert.ok(worst <= 1e-5, `the page's stage gradients against the native CLI's: worst ${worst}`);
  const alpha = node.stage_grads.find((s) => s.id === 'weights').data;
  assert.equal(shown.firstCell, cell(alpha[0]));
  // a gradient cell's chain rule, written by the core, with the numbers on screen
  const gradCell = root.locator('attention-stepper').locator('section.gradient td.cell[data-i="3"][data-j="2"]');
  await gradCell.hover();
  const caption = root.locator('attention-stepper').locator('section.gradient .caption');
  await page.waitForFunction(() => /∂L\/∂α/.test(document.querySelector('attention-trainer').shadowRoot.querySelector('attention-induction')
    .shadowRoot.querySelector('attention-stepper').shadowRoot.querySelector('section.gradient .caption').textContent));
  assert.equal(await caption.textContent(), a.explainGrad(spec, 'weights', { head: 0, i: 3, j: 2 }));
  await page.screenshot({ path: path.join(artifacts, 'induction-gradients.png'), fullPage: true });
  run.dispose();
  model.dispose();
  await page.close();
});

test('中文: the lesson speaks Chinese, its charts and patterns drawn; a phone keeps Play on screen', async () => {
  const page = await openLesson('lesson=induction&lang=zh');
  const root = page.locator('attention-trainer').locator('attention-induction');
  assert.equal(await root.locator('h2').textContent(), '归纳头的诞生');
  assert.match(await root.locator('button.play').textContent(), /播放/);
  await page.screenshot({ path: path.join(artifacts, 'induction-zh.png'), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  const m = await page.evaluate(() => {
    const el = document.querySelector('attention-trainer').shadowRoot.querySelector('attention-induction');
    const play = el.shadowRoot.querySelector('button.play').getBoundingClientRect();
    return { width: document.documentElement.scrollWidth, play: play.toJSON() };
  });
  assert.ok(m.width <= 390, `the page scrolls sideways: ${m.width}`);
  await page.screenshot({ path: path.join(artifacts, 'induction-phone-zh.png') });
  await page.close();
});

test('Reset while a training step is on its way: the old run\'s answer is dropped, and the new run starts at step 0', async () => {
  const page = await openLesson('lesson=induction&lang=en');
  const got = await lesson(page, async (el) => {
    // each ask for training steps, as it goes to the worker
    const asks = [];
    const call = el.client.call.bind(el.client);
    el.client.call = (op, ...args) => {
      const answer = call(op, ...args);
      if (op === 'lessonTrain') asks.push(answer);
      return answer;
    };
    el.play();
    while (el.done < 50) await new Promise((resolve) => setTimeout(resolve, 10));
    // the moment the next ask is posted, Reset: its answer (the old model's steps) is still on its way
    const before = asks.length;
    while (asks.length === before) await new Promise((resolve) => setTimeout(resolve, 0));
    const stale = asks.at(-1);
    el.shadowRoot.querySelector('button.reset').click();
    const staleDone = (await stale).done;
    await el.ready;
    await new Promise((resolve) => setTimeout(resolve, 300)); // anything else still on its way
    return { staleDone, done: el.done, losses: el.losses.length, steps: el.history.map((x) => x.step), status: el.shadowRoot.querySelector('.status').textContent };
  });
  assert.ok(got.staleDone >= 50, `the stale answer was the old run's step ${got.staleDone}`);
  assert.deepEqual({ done: got.done, losses: got.losses, steps: got.steps }, { done: 0, losses: 0, steps: [0] }, 'the new run holds none of the old one\'s steps');
  assert.match(got.status, /^step 0 of \d+$/);
  await page.close();
});

test('the lesson\'s footer says how it trains (minibatch AdamW, not full-batch Adam), in 中文 too; it links to model mode', async () => {
  for (const lang of ['en', 'zh']) {
    const page = await openLesson(`lesson=induction&lang=${lang}`);
    const footer = await page.locator('body > footer').textContent();
    assert.match(footer, /AdamW/);
    assert.ok(!/full-batch|全批量/.test(footer), footer);
    if (lang === 'zh') assert.match(footer, /小批量/);
    const href = await page.locator('attention-trainer').locator('attention-induction').locator('a.to-model, .to-model a').getAttribute('href');
    assert.match(href, /^model\.html\?model=en/);
    await page.close();
  }
});

test('no page errors', () => assert.deepEqual(problems, []));
