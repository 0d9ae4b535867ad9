// The stepper as a learner watches it: edits stay where the learner is, Play plays the stage they
// chose, each stage takes 1.5–8 s and then holds 1 s, one cell at a time by button or key, and
// example texts quote the current trace's numbers. Time is Playwright's fake clock, so the pacing
// is measured exactly, not by a timed test.
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';

import { createAttention } from '../../web/src/node.js';
import { cell, exact } from '../../web/src/stepper/format.js';
import { weightColor } from '../../web/src/stepper/colors.js';
import { shownSize } from '../../web/src/stepper/matrix_view.js';
import { launchChromium } from '../node/helpers.mjs';
import { artifacts, browserSession, editCell, shown } from './session.mjs';

const session = browserSession();
const { open, problems } = session;
const a = await createAttention();

const state = (page) => page.evaluate(() => {
  const el = document.querySelector('attention-stepper');
  const s = el.store.get();
  const root = el.shadowRoot;
  return {
    stage: el.stageId, progress: s.progress, playing: s.playing,
    hidden: root.querySelectorAll('figure.role-result td.cell.hidden').length,
    cells: root.querySelectorAll('figure.role-result td.cell').length,
    note: root.querySelector('.current .note')?.textContent ?? null,
    summary: root.querySelector('.summary')?.textContent ?? null,
  };
});

/** A page whose timers and animation frames run only when the test says. */
async function openClocked(url) {
  // a browser of its own: a clock is its context's, and a paused one would stop every other page's timers
  const context = await launchChromium({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  page.once('close', () => context.close().catch(() => {}));
  await page.clock.install();
  page.on('pageerror', (e) => problems.push(`${url}: ${e.message}`));
  await page.goto(session.server.url + url);
  await page.clock.runFor(100);
  await page.waitForFunction(() => document.querySelector('attention-stepper')?.shadowRoot?.querySelector('figure.role-result'));
  // installed, the clock still flows with the wall clock: paused, only runFor moves it, however slow the machine
  // (a second ahead, as pauseAt cannot go back: the page is idle, nothing is playing yet)
  await page.clock.pauseAt(await page.evaluate(() => Date.now() + 1000));
  return page;
}

test('an edit re-renders the current stage in place, finished: no stage change, no playback', async () => {
  const page = await open('playground.html?example=numpy-3x4&stage=weights');
  await editCell(page, 'x', 0, 1, 2);
  await page.waitForFunction(() => document.querySelector('attention-stepper').trace.spec.x[0][1] === 2);
  await page.waitForTimeout(1200);
  const after = await state(page);
  assert.equal(after.stage, 'weights');
  assert.equal(after.playing, false);
  assert.equal(after.progress, 1);
  assert.equal(after.hidden, 0, 'the edited stage is shown whole');
  // the drawn cells carry the new trace's numbers (refreshed in place)
  const spec = await page.evaluate(() => document.querySelector('attention-stepper').trace.spec);
  const w = a.trace(spec).stages.find((st) => st.id === 'weights');
  for (const c of (await shown(page)).cells) assert.equal(c.text, cell(w.data[c.i * w.shape[2] + c.j]));
  await page.close();
});

test('captions follow the numbers: after an edit the notes quote the new trace', async () => {
  const page = await open('playground.html?example=numpy-3x4&stage=weights&lang=en');
  const before = await state(page);
  assert.match(before.note, /normalised = 0\.5065, 0\.1863, 0\.3072/);
  assert.match(before.summary, /The first row of weights is 0\.5065 0\.1863 0\.3072/);
  await editCell(page, 'x', 0, 1, 3);
  await page.waitForFunction(() => document.querySelector('attention-stepper').trace.spec.x[0][1] === 3);
  const trace = await page.evaluate(() => document.querySelector('attention-stepper').trace.spec);
  const w = a.trace(trace).stages.find((s) => s.id === 'weights').data;
  const row = [0, 1, 2].map((j) => cell(w[j]));
  const after = await state(page);
  assert.ok(after.note.includes(`normalised = ${row.join(', ')}`), after.note);
  assert.ok(after.summary.includes(`The first row of weights is ${row.join(' ')}`), after.summary);
  assert.ok(!after.note.includes('normalised = 0.5065'), 'no stale figure');
  await page.close();
});

test('Play animates the stage the learner chose, from its first cell', async () => {
  const page = await openClocked('playground.html?example=numpy-3x4&stage=x');
  await page.locator('attention-stepper').locator('.stages button[data-stage="scores"]').click();
  await page.locator('attention-stepper').locator('button.play').click();
  await page.clock.runFor(50);
  const s = await state(page);
  assert.equal(s.stage, 'scores', 'Play stays on the chosen stage');
  assert.equal(s.playing, true);
  assert.equal(s.hidden, s.cells - 1, 'from its first cell');
  await page.close();
});

test('pacing: a stage animates 1.5–8 s whatever its size, then holds 1 s before the next', async () => {
  // numpy-3x4's scores: 9 cells, a quarter second each = 2.25 s
  const small = await openClocked('playground.html?example=numpy-3x4&stage=scores');
  await small.evaluate(() => document.querySelector('attention-stepper').play());
  await small.clock.runFor(2000);
  assert.ok((await state(small)).progress < 1, 'still animating after 2 s');
  await small.clock.runFor(300); // 2.3 s: the animation ended at 2.25 s
  let s = await state(small);
  assert.equal(s.progress, 1);
  assert.equal(s.stage, 'scores', 'finished, and holding with its caption');
  await small.clock.runFor(800); // held about 0.85 s
  assert.equal((await state(small)).stage, 'scores', 'still holding before 1 s');
  await small.clock.runFor(300); // held about 1.15 s
  s = await state(small);
  assert.equal(s.stage, 'scaled', 'on to the next stage after the hold');
  await small.close();
  // a 40 × 40 stage: row by row, done within 8 s
  const x = Array.from({ length: 40 }, (_, i) => [Math.sin(i), Math.cos(i)]);
  const big = await openClocked(`playground.html?stage=weights#spec=${encodeURIComponent(JSON.stringify({ x }))}`);
  await big.evaluate(() => document.querySelector('attention-stepper').play());
  await big.clock.runFor(100);
  const rowsHidden = (await state(big)).hidden;
  assert.equal(rowsHidden % shownSize(40, 40).cols, 0, 'whole rows at a time');
  await big.clock.runFor(8000);
  assert.equal((await state(big)).progress, 1, 'done within 8 s');
  await big.close();
});

test('previous and next cell, by button and by the , and . keys', async () => {
  const page = await open('playground.html?example=numpy-3x4&stage=scores&lang=en');
  const root = page.locator('attention-stepper');
  await root.locator('button.next-cell').click(); // the stage was whole: on to the next stage's first cell
  let s = await state(page);
  assert.equal(s.stage, 'scaled');
  assert.equal(s.hidden, 8);
  await page.keyboard.press('.');
  assert.equal((await state(page)).hidden, 7);
  assert.equal((await shown(page)).caption, 'scaled[token_1, token_2] = e[token_1, token_2] ÷ √4 = 0 ÷ 2 = 0', 'the caption explains the newest cell');
  await page.keyboard.press(',');
  await page.keyboard.press(',');
  s = await state(page);
  assert.equal(s.stage, 'scores', 'back across into the previous stage, whole');
  assert.equal(s.hidden, 0);
  await root.locator('button.prev-cell').click();
  assert.equal((await state(page)).hidden, 1);
  await page.close();
});

test('caption arithmetic: commas in a max, the cell named, long sums and every digit on request, the hovered cell outlined', async () => {
  const page = await open('playground.html?example=numpy-3x4&stage=row_max&lang=en');
  const root = page.locator('attention-stepper');
  await root.locator('figure.role-result td.cell[data-i="0"][data-j="0"]').hover();
  assert.equal((await shown(page)).caption, 'm_token_1 = max(1, 0, 0.5000) = 1');
  assert.equal(await page.evaluate(() => document.querySelector('attention-stepper').shadowRoot.querySelectorAll('td.cell.hover').length), 1);
  await page.close();
  // 16 dimensions: the q·k sum has 16 terms, 8 shown until the reader asks for all of them
  const x = Array.from({ length: 3 }, (_, i) => Array.from({ length: 16 }, (_, c) => Math.round(Math.sin(i + c) * 1000) / 1000));
  const wide = await open(`playground.html?stage=scores&lang=en#spec=${encodeURIComponent(JSON.stringify({ x }))}`);
  const cellAt = wide.locator('attention-stepper').locator('figure.role-result td.cell[data-i="0"][data-j="1"]');
  await cellAt.hover();
  const short = (await shown(wide)).caption;
  assert.equal(short.split('×').length - 1, 8, short);
  assert.match(short, / \+ … = /);
  await wide.locator('attention-stepper').locator('button.caption-detail').click();
  await cellAt.hover();
  const full = (await shown(wide)).caption;
  assert.equal(full.split('×').length - 1, 16, full);
  const t = a.trace({ x }).stages.find((st) => st.id === 'scores');
  assert.ok(full.endsWith(`= ${exact(t.data[1])}`), full); // every digit the float needs
  await wide.close();
});

test('formula map: always in view, the current term marked, a click jumps there, absent terms greyed', async () => {
  const page = await open('playground.html?example=numpy-3x4&stage=scores&lang=zh');
  const map = () => page.evaluate(() => {
    const root = document.querySelector('attention-stepper').shadowRoot;
    const strip = root.querySelector('[part="formula"]');
    return {
      label: strip.getAttribute('aria-label'),
      current: [...strip.querySelectorAll('[aria-current="step"]')].map((b) => b.dataset.stage),
      disabled: [...strip.querySelectorAll('[aria-disabled="true"]')].map((b) => b.dataset.stage),
      text: strip.textContent,
    };
  });
  let m = await map();
  assert.equal(m.label, '这一步在 softmax(QKᵀ/√d_k + M)·V 中的位置');
  assert.deepEqual(m.current, ['scores']);
  // numpy-3x4 has no PE, no memory, no mask, one head and no W_o
  assert.deepEqual(m.disabled, ['pe', 'memory', 'masked', 'concat', 'output']);
  assert.match(m.text, /QKᵀ→÷ √d_k→\+ mask→softmax\(maxexpΣ÷\)→· V→concat→· W_o/);
  await page.locator('attention-stepper').locator('[part="formula"] button[data-stage="row_sum"]').click();
  m = await map();
  assert.deepEqual(m.current, ['row_sum']);
  assert.equal(await page.evaluate(() => document.querySelector('attention-stepper').stageId), 'row_sum');
  await page.locator('attention-stepper').locator('[part="formula"] button[data-stage="masked"]').click({ force: true }); // greyed: nothing happens
  assert.equal(await page.evaluate(() => document.querySelector('attention-stepper').stageId), 'row_sum');
  await page.screenshot({ path: path.join(artifacts, 'formula-map.png') });
  const masked = await open('playground.html?example=multi-head&stage=weights&lang=en');
  const disabled = await masked.evaluate(() => [...document.querySelector('attention-stepper').shadowRoot.querySelectorAll('[part="formula"] [aria-disabled="true"]')].map((b) => b.dataset.stage));
  assert.ok(!disabled.includes('concat') && !disabled.includes('output'), `two heads and W_o: ${disabled}`);
  await masked.close();
  await page.close();
});

test('every head at once: small multiples on one scale, each with data-head, a click opens that head', async () => {
  const page = await open('playground.html?example=multi-head&stage=weights&lang=en&view=matrix');
  const grid = () => page.evaluate(() => {
    const root = document.querySelector('attention-stepper').shadowRoot;
    return {
      heads: [...root.querySelectorAll('.heads-grid [data-head]')].map((b) => [b.dataset.head, b.getAttribute('aria-pressed')]),
      legends: root.querySelectorAll('.heads-grid .legend').length,
      // each head's picture: its cells drawn, and the colour of its first cell
      pictures: [...root.querySelectorAll('.heads-grid canvas')].map((c) => ({
        cells: Number(c.dataset.rows) * Number(c.dataset.cols), first: [...c.getContext('2d').getImageData(0, 0, 1, 1).data.slice(0, 3)],
      })),
    };
  });
  const t = a.example('multi-head');
  const [heads, rows, cols] = t.stages.find((st) => st.id === 'weights').shape;
  let g = await grid();
  assert.deepEqual(g.heads, [['1', 'true'], ['2', 'false']]);
  assert.equal(g.legends, 1, 'one legend for every head');
  assert.equal(g.pictures.length, heads);
  assert.ok(g.pictures.every((p) => p.cells === rows * cols));
  // the first cell of each head on the one shared scale, the weights' own 0 … 1
  const wt = t.stages.find((st) => st.id === 'weights').data;
  g.pictures.forEach((p, hh) => {
    const want = weightColor(wt[hh * rows * cols]);
    assert.ok(p.first.every((v, k) => Math.abs(v - want[k]) <= 1), `head ${hh + 1}'s first cell: ${p.first} for ${want}`);
  });
  await page.screenshot({ path: path.join(artifacts, 'heads-grid.png') });
  await page.locator('attention-stepper').locator('.heads-grid [data-head="2"]').click();
  g = await grid();
  assert.deepEqual(g.heads, [['1', 'false'], ['2', 'true']]);
  const w = t.stages.find((st) => st.id === 'weights');
  for (const c of (await shown(page)).cells) assert.equal(c.value, w.data[(rows + c.i) * cols + c.j], 'the detailed view shows head 2');
  await page.close();
});

test('where this sits: a Transformer block, attention computed here and linked, the rest marked as context', async () => {
  const page = await open('playground.html?example=translation&stage=weights&lang=en');
  const root = page.locator('attention-stepper');
  await root.locator('.block-diagram summary').click();
  const blocks = await page.evaluate(() => [...document.querySelector('attention-stepper').shadowRoot.querySelectorAll('.blocks .block')]
    .map((b) => ({ here: b.classList.contains('here'), text: b.textContent })));
  assert.equal(blocks.length, 5);
  assert.deepEqual(blocks.map((b) => b.here), [false, true, false, false, false]);
  assert.ok(blocks.filter((b) => !b.here).every((b) => b.text.includes('not computed here')));
  assert.match(blocks[2].text, /LayerNorm/);
  await page.screenshot({ path: path.join(artifacts, 'block-diagram.png') });
  await root.locator('.blocks .block.here').click();
  assert.equal(await page.evaluate(() => document.querySelector('attention-stepper').stageId), 'q');
  await page.close();
});

test('the words fit the example: numpy-3x4\'s Q is X itself (no W_q, one head), and each variant has the note its numbers tell', async () => {
  const page = await open('playground.html?example=numpy-3x4&stage=q&lang=en');
  const el = () => page.evaluate(() => {
    const root = document.querySelector('attention-stepper').shadowRoot;
    return {
      explain: root.querySelector('.stage-words .stage-text.current .explain')?.textContent,
      notes: [...root.querySelectorAll('.stage-words .stage-text.current .note')].map((n) => n.textContent),
    };
  });
  let got = await el();
  assert.match(got.explain, /^Q = X·W_q/, 'the registry\'s general words stay');
  assert.deepEqual(got.notes, ['Here Q = X: this example has no W_q, and with one head nothing is split.']);
  await page.evaluate(() => document.querySelector('attention-stepper').goTo('v'));
  assert.deepEqual((await el()).notes, ['Here V = X: this example has no W_v.']);
  await page.locator('attention-stepper').locator('button.lang-zh').click();
  await page.evaluate(() => document.querySelector('attention-stepper').goTo('q'));
  assert.deepEqual((await el()).notes, ['这里 Q = X：本例没有 W_q，而且只有一个头，不做切分。']);
  // a projection that is there, one head: Q keeps its columns; translation's K comes from the source
  await page.evaluate(() => document.querySelector('attention-stepper').chooseExample('basic-attention'));
  await page.evaluate(() => document.querySelector('attention-stepper').goTo('q'));
  assert.deepEqual((await el()).notes.slice(-1), ['这里只有一个头：Q 不切分，保留全部列。']);
  // each variant its own note: without PE the weights are uniform, and the padding row of the masks is too
  const weightsNote = async (example, variant) => {
    await page.evaluate(([e, v]) => document.querySelector('attention-stepper').chooseExample(e, v), [example, variant]);
    await page.evaluate(() => document.querySelector('attention-stepper').goTo('weights'));
    return (await el()).notes[0];
  };
  await page.locator('attention-stepper').locator('button.lang-en').click();
  assert.match(await weightsNote('positional-encoding', 'sinusoidal'), /^With PE, each position attends most to itself/);
  const none = await weightsNote('positional-encoding', 'none');
  assert.doesNotMatch(none, /With PE/);
  assert.match(none, /every weight is 1\/8 = 0\.1250/);
  assert.match(await weightsNote('masking', 'padding'), /softmax spreads it evenly, 0\.2500 each/);
  assert.equal(await weightsNote('masking', 'causal'), 'Every masked cell has weight exactly 0.');
  await page.close();
});

test('the example\'s hand-made dimensions name the columns, in the reader\'s language, while the spec keeps their number', async () => {
  const page = await open('playground.html?example=translation&stage=x&lang=en');
  const doc = a.exampleDocument('translation');
  const columns = () => page.evaluate(() => [...document.querySelector('attention-stepper').shadowRoot.querySelectorAll('figure.role-result th.col')].map((th) => th.textContent));
  assert.deepEqual(await columns(), doc.dimensions.map((d) => d.en));
  await page.locator('attention-stepper').locator('button.lang-zh').click();
  assert.deepEqual(await columns(), doc.dimensions.map((d) => d.zh));
  await page.evaluate(() => document.querySelector('attention-stepper').goTo('context'));
  assert.deepEqual(await columns(), doc.dimensions.map((d) => d.zh), 'the context\'s columns too');
  await page.screenshot({ path: path.join(artifacts, 'dimensions-translation-zh.png') });
  // multi-head: each head's columns are its own slice of the names
  const mh = a.exampleDocument('multi-head').dimensions.map((d) => d.en);
  await page.locator('attention-stepper').locator('button.lang-en').click();
  await page.evaluate(() => document.querySelector('attention-stepper').chooseExample('multi-head'));
  await page.evaluate(() => document.querySelector('attention-stepper').goTo('q'));
  const heads = await page.evaluate(() => [...document.querySelector('attention-stepper').shadowRoot.querySelectorAll('figure.role-split')]
    .map((f) => [...f.querySelectorAll('th.col')].map((th) => th.textContent)));
  assert.deepEqual(heads, [mh.slice(0, 2), mh.slice(2)]);
  // the spec edited to another width: the core's d1, d2
  await page.evaluate(() => document.querySelector('attention-stepper').load({ example: 'translation', stage: 'x', spec: JSON.stringify({ x: [[1, 0], [0, 1]] }) }));
  assert.deepEqual(await columns(), ['d1', 'd2']);
  await page.close();
});

test('past the last stage ▶| and → offer the next worked example, in the reading order; a figure in a post never leads away', async () => {
  const page = await open('playground.html?example=numpy-3x4&stage=context&lang=en');
  const root = page.locator('attention-stepper');
  const offer = () => page.evaluate(() => {
    const b = document.querySelector('attention-stepper').shadowRoot.querySelector('button.next-example');
    return b && !b.hidden && b.getClientRects().length ? b.textContent : null;
  });
  const title = (id, lang) => a.exampleDocument(id).title[lang];
  assert.equal(await offer(), null, 'nothing offered before the reader asks');
  await root.locator('button.next').click();
  assert.equal(await offer(), `Next example: ${title('basic-attention', 'en')}`);
  await page.screenshot({ path: path.join(artifacts, 'next-example-offer.png') });
  await root.locator('button.prev').click();
  assert.equal(await offer(), null, 'stepping back takes the offer away');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  assert.equal(await offer(), `Next example: ${title('basic-attention', 'en')}`, '→ as ▶|');
  await root.locator('button.next-example').click();
  await page.evaluate(() => document.querySelector('attention-stepper').settled());
  assert.deepEqual(await page.evaluate(() => { const el = document.querySelector('attention-stepper'); return [el.store.get().exampleId, el.store.get().stageIndex]; }), ['basic-attention', 0]);
  assert.match(page.url(), /example=basic-attention/);
  // in zh, and the order past the article's first examples: score functions follow BasicAttention
  await root.locator('button.lang-zh').click();
  // the language's redraw settles before the jump to the last stage (CI once clicked ▶| into the redraw)
  await page.waitForFunction(() => document.querySelector('attention-stepper').shadowRoot.querySelector('button.next')?.getAttribute('aria-label') !== 'Next stage');
  await page.evaluate(async () => { const el = document.querySelector('attention-stepper'); await el.settled(); el.show(el.stageIds().length - 1); await el.settled(); });
  await root.locator('button.next').click();
  await page.waitForFunction(() => document.querySelector('attention-stepper').shadowRoot.querySelector('button.next-example:not([hidden])'), null, { timeout: 5000 }).catch(() => {});
  assert.equal(await offer(), `下一个例子：${title('score-functions', 'zh')}`);
  // the last of the order offers nothing
  await page.evaluate(() => document.querySelector('attention-stepper').chooseExample('coordinate-attention'));
  await page.evaluate(() => { const el = document.querySelector('attention-stepper'); el.show(el.stageIds().length - 1); });
  await root.locator('button.next').click();
  assert.equal(await offer(), null);
  await page.close();
  for (const url of ['embed.html?example=numpy-3x4&stage=context&compact', 'embed.html?example=numpy-3x4&stage=context']) {
    const post = await open(url);
    await post.locator('attention-stepper').locator('button.next').click();
    await post.locator('attention-stepper').locator('button.next').click();
    assert.equal(await post.evaluate(() => document.querySelector('attention-stepper').shadowRoot.querySelector('button.next-example:not([hidden])')), null, url);
    assert.equal(await post.evaluate(() => document.querySelector('attention-stepper').store.get().exampleId), 'numpy-3x4');
    await post.close();
  }
});

test('no page errors', () => {
  assert.deepEqual(problems, []);
});
