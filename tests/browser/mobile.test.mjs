// The stepper on a phone (390 × 844, touch): no sideways scrolling, the controls on screen without
// scrolling past the matrices, thumb-sized targets, "tap" wording; and in a blog post the element
// keeps about its final height while the core loads, so the page does not jump.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, test } from 'node:test';

import { launchChromium } from '../node/helpers.mjs';
import { artifacts, browserSession, captionsSettled } from './session.mjs';

const session = browserSession();
let phone;

before(async () => {
  phone = await launchChromium({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
});
after(async () => phone?.close());

async function openOnPhone(url) {
  const page = await phone.newPage();
  await page.goto(session.server.url + url);
  await page.waitForFunction(() => document.querySelector('attention-stepper')?.shadowRoot?.querySelector('.scene'));
  return page;
}

for (const [example, stage] of [['positional-encoding', 'pe'], ['translation', 'weights'], ['multi-head', 'q'], ['coordinate-attention', 'conv1'], ['online-softmax', 'online_acc']]) {
  test(`phone: ${example} at ${stage} fits the width, keeps its controls on screen, and says tap`, async () => {
    const page = await openOnPhone(`index.html?example=${example}&stage=${stage}&lang=en`);
    await captionsSettled(page);
    const m = await page.evaluate(() => {
      const root = document.querySelector('attention-stepper').shadowRoot;
      const rect = (sel) => root.querySelector(sel).getBoundingClientRect();
      const targets = [...root.querySelectorAll('.bar.controls button, .stages button, .bar.top button, .lines button.token')]
        .filter((b) => b.getClientRects().length).map((b) => b.getBoundingClientRect()); // drawn ones (not a hidden "reset")
      return {
        pageWidth: document.documentElement.scrollWidth,
        play: rect('button.play'), next: rect('button.next'),
        smallest: Math.min(...targets.map((r) => Math.min(r.height, r.width))),
        caption: root.querySelector('.caption').textContent,
      };
    });
    await page.screenshot({ path: path.join(artifacts, `phone-${example}-${stage}.png`) });
    assert.ok(m.pageWidth <= 390, `the page scrolls sideways: ${m.pageWidth} px wide`);
    for (const b of [m.play, m.next]) assert.ok(b.top >= 0 && b.bottom <= 844, `a control is off screen: ${JSON.stringify(b)}`);
    assert.ok(m.smallest >= 44, `a touch target is ${m.smallest} px`);
    // translation opens its weights as lines (a sentence example): there one taps a word
    assert.equal(m.caption, stage === 'weights' ? 'Tap a word to keep only its lines and read their weights.' : 'Tap a cell to see its arithmetic.');
    await page.close();
  });
}

test('phone: the train mode stacks its two runs, fits the width, keeps Play on screen with thumb-sized controls, and trains', async () => {
  const page = await phone.newPage();
  await page.goto(`${session.server.url}train.html?lesson=positions&lang=en`);
  await page.waitForFunction(() => { const t = document.querySelector('attention-trainer'); return t?.runs?.length && t.runs.every((r) => r.stepper?.shadowRoot?.querySelector('.scene')); });
  const m = await page.evaluate(() => {
    const root = document.querySelector('attention-trainer').shadowRoot;
    const targets = [...root.querySelectorAll('.bar button, .bar select, input.lr')].map((b) => b.getBoundingClientRect());
    return {
      pageWidth: document.documentElement.scrollWidth,
      play: root.querySelector('button.play').getBoundingClientRect().toJSON(),
      runs: [...root.querySelectorAll('section.run')].map((r) => r.getBoundingClientRect().toJSON()),
      smallest: Math.min(...targets.map((r) => r.height)),
    };
  });
  assert.ok(m.pageWidth <= 390, `the page scrolls sideways: ${m.pageWidth} px wide`);
  assert.ok(m.play.top >= 0 && m.play.bottom <= 844, `Play is off screen: ${JSON.stringify(m.play)}`);
  assert.ok(m.runs[1].top >= m.runs[0].bottom - 1, 'the runs stack');
  assert.ok(m.smallest >= 44, `a touch target is ${m.smallest} px tall`);
  await page.locator('attention-trainer').locator('button.play').tap();
  await page.waitForFunction(() => { const t = document.querySelector('attention-trainer'); return !t.playing && t.done >= t.target; }, null, { timeout: 60000 });
  await page.screenshot({ path: path.join(artifacts, 'phone-train-positions.png'), fullPage: true });
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth) <= 390, 'still no sideways scrolling after training');
  await page.close();
});

test('blog post: the element keeps about its final height while the core loads (no jump of half a screen)', async () => {
  const page = await session.browser.newPage();
  await page.goto(`${session.server.url}docs.html`);
  const heights = await page.evaluate(async () => {
    const el = document.createElement('attention-stepper');
    el.setAttribute('example', 'numpy-3x4');
    el.setAttribute('stage', 'weights');
    document.body.prepend(el);
    const before = el.getBoundingClientRect().height;
    while (!el.shadowRoot.querySelector('figure.role-result')) await new Promise((r) => setTimeout(r, 20));
    return { before, after: el.getBoundingClientRect().height };
  });
  console.log(`placeholder ${heights.before.toFixed(0)} px, rendered ${heights.after.toFixed(0)} px`);
  assert.ok(Math.abs(heights.after - heights.before) < 0.25 * heights.after, JSON.stringify(heights));
  await page.close();
});
