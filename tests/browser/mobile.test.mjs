// The stepper on a phone (390 × 844, touch): no sideways scrolling, the controls on screen without
// scrolling past the matrices, thumb-sized targets, "tap" wording, the stage's title and its one line
// above the picture; and in a blog post the element keeps about its final height while the core loads,
// so the page does not jump.
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
    const page = await openOnPhone(`playground.html?example=${example}&stage=${stage}&lang=en`);
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
        // the stage's title and its one line, above the picture
        title: rect('.stage-heads .current .stage-title'), gist: rect('.stage-heads .current .gist'), scene: rect('.scene'),
        gistText: root.querySelector('.stage-heads .current .gist').textContent,
        explain: root.querySelector('.stage-words .current .explain').textContent,
        words: root.querySelector('.stage-words').open,
      };
    });
    await page.screenshot({ path: path.join(artifacts, `phone-${example}-${stage}.png`) });
    assert.ok(m.pageWidth <= 390, `the page scrolls sideways: ${m.pageWidth} px wide`);
    for (const b of [m.play, m.next]) assert.ok(b.top >= 0 && b.bottom <= 844, `a control is off screen: ${JSON.stringify(b)}`);
    assert.ok(m.smallest >= 44, `a touch target is ${m.smallest} px`);
    // translation opens its weights as lines (a sentence example): there one taps a word
    assert.equal(m.caption, stage === 'weights' ? 'Tap a word to keep only its lines and read their weights.' : 'Tap a cell to see its arithmetic.');
    assert.ok(m.gist.height > 0 && m.title.bottom <= m.gist.top + 1 && m.gist.bottom <= m.scene.top, `the gist sits under the title, above the picture: ${JSON.stringify([m.title, m.gist, m.scene])}`);
    assert.ok(m.gist.bottom <= 844, 'the gist is on the first screen');
    assert.ok(m.explain.startsWith(m.gistText), `the gist is the explanation's first sentence: "${m.gistText}"`);
    assert.equal(m.words, false, 'the whole explanation waits behind its line');
    await page.close();
  });
}

test('phone: the gist stays put from stage to stage (its block as tall as the tallest), and says this example\'s case', async () => {
  const page = await openOnPhone('playground.html?example=numpy-3x4&stage=x&lang=zh');
  const at = () => page.evaluate(() => {
    const root = document.querySelector('attention-stepper').shadowRoot;
    return { gist: root.querySelector('.stage-heads .current .gist').textContent, next: root.querySelector('button.next').getBoundingClientRect().top, scene: root.querySelector('.scene').getBoundingClientRect().top };
  });
  const first = await at();
  await page.locator('attention-stepper').locator('button.next').tap();
  await page.evaluate(() => document.querySelector('attention-stepper').settled());
  const q = await at();
  assert.equal(q.gist, '这里 Q = X：本例没有 W_q，而且只有一个头，不做切分。');
  assert.deepEqual([q.next, q.scene], [first.next, first.scene], 'nothing moved');
  await page.screenshot({ path: path.join(artifacts, 'phone-gist-numpy-q-zh.png') });
  await page.close();
});

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
  // paused after training: each stage's gradient says tap, not hover
  const gradient = await page.evaluate(() => [...document.querySelector('attention-trainer').shadowRoot.querySelectorAll('attention-stepper')]
    .flatMap((s) => [...s.shadowRoot.querySelectorAll('.gradient:not([hidden]) .explain, .gradient:not([hidden]) .caption')].map((p) => p.textContent)));
  assert.ok(gradient.length, 'a gradient is shown');
  for (const text of gradient) assert.ok(/\bTap\b/.test(text) && !/Hover/.test(text), text);
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth) <= 390, 'still no sideways scrolling after training');
  await page.close();
});

test('blog post: the element keeps about its final height while the core loads (no jump of half a screen)', async () => {
  const page = await session.browser.newPage();
  await page.goto(`${session.server.url}docs.html`);
  const heights = await page.evaluate(async () => {
    await customElements.whenDefined('attention-stepper'); // the page's modules run, the core still loading
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
