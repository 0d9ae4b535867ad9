// Seed 002's vision attention in the page as a learner uses it: every stage of the four blocks shows
// the trace's values (equal to the native CLI within 1e-5), hovering a value gives the core's
// arithmetic, the animation lights what the current value reads (the pooling sweep, the 1-D
// convolution's window, the K × K kernel), the claims of the examples read off the page, an edit
// recomputes and a bad one is refused with the core's sentence, links and the iframe route carry it.
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';

import { createAttention } from '../../web/src/node.js';
import { nativeTrace } from '../node/helpers.mjs';
import { artifacts, browserSession, captionsSettled } from './session.mjs';

const session = browserSession();
const { open, problems } = session;
const a = await createAttention();
const BLOCKS = ['se-block', 'eca-block', 'cbam-block', 'coordinate-attention'];

const shownValues = async (page) => (await captionsSettled(page)) && page.evaluate(() => {
  const el = document.querySelector('attention-stepper');
  const root = el.shadowRoot;
  return {
    stage: el.stageId,
    title: root.querySelector('.current .stage-title').textContent,
    result: [...root.querySelectorAll('figure.tensor.role-result .vcell')].map((c) => ({ index: +c.dataset.index, value: +c.dataset.value, hidden: c.classList.contains('hidden') })),
    lit: [...root.querySelectorAll('figure.tensor.role-operand .vcell.hl')].map((c) => [c.dataset.stage, +c.dataset.index]),
    caption: root.querySelector('.caption').textContent,
  };
});

test('every stage of the four blocks shows the trace\'s values, and the native CLI agrees within 1e-5', async () => {
  let compared = 0;
  for (const id of BLOCKS) {
    const t = a.example(id);
    const native = nativeTrace(t.spec);
    const page = await open(`playground.html?example=${id}&lang=en`);
    for (const [k, stage] of t.stages.entries()) {
      const got = await shownValues(page);
      assert.equal(got.stage, stage.id, `${id}: stage ${k}`);
      assert.equal(got.title, stage.title);
      assert.equal(got.result.length, stage.data.length, `${id} ${stage.id}: every value drawn`);
      for (const v of got.result) {
        assert.equal(v.value, stage.data[v.index], `${id} ${stage.id}[${v.index}]`);
        assert.ok(Math.abs(v.value - native.stages[k].data[v.index]) <= 1e-5, `${id} ${stage.id}[${v.index}] native`);
        assert.equal(v.hidden, false);
        compared++;
      }
      await page.keyboard.press('ArrowRight');
    }
    await page.close();
  }
  console.log(`vision page: ${compared} values compared with the trace and the native CLI`);
});

test('the examples\' claims read off the page: SE and ECA gates raise the cat\'s channels, CBAM\'s spatial gate is on the cat, CA\'s gates on its rows', async () => {
  const values = async (url) => {
    const page = await open(url);
    const got = await shownValues(page);
    await page.screenshot({ path: path.join(artifacts, `vision-${new URL(url, 'http://x/').searchParams.get('example')}-${got.stage}.png`), fullPage: true });
    await page.close();
    return got.result.map((v) => v.value);
  };
  for (const id of ['se-block', 'eca-block']) {
    const gate = await values(`playground.html?example=${id}&stage=gate&lang=en`);
    assert.ok(Math.min(...gate.slice(0, 3)) > Math.max(...gate.slice(3)), `${id}: ${gate}`);
  }
  const cat = a.example('cbam-block').spec.feature[0].flat();
  const spatial = await values('playground.html?example=cbam-block&stage=spatial_gate&lang=zh');
  assert.equal(cat[spatial.indexOf(Math.max(...spatial))], 1, 'the largest spatial weight is on a cat pixel');
  const gh = await values('playground.html?example=coordinate-attention&stage=gate_h&lang=en');
  const rows = gh.slice(0, 8); // channel 1, rows 1-8: the cat spans rows 3-7
  assert.ok([2, 3, 4, 5, 6].includes(rows.indexOf(Math.max(...rows))));
  assert.ok(rows[0] < 0.5 && rows[1] < 0.5 && rows[7] < 0.5);
  await values('playground.html?example=eca-block&stage=conv1d&lang=zh');
});

test('CBAM\'s spatial gate is a map: its H × W values in H rows and W columns, and the gate over the picture one square without gaps', async () => {
  const page = await open('playground.html?example=cbam-block&stage=spatial_gate&lang=en');
  const [H, W] = a.example('cbam-block').stages.find((s) => s.id === 'spatial_gate').shape;
  const got = await page.evaluate(() => {
    const root = document.querySelector('attention-stepper').shadowRoot;
    const boxes = (sel) => [...root.querySelectorAll(sel)].map((c) => c.getBoundingClientRect()).map((r) => ({ x: Math.round(r.x), y: Math.round(r.y), w: r.width, h: r.height }));
    return { gate: boxes('figure.tensor.role-result .vcell'), over: boxes('figure.overlay .ocell') };
  });
  await page.locator('attention-stepper').locator('.vision-scene').screenshot({ path: path.join(artifacts, 'vision-cbam-spatial-gate-map.png') });
  for (const cells of [got.gate, got.over]) {
    assert.equal(cells.length, H * W);
    assert.equal(new Set(cells.map((c) => c.y)).size, H, 'H rows');
    assert.equal(new Set(cells.map((c) => c.x)).size, W, 'W columns');
  }
  // the overlay's cells touch: W of them span W cell widths, not a strip of columns with gaps between
  const xs = got.over.map((c) => c.x), ys = got.over.map((c) => c.y);
  const width = Math.max(...xs) - Math.min(...xs) + got.over[0].w, height = Math.max(...ys) - Math.min(...ys) + got.over[0].h;
  assert.ok(Math.abs(width - W * got.over[0].w) <= 1, `the overlay is ${width} px wide for ${W} cells of ${got.over[0].w} px`);
  assert.ok(Math.abs(width / height - W / H) < 0.1, `the overlay is ${width} × ${height} px`);
  await page.close();
});

test('in zh the channels are named in Chinese (the example\'s channels_zh): bars, maps and the stage\'s data', async () => {
  const page = await open('playground.html?example=cbam-block&stage=channel_gate&lang=zh');
  const doc = a.exampleDocument('cbam-block');
  const labels = () => page.evaluate(() => [...document.querySelector('attention-stepper').shadowRoot.querySelectorAll('figure.role-result .bar-label')].map((l) => l.textContent));
  assert.deepEqual(await labels(), doc.channels_zh);
  await page.evaluate(() => document.querySelector('attention-stepper').goTo('channel_refined'));
  const maps = await page.evaluate(() => [...document.querySelector('attention-stepper').shadowRoot.querySelectorAll('figure.role-result .map-label')].map((l) => l.textContent));
  assert.deepEqual(maps, doc.channels_zh);
  assert.deepEqual(await page.evaluate(() => document.querySelector('attention-stepper').stageData().channels), doc.channels_zh, 'the export names them so too');
  await page.evaluate(() => document.querySelector('attention-stepper').goTo('channel_gate'));
  // back in English, the example's own names
  await page.locator('attention-stepper').locator('button.lang-en').click();
  await page.evaluate(() => document.querySelector('attention-stepper').settled());
  assert.deepEqual(await labels(), a.example('cbam-block').spec.channels);
  await page.close();
});

test('hover gives the core\'s arithmetic; the animation sweeps: pooling lights a channel, ECA a window of k channels, CBAM a K × K window', async () => {
  const page = await open('playground.html?example=eca-block&stage=conv1d&lang=en');
  const t = a.example('eca-block');
  await page.locator('attention-stepper').locator('figure.role-result .vcell[data-index="2"]').hover();
  let got = await shownValues(page);
  assert.equal(got.caption, a.explain(t, 'conv1d', { index: 2 }));
  assert.deepEqual(got.lit.sort(), [['pool_avg', 1], ['pool_avg', 2], ['pool_avg', 3]]);
  await page.mouse.move(0, 0);
  // halfway through the stage: the first values shown, the current one's window lit
  await page.evaluate(() => document.querySelector('attention-stepper').store.set({ progress: 0.01 }));
  got = await shownValues(page);
  assert.deepEqual(got.result.filter((v) => !v.hidden).map((v) => v.index), [0]);
  assert.deepEqual(got.lit.sort(), [['pool_avg', 0], ['pool_avg', 1]], 'channel 1 reads itself and its right neighbour (zero padding on the left)');
  await page.close();

  const pool = await open('playground.html?example=se-block&stage=pool_avg&lang=en');
  await pool.evaluate(() => document.querySelector('attention-stepper').store.set({ progress: 0.4 }));
  got = await shownValues(pool);
  const current = got.result.filter((v) => !v.hidden).length - 1;
  assert.equal(got.lit.length, 64, 'the channel being pooled: all its 8 × 8 values');
  assert.ok(got.lit.every(([s, k]) => s === 'feature' && Math.floor(k / 64) === current));
  await pool.screenshot({ path: path.join(artifacts, 'vision-pool-sweep.png') });
  await pool.close();

  const conv = await open('playground.html?example=cbam-block&stage=spatial_conv&lang=en');
  await conv.locator('attention-stepper').locator('figure.role-result .vcell[data-index="36"]').hover();
  got = await shownValues(conv);
  assert.equal(got.lit.length, 18, 'a 3 × 3 window on both maps');
  await conv.screenshot({ path: path.join(artifacts, 'vision-cbam-kernel.png') });
  // keyboard: the arrows move between values, the caption follows
  await conv.locator('attention-stepper').locator('figure.role-result .vcell[data-index="0"]').focus();
  await conv.keyboard.press('ArrowRight');
  assert.equal(await conv.evaluate(() => document.querySelector('attention-stepper').shadowRoot.activeElement.dataset.index), '1');
  await conv.close();
});

test('editing: a changed feature map recomputes every stage; an even kernel is refused with the core\'s sentence; the link and the iframe carry the edit', async () => {
  const page = await open('playground.html?example=eca-block&stage=gate&lang=en');
  const root = page.locator('attention-stepper');
  await root.locator('button.edit').click();
  const text = root.locator('textarea.vision-spec');
  const spec = JSON.parse(await text.inputValue());
  spec.feature[3] = spec.feature[3].map((row) => row.map(() => 2)); // grass everywhere, strongly
  await text.fill(JSON.stringify(spec));
  await root.locator('button.apply').click();
  const want = a.trace(spec).stages.find((s) => s.id === 'gate').data;
  let got = await shownValues(page);
  assert.deepEqual(got.result.map((v) => v.value), Array.from(want));
  assert.ok(got.result[3].value > got.result[0].value, 'grass now gets the largest gate');
  await page.waitForFunction(() => location.hash.startsWith('#spec=z.'));
  const link = page.url();
  spec.eca.w = [1, 2];
  await text.fill(JSON.stringify(spec));
  await root.locator('button.apply').click();
  await captionsSettled(page);
  assert.equal(await root.locator('section.editor .error').textContent(), 'eca.w is 2 wide: the kernel size must be odd, so it has a centre.');
  got = await shownValues(page);
  assert.deepEqual(got.result.map((v) => v.value), Array.from(want), 'the picture keeps the last good trace');
  await page.close();
  const again = await open(link);
  assert.deepEqual((await shownValues(again)).result.map((v) => v.value), Array.from(want));
  await again.close();
  const framed = await open('embed.html?example=coordinate-attention&stage=gate_w&lang=zh');
  assert.equal((await shownValues(framed)).title, '列权重');
  await framed.close();
});

test('a vision stage\'s data exports: stageData, CSV (one block of rows per channel) and JSON equal the trace; figures say what they are for', async () => {
  const page = await open('playground.html?example=se-block&stage=output&lang=en');
  const t = a.example('se-block');
  const out = t.stages.find((s) => s.id === 'output');
  const got = await page.evaluate(() => {
    const el = document.querySelector('attention-stepper');
    const d = el.stageData();
    let figure = '';
    try { el.toSVG(); } catch (e) { figure = e.message; }
    return { shape: d.shape, channels: d.channels, data: Array.from(d.data), csv: el.toCSV(), json: JSON.parse(el.toJSON()), figure };
  });
  assert.deepEqual(got.shape, [6, 8, 8]);
  assert.deepEqual(got.channels, t.spec.channels);
  assert.deepEqual(got.data, Array.from(out.data));
  const lines = got.csv.trim().split('\n');
  assert.equal(lines[0], 'channel,,1,2,3,4,5,6,7,8');
  assert.equal(lines.length, 1 + 6 * 8);
  assert.ok(lines[1 + 8 * 1].startsWith('cat outline,1,'));
  assert.deepEqual(got.json.values.flat(2).map(Math.fround), Array.from(out.data));
  assert.match(got.figure, /vision stage exports as CSV or JSON/);
  await page.close();
});

test('no page errors', () => {
  assert.deepEqual(problems, []);
});
