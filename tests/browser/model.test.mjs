// The model mode (site/model.html, <attention-model>) driven as a person would: type a line of a poem into
// zh, read the grid's patterns against `attn lm trace` (≤ 1e-5), click a head, hover a cell and read its
// caption against `attn lm explain`, generate with a seed and compare with `attn lm generate`, switch to 中文
// and en, look at it at 390 px; axe-core finds nothing serious. Its timings are a benchmark
// (node web/bench/model_page.mjs); long tasks while typing are tests/browser/long_tasks.test.mjs's.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

import { cell as formatCell } from '../../web/src/stepper/format.js';
import { attnCli, launchChromium, repo } from '../node/helpers.mjs';
import { artifacts, browserSession } from './session.mjs';

const session = browserSession();
const { problems } = session;
const cli = (...args) => execFileSync(attnCli, ['lm', ...args], { encoding: 'utf8', maxBuffer: 1 << 28 });
const modelFile = (name) => path.join(repo, 'web/models', `${name}.safetensors`);
const poem = '床前明月光，疑是地上霜。';

/** Opens model.html with a query, once the model has traced its text. */
async function openModel(query, viewport = { width: 1280, height: 900 }) {
  const page = await session.browser.newPage(); // a persistent context: its pages take their size so
  await page.setViewportSize(viewport);
  page.on('pageerror', (e) => problems.push(`model.html: ${e.message}`));
  await page.goto(`${session.server.url}model.html?${query}`);
  await page.waitForFunction(() => document.querySelector('attention-model')?.view, null, { timeout: 60000 });
  return page;
}

const el = (page, fn, arg) => page.evaluate(([source, a]) => new Function('el', 'arg', `return (${source})(el, arg);`)(document.querySelector('attention-model'), a), [fn.toString(), arg]);

test('zh: typing a poem line traces it in the worker; every head\'s pattern equals attn lm trace (≤ 1e-5)', async () => {
  const page = await openModel('model=zh&text=床');
  const box = page.locator('attention-model').locator('textarea');
  await box.fill('');
  await box.pressSequentially(poem, { delay: 30 });
  await page.waitForFunction((text) => document.querySelector('attention-model').viewText === text, poem);
  const native = JSON.parse(cli('trace', '--model', modelFile('zh'), '--text', poem));
  const n = [...poem].length;
  for (let l = 0; l < 2; l++) {
    const stage = native.stages.find((s) => s.id === 'weights' && s.layer === l);
    for (let hd = 0; hd < 4; hd++) {
      const shown = await el(page, (e, [a, b]) => e.weightsOf(a, b), [l, hd]);
      const expected = stage.data.slice(hd * n * n, (hd + 1) * n * n);
      assert.equal(shown.length, expected.length);
      shown.forEach((v, k) => assert.ok(Math.abs(v - expected[k]) <= 1e-5, `layer ${l} head ${hd} [${k}]: ${v} vs ${expected[k]}`));
    }
  }
  assert.equal(await page.locator('attention-model').locator('button.head').count(), 8, 'a 2 × 4 grid');
  const labels = await page.locator('attention-model').locator('button.head').allTextContents();
  const heads = JSON.parse(cli('heads', '--model', modelFile('zh')));
  const best = heads.reduce((p, q) => (q.previous_token > p.previous_token ? q : p));
  assert.ok(labels[best.layer * 4 + best.head].includes(`previous token ${best.previous_token.toFixed(2)}`), labels.join(' | '));
  await page.screenshot({ path: path.join(artifacts, 'model-zh-desktop-en.png'), fullPage: true });
  // a head clicked opens large; a hovered cell's caption is the core's
  await page.locator('attention-model').locator('button.head[data-layer="1"][data-head="3"]').click(); // 1-based, as docs/model.md has them
  assert.equal(await el(page, (e) => `${e.state.layer}/${e.state.head}`), '0/2');
  assert.match(page.url(), /layer=1&head=3/);
  const big = page.locator('attention-model').locator('.big canvas');
  const box2 = await big.boundingBox();
  const size = box2.width / n;
  await page.mouse.move(box2.x + size * 1.5, box2.y + size * 4.5); // row 5 (是), column 2 (前)
  await page.waitForFunction(() => /^α/.test(document.querySelector('attention-model').shadowRoot.querySelector('.caption:not(.push)').textContent));
  const caption = await page.locator('attention-model').locator('.caption:not(.push)').textContent();
  const explained = cli('explain', '--model', modelFile('zh'), '--text', poem, '--stage', 'weights', '--layer', '1', '--head', '3').trim().split('\n').map((l) => JSON.parse(l));
  const cell = explained.find((c) => c.i === 4 && c.j === 1);
  assert.equal(caption, cell.text);
  // the line-alignment overlay: the same place in the previous line, for each character of line 2
  await page.locator('attention-model').locator('label.overlay input').check();
  assert.match(page.url(), /lines=1/);
  assert.deepEqual(await el(page, (e) => e.view.lines), [-1, -1, -1, -1, -1, -1, 0, 1, 2, 3, 4, -1]);
  await page.locator('attention-model').locator('.big canvas').screenshot({ path: path.join(artifacts, 'model-line-overlay.png') });
  // its sentence is the core's line-alignment scores on this text (attn lm heads --text): no claim the model does not bear out
  const lineScores = JSON.parse(cli('heads', '--model', modelFile('zh'), '--text', poem));
  for (const x of lineScores) x.line_alignment = x.text.line_alignment; // measured on this text, not on the probes
  const mine = lineScores.find((x) => x.layer === 0 && x.head === 2), top = lineScores.reduce((p, q) => (q.line_alignment > p.line_alignment ? q : p));
  await page.waitForFunction(() => document.querySelector('attention-model').shadowRoot.querySelector('.line-note')?.textContent);
  assert.equal(await page.locator('attention-model').locator('.line-note').textContent(),
    `On this text L1 H3 puts ${formatCell(mine.line_alignment)} of its attention on the marked cells (a head that only did this would score 1); ` +
    `the most of any head is L${top.layer + 1} H${top.head + 1}, ${formatCell(top.line_alignment)}.` +
    (top.line_alignment < 0.3 ? ' No head reaches 0.3 here: this small model has learned little of it.' : ''));
  // the grid as SVG: one group a head, each kept cell's weight the trace's
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator('attention-model').locator('button.export').click()]);
  assert.equal(download.suggestedFilename(), 'attention-model-zh.svg');
  const svg = readFileSync(await download.path(), 'utf8');
  assert.equal((svg.match(/<g data-layer/g) ?? []).length, 8);
  const ws = [...svg.matchAll(/data-w="([^"]+)"/g)].map((m) => Number(m[1]));
  assert.equal(ws.length, 8 * (n * (n + 1)) / 2, 'every kept cell of every head');
  const first = native.stages.find((s) => s.id === 'weights' && s.layer === 0).data;
  assert.ok(Math.abs(ws[1] - first[n]) < 1e-6, 'row 2, column 1 of head 1.1');
  await page.close();
});

test('the chosen layer in the playground\'s stepper: its weights are the model trace\'s, every attention stage there', async () => {
  const page = await openModel(`model=zh&text=${encodeURIComponent(poem)}&layer=2&head=2`);
  await page.locator('attention-model').locator('details.stepper summary').click();
  await page.waitForFunction(() => document.querySelector('attention-model').shadowRoot.querySelector('attention-stepper')?.trace?.stages.find((s) => s.id === 'weights').shape[0] === 4, null, { timeout: 30000 });
  const stepper = await el(page, (e) => {
    const s = e.shadowRoot.querySelector('attention-stepper');
    const w = s.trace.stages.find((st) => st.id === 'weights');
    return { ids: s.trace.stages.map((st) => st.id), shape: w.shape, data: Array.from(w.data), stage: s.stageId };
  });
  const native = JSON.parse(cli('trace', '--model', modelFile('zh'), '--text', poem)).stages.find((s) => s.id === 'weights' && s.layer === 1);
  assert.deepEqual(stepper.shape, native.shape);
  stepper.data.forEach((v, k) => assert.ok(Math.abs(v - native.data[k]) <= 1e-5, `[${k}] ${v} vs ${native.data[k]}`));
  for (const id of ['q', 'k', 'v', 'scores', 'scaled', 'masked', 'row_max', 'exp', 'row_sum', 'weights', 'context', 'concat', 'output']) assert.ok(stepper.ids.includes(id), id);
  // headed by the layer it is (the stepper's own title of a spec it was handed is still "Your numbers")
  assert.equal(await page.locator('attention-model').locator('.stepper-title').textContent(), 'Layer 2 of the zh model: its attention on your text, stage by stage');
  // its block diagram is the model's own, every part computed; a part opens its stage in the block's section
  const stepperLoc = page.locator('attention-model').locator('attention-stepper');
  await stepperLoc.locator('details.block-diagram summary').click();
  await stepperLoc.locator('.block-diagram').scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(artifacts, 'model-block-diagram.png') });
  const parts = await stepperLoc.locator('.block-diagram button.block').evaluateAll((bs) => bs.map((b) => b.dataset.stage));
  assert.deepEqual(parts, ['ln_1', 'q', 'resid_mid', 'ln_2', 'mlp_pre', 'mlp_act', 'mlp_out', 'resid_post']);
  assert.equal(await stepperLoc.locator('.block-diagram .context').count(), 0, 'nothing marked "not computed"');
  // a box for each of the registry's block stages (attn lm stages), each but the attention's in the registry's words
  const registry = new Map(JSON.parse(cli('stages')).map((st) => [st.id, st]));
  const words = await stepperLoc.locator('.block-diagram button.model-part').evaluateAll((bs) => bs.map((b) =>
    [b.dataset.stage, b.querySelector('strong').textContent, b.querySelector('.block-text').textContent]));
  assert.deepEqual(words, [...registry.values()].filter((st) => st.block && st.id !== 'output')
    .map((st) => [st.id, `${st.symbol} · ${st.title}`, st.explain.en]));
  await stepperLoc.locator('.block-diagram button[data-stage="ln_2"]').click();
  await page.waitForFunction(() => document.querySelector('attention-model').shadowRoot.querySelector('details.block')?.open
    && document.querySelector('attention-model').shadowRoot.querySelector('details.block .box[aria-pressed="true"]')?.dataset.stage === 'ln_2');
  // the stage it shows rides in the URL, and a link opens the layer there
  await page.locator('attention-model').locator('attention-stepper').locator('.timeline button[data-stage="exp"]').click();
  await page.waitForFunction(() => new URL(location.href).searchParams.get('stage') === 'exp');
  const again = await openModel(new URL(page.url()).search.slice(1));
  await again.locator('attention-model').locator('details.stepper summary').click();
  await again.waitForFunction(() => document.querySelector('attention-model').shadowRoot.querySelector('attention-stepper')?.stageId === 'exp', null, { timeout: 30000 });
  await again.close();
  await page.waitForTimeout(500);
  await page.screenshot({ path: path.join(artifacts, 'model-layer-stepper.png'), fullPage: true });
  await page.close();
});

test('the rest of the block: LayerNorms, residuals and the MLP as boxes in block order, each cell\'s arithmetic the core\'s', async () => {
  const page = await openModel(`model=zh&text=${encodeURIComponent(poem)}&layer=1&head=1`);
  await page.locator('attention-model').locator('details.block summary').click();
  const boxes = page.locator('attention-model').locator('button.box');
  await boxes.first().waitFor();
  assert.deepEqual(await boxes.evaluateAll((bs) => bs.map((b) => b.dataset.stage)), ['ln_1', 'output', 'resid_mid', 'ln_2', 'mlp_pre', 'mlp_act', 'mlp_out', 'resid_post']);
  await page.locator('attention-model').locator('button.box[data-stage="ln_2"]').click();
  await page.waitForFunction(() => document.querySelector('attention-model').shadowRoot.querySelector('button.box[data-stage="ln_2"]').getAttribute('aria-pressed') === 'true');
  // the stage's formula and explanation are the core's registry row (attn lm stages)
  const ln2 = JSON.parse(cli('stages')).find((st) => st.id === 'ln_2');
  assert.equal(await page.locator('attention-model').locator('details.block .stage-about').textContent(), `${ln2.formula} ${ln2.explain.en}`);
  const canvas = page.locator('attention-model').locator('details.block .big canvas');
  await canvas.scrollIntoViewIfNeeded();
  const b = await canvas.boundingBox();
  const n = [...poem].length;
  await canvas.hover({ position: { x: (b.width / 64) * 2.5, y: (b.height / n) * 3.5 } }); // row 4 (月), column 3
  await page.waitForFunction(() => /^LN₂/.test(document.querySelector('attention-model').shadowRoot.querySelector('.block-caption').textContent), null, { timeout: 5000 })
    .catch(async (e) => { throw new Error(`${e.message}: caption ${await page.locator('attention-model').locator('.block-caption').textContent()}`); });
  const caption = await page.locator('attention-model').locator('.block-caption').textContent();
  const cells = cli('explain', '--model', modelFile('zh'), '--text', poem, '--stage', 'ln_2', '--layer', '1').trim().split('\n').map((l) => JSON.parse(l));
  assert.equal(caption, cells.find((c) => c.i === 3 && c.j === 2).text);
  await page.screenshot({ path: path.join(artifacts, 'model-block.png'), fullPage: true });
  await page.close();
});

test('generate with a seed gives attn lm generate\'s characters, one at a time, and the URL holds the state', async () => {
  const page = await openModel(`model=zh&text=${encodeURIComponent('床前')}&t=0.8&seed=5`);
  // each new character's row from the core's key/value-cache step, as the page outlines it
  await page.evaluate(() => {
    window.kvRows = [];
    document.querySelector('attention-model').addEventListener('kvrow', (e) => window.kvRows.push({ ...e.detail, caption: e.target.shadowRoot.querySelector('.caption')?.textContent }));
  });
  await page.locator('attention-model').locator('button.primary').click();
  await page.waitForFunction(() => document.querySelector('attention-model').lastGenerated && !document.querySelector('attention-model').generating, null, { timeout: 60000 });
  const generated = await el(page, (e) => e.lastGenerated);
  const native = cli('generate', '--model', modelFile('zh'), '--prompt', '床前', '--n', '32', '--temperature', '0.8', '--seed', '5').replace(/\n$/, '');
  assert.equal(generated, native);
  assert.equal(await el(page, (e) => e.state.text), `床前${native}`);
  const url = new URL(page.url());
  assert.equal(url.searchParams.get('text'), `床前${native}`);
  assert.equal(url.searchParams.get('seed'), '5');
  // the cache step's row is the trace's last row (the CLI's), and the cache holds every character before it
  const rows = await page.evaluate(() => window.kvRows);
  assert.ok(rows.length >= 16, `${rows.length} rows animated`);
  for (const r of [rows[0], rows[7], rows.at(-1)]) {
    const n = [...r.text].length;
    const t = JSON.parse(cli('trace', '--model', modelFile('zh'), '--text', r.text)).stages.find((s) => s.id === 'weights' && s.layer === r.layer);
    r.weights.forEach((v, j) => assert.ok(Math.abs(v - t.data[(r.head * n + n - 1) * n + j]) <= 1e-5, `row of ${r.text} [${j}]`));
    assert.deepEqual(r.cache.slice(0, 3), [2, 4, n]);
    assert.match(r.caption, new RegExp(`^Generated “.”: its query attends over the key/value cache — the keys and values of all ${n} characters`));
  }
  // the page's one worker protocol: a refusal from the model's worker is an AttentionError, as the core's worker's
  const refused = await el(page, (e) => e.client.calls.call('no_such_operation', []).then(() => null, (error) => [error.name, error.message]));
  assert.deepEqual(refused, ['AttentionError', 'the model\'s worker has no operation "no_such_operation".']);
  await page.close();
});

test('中文, en and the phone: no English left in zh mode, unknown characters marked, the grid in the first screen', async () => {
  const page = await openModel(`model=zh&text=${encodeURIComponent('床前明月光☃')}&lang=zh`, { width: 390, height: 844 });
  const text = await page.evaluate(() => document.querySelector('attention-model').shadowRoot.textContent);
  assert.match(text, /真实的模型/);
  assert.ok(!/\bnull\b|undefined/.test(text.replace(/<style>[\s\S]*?<\/style>/, '')), 'no stray null or undefined drawn');
  // past the context: the warning stays after the trace; empty text: no picture of an older text is left
  const box = page.locator('attention-model').locator('textarea');
  await box.fill('床'.repeat(140));
  await page.waitForFunction(() => document.querySelector('attention-model').viewText === '床'.repeat(128));
  assert.equal(await page.locator('attention-model').locator('.hint[aria-live]').first().textContent(), '模型最多读 128 个字符。');
  await box.fill('');
  await page.waitForFunction(() => document.querySelector('attention-model').view === null);
  assert.equal(await page.locator('attention-model').locator('button.head').count(), 0);
  await box.fill('床前明月光☃');
  await page.waitForFunction(() => document.querySelector('attention-model').viewText === '床前明月光☃');
  assert.match(await page.locator('attention-model').locator('.unknown').textContent(), /不在模型词表中.*☃/);
  const grid = await page.locator('attention-model').locator('.grid').boundingBox();
  assert.ok(grid.y < 844 && grid.width <= 390, `grid at y ${grid.y}, ${grid.width} px wide`);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(overflow <= 390, `the page is ${overflow} px wide at 390`);
  await page.screenshot({ path: path.join(artifacts, 'model-zh-phone-zh.png'), fullPage: true });
  await page.close();
  const en = await openModel(`model=en&text=${encodeURIComponent('The cat sat on the mat. The cat sat on the')}`);
  await en.screenshot({ path: path.join(artifacts, 'model-en-desktop-en.png'), fullPage: true });
  const bars = await en.locator('attention-model').locator('.bars span').allTextContents();
  const next = JSON.parse(cli('next', '--model', modelFile('en'), '--text', 'The cat sat on the mat. The cat sat on the', '--k', '10'));
  const shownChar = (c) => ({ ' ': '␣', '\n': '⏎', '\t': '⇥' })[c] ?? c;
  assert.deepEqual(bars, next.flatMap((c) => [shownChar(c.char), c.p.toFixed(4)]), 'the top 10 with their probabilities, as the CLI has them');
  // hover the first candidate: which heads pushed it, the core's numbers (attn lm attribute)
  await en.locator('attention-model').locator('.candidate').first().hover();
  const push = await en.locator('attention-model').locator('.push').textContent();
  const att = JSON.parse(cli('attribute', '--model', modelFile('en'), '--text', 'The cat sat on the mat. The cat sat on the', '--k', '1'))[0];
  const best = att.heads.indexOf(Math.max(...att.heads));
  assert.ok(push.includes(`L${Math.floor(best / 4) + 1} H${(best % 4) + 1} +${Math.max(...att.heads).toFixed(2)}`), push);
  const phone = await openModel(`model=en&text=${encodeURIComponent('The cat sat on the mat.')}&lang=zh`, { width: 390, height: 844 });
  await phone.screenshot({ path: path.join(artifacts, 'model-en-phone-zh.png') });
  await phone.close();
  await en.close();
});

// issue 49: model mode tells the truth about the text you typed
const lazy = 'The lazy dog sleeps all day. The lazy dog sl';
const ROLE_KEYS = ['previous_token', 'induction', 'first_token', 'line_alignment'];
/** The best detector of a head's scores, as the grid names it (a score of null was not measured on the text). */
function bestRole(scores) {
  let best = null;
  for (const r of ROLE_KEYS) if (scores[r] !== undefined && scores[r] !== null && (!best || scores[r] > scores[best])) best = r;
  return { role: scores[best] >= 0.3 ? best.replace('_', '-') : 'none', score: scores[best] };
}

test('model.html?model=en opens on an English line; the grid names each head\'s role on the text and on the probes, as attn lm heads --text', async () => {
  const page = await openModel('model=en');
  assert.equal(await el(page, (e) => e.state.text), lazy, 'the en model\'s own default line, not the zh one');
  assert.deepEqual(await el(page, (e) => e.view.unknown), []);
  const heads = JSON.parse(cli('heads', '--model', modelFile('en'), '--text', lazy));
  const cells = await page.locator('attention-model').locator('button.head').evaluateAll((bs) => bs.map((b) => ({ ...b.dataset, text: b.textContent })));
  assert.equal(cells.length, 8);
  for (const h of heads) {
    const c = cells.find((x) => x.layer === String(h.layer + 1) && x.head === String(h.head + 1));
    const onText = bestRole(h.text), onProbe = bestRole(h.probe);
    assert.equal(c.role, onText.role, `L${h.layer + 1} H${h.head + 1} on the text`);
    assert.ok(Math.abs(Number(c.score) - onText.score) < 1e-4, `${c.score} vs ${onText.score}`);
    assert.equal(c.probeRole, onProbe.role);
    assert.ok(Math.abs(Number(c.probeScore) - onProbe.score) < 1e-4);
    assert.match(c.text, new RegExp(`your text: .*${onText.score.toFixed(2)}probes: .*${onProbe.score.toFixed(2)}`));
  }
  // a head the probes call an induction head is one on this text too, and the copy's next character is on top:
  // the e of "sleeps", not the i or a that follow other l's
  const copying = cells.filter((c) => c.role === 'induction' && c.probeRole === 'induction');
  assert.ok(copying.length >= 1, JSON.stringify(cells.map((c) => [c.layer, c.head, c.role, c.score])));
  assert.match(copying[0].text, /your text: induction/);
  assert.equal(await el(page, (e) => e.view.next[0].char), 'e');
  // and a held-out Chinese line written twice (游子吟): an induction head on the text, the copy's 上 on top
  const twice = '慈母手中线，游子身上衣。慈母手中线，游子身';
  const zh = await openModel(`model=zh&text=${encodeURIComponent(twice)}`);
  const zhCells = await zh.locator('attention-model').locator('button.head').evaluateAll((bs) => bs.map((b) => ({ ...b.dataset })));
  assert.ok(zhCells.some((c) => c.role === 'induction'), JSON.stringify(zhCells.map((c) => [c.layer, c.head, c.role, c.score])));
  assert.equal(await el(zh, (e) => e.view.next[0].char), '上');
  await zh.close();
  // no control character among the candidates (a raw \x08 was in the top 10)
  const chars = await el(page, (e) => e.view.next.map((c) => c.char));
  assert.ok(chars.every((c) => !/[\x00-\x08\x0b-\x1f\x7f-\x9f]/.test(c)), JSON.stringify(chars));
  // model mode and the induction lesson link to each other
  assert.equal(await page.locator('attention-model').locator('a[href="train.html?lesson=induction"]').count(), 1);
  await page.close();
});

test('the top candidate\'s logit split into every source sums to it (≤ 1e-4), drawn on one scale; the grid tinted by the same split; the lens', async () => {
  const page = await openModel(`model=en&text=${encodeURIComponent(lazy)}`);
  const att = JSON.parse(cli('attribute', '--model', modelFile('en'), '--text', lazy, '--k', '2'));
  const parts = await page.locator('attention-model').locator('.sources .part[data-part]').evaluateAll((ps) => ps.map((p) => ({ ...p.dataset })));
  assert.equal(parts.length, att[0].parts.length, '1 + 2 × (4 heads, a bias, an MLP) + 1');
  parts.forEach((p, k) => {
    const n = att[0].parts[k];
    assert.equal(p.part, n.part);
    assert.ok(Math.abs(Number(p.value) - n.value) < 1e-4, `${p.part} ${p.value} vs ${n.value}`);
  });
  const sum = parts.reduce((t, p) => t + Number(p.value), 0);
  assert.ok(Math.abs(sum - att[0].logit) <= 1e-4, `the parts sum to ${sum}, the logit is ${att[0].logit}`);
  // one scale: the widest bar is the largest part (layer 1's MLP here, not a head)
  const most = Math.max(...att[0].parts.map((p) => Math.abs(p.value)));
  assert.equal(att[0].parts.find((p) => Math.abs(p.value) === most).part, 'mlp');
  const tints = await page.locator('attention-model').locator('button.head').evaluateAll((bs) => bs.map((b) => [b.dataset.layer, b.dataset.head, Number(b.dataset.tint)]));
  for (const [l, hd, tint] of tints) {
    const v = att[0].parts.find((p) => p.part === 'head' && p.layer === l - 1 && p.head === hd - 1).value;
    assert.ok(Math.abs(tint - Math.abs(v) / most) < 1e-3, `L${l} H${hd}: tint ${tint} vs ${Math.abs(v) / most}`);
  }
  // the second candidate, focused: its own split
  await page.locator('attention-model').locator('.candidate').nth(1).focus();
  await page.waitForFunction((ch) => document.querySelector('attention-model').shadowRoot.querySelector('.candidate[aria-pressed="true"]')?.dataset.char === ch, att[1].char);
  const second = await page.locator('attention-model').locator('.sources .part[data-part]').evaluateAll((ps) => ps.map((p) => Number(p.dataset.value)));
  assert.ok(Math.abs(second.reduce((a, b) => a + b, 0) - att[1].logit) <= 1e-4);
  // the logit lens: each layer's top five, as attn lm lens
  const lens = JSON.parse(cli('lens', '--model', modelFile('en'), '--text', lazy));
  const rows = await page.locator('attention-model').locator('.lens tr').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td .ch')].map((c) => c.textContent)));
  assert.deepEqual(rows, lens.map((p) => p.top.map((c) => (c.char === ' ' ? '␣' : c.char))));
  await page.close();
});

test('temperature, top-k and top-p redraw the sampling bars; el.next, el.trace and el.generate give the CLI\'s numbers for the same seed', async () => {
  const page = await openModel(`model=en&text=${encodeURIComponent(lazy)}&t=1.5&seed=3`);
  const root = page.locator('attention-model');
  const column = (key) => root.locator('.sampling tbody tr').evaluateAll((trs, k) => trs.map((tr) => Number(tr.querySelectorAll('td')[k].textContent)), key);
  assert.ok((await column(1)).every((p) => p > 0), 'no top-k yet: every candidate kept');
  await root.locator('input[type=number]').first().fill('3');
  await root.locator('input[type=number]').first().dispatchEvent('change');
  await page.waitForFunction(() => [...document.querySelector('attention-model').shadowRoot.querySelectorAll('.sampling tbody tr')]
    .filter((tr) => Number(tr.querySelectorAll('td')[1].textContent) > 0).length === 3);
  assert.match(page.url(), /topk=3/);
  const native = JSON.parse(cli('sample', '--model', modelFile('en'), '--text', lazy, '--temperature', '1.5', '--top-k', '3', '--seed', '3'));
  const shown = await column(1);
  native.candidates.forEach((c, i) => assert.ok(Math.abs(shown[i] - c.top_k) < 1e-3, `${c.char}: ${shown[i]} vs ${c.top_k}`));
  assert.equal(await root.locator('.sampling tr[aria-current="true"]').getAttribute('data-char'), native.sampled.char, 'the seed\'s draw marked');
  // el.next(k): the distribution as drawn
  const next = await el(page, (e) => e.next(3));
  const nativeNext = JSON.parse(cli('next', '--model', modelFile('en'), '--text', lazy, '--k', '3', '--temperature', '1.5', '--top-k', '3'));
  assert.deepEqual(next.map((c) => c.char), nativeNext.map((c) => c.char));
  next.forEach((c, i) => assert.ok(Math.abs(c.p - nativeNext[i].p) < 1e-5));
  // el.trace(): the model trace now shown, as m.trace gives it
  const trace = await el(page, (e) => e.trace().then((t) => ({ tokens: t.tokens, n: t.stages.length, w: Array.from(t.stages.find((st) => st.id === 'weights' && st.layer === 1).data) })));
  const nativeTrace = JSON.parse(cli('trace', '--model', modelFile('en'), '--text', lazy));
  assert.deepEqual(trace.tokens, nativeTrace.tokens);
  assert.equal(trace.n, nativeTrace.stages.length);
  const w1 = nativeTrace.stages.find((st) => st.id === 'weights' && st.layer === 1).data;
  trace.w.forEach((v, k) => assert.ok(Math.abs(v - w1[k]) <= 1e-5));
  // await el.generate(n): the same characters as attn lm generate with the element's temperature, top-k and seed
  const added = await el(page, async (e) => { e.state.animate = false; return e.generate(6); });
  const nativeGen = cli('generate', '--model', modelFile('en'), '--prompt', lazy, '--n', '6', '--temperature', '1.5', '--top-k', '3', '--seed', '3').replace(/\n$/, '');
  assert.equal(added, nativeGen);
  assert.equal(await el(page, (e) => e.textBox.value), lazy + nativeGen);
  await page.close();
});

test('temperature 1.5 writes no control character into the text box (a BEL once did)', async () => {
  const page = await openModel(`model=en&text=${encodeURIComponent('A penny saved')}&t=1.5`);
  for (let seed = 1; seed <= 4; seed++) {
    const text = await el(page, async (e, s) => {
      e.state.seed = s;
      e.state.animate = false;
      e.setText('A penny saved');
      e.textBox.value = 'A penny saved';
      await e.generate(40);
      return e.textBox.value;
    }, seed);
    assert.ok(!/[\x00-\x08\x0b-\x1f\x7f-\x9f]/.test(text), JSON.stringify(text));
  }
  await page.close();
});

test('a phone: a tap shows the cell\'s arithmetic, no caption says hover; 65 characters keep readable axis labels', async () => {
  // a phone of its own: a touch screen, whose media say hover: none (a page of the shared browser cannot)
  const phone = await launchChromium({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const page = await phone.newPage();
  page.on('pageerror', (e) => problems.push(`phone model.html: ${e.message}`));
  const long = 'The cat sat on the mat and the dog sat on the log, the end of it.';
  await page.goto(`${session.server.url}model.html?model=en&text=${encodeURIComponent(long)}`);
  await page.waitForFunction(() => document.querySelector('attention-model')?.view, null, { timeout: 60000 });
  // every text node the element shows (its stylesheet's :hover aside)
  const words = await page.evaluate(() => [...document.querySelector('attention-model').shadowRoot.querySelectorAll('*:not(style)')]
    .flatMap((e) => [...e.childNodes].filter((t) => t.nodeType === 3).map((t) => t.textContent)).join('\n'));
  assert.ok(!/hover|鼠标/i.test(words), 'no caption says hover on a touch screen');
  // a tap on the pattern, scrolled into view: no pointer moves on a phone
  const big = page.locator('attention-model').locator('.big canvas');
  await big.scrollIntoViewIfNeeded();
  const n = [...long].length; // all of it read: the context is 128
  const size = (await big.boundingBox()).width / n;
  await big.tap({ position: { x: size * 2.5, y: size * 5.5 } });
  await page.waitForFunction(() => /^α/.test(document.querySelector('attention-model').shadowRoot.querySelector('.caption:not(.push)').textContent));
  const caption = await page.locator('attention-model').locator('.caption:not(.push)').textContent();
  const explained = cli('explain', '--model', modelFile('en'), '--text', long, '--stage', 'weights', '--layer', '2', '--head', '1').trim().split('\n').map((l) => JSON.parse(l));
  assert.equal(caption, explained.find((c) => c.i === 5 && c.j === 2).text);
  // the axis labels: a cell of at least 16 px each, however long the text
  const widths = await page.locator('attention-model').locator('.big .cols span').evaluateAll((ss) => ss.map((x) => x.getBoundingClientRect().width));
  assert.equal(widths.length, n);
  assert.ok(Math.min(...widths) >= 16, `the narrowest label is ${Math.min(...widths)} px`);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(overflow <= 390, `the page is ${overflow} px wide at 390 (the pattern scrolls in its own box)`);
  await phone.close();
});

test('a saved page: model.html opened from file:// loads the model (a classic script) and traces in its worker', async () => {
  const page = await session.browser.newPage();
  page.on('pageerror', (e) => problems.push(`file model.html: ${e.message}`));
  await page.goto(`file://${path.join(repo, 'site/model.html')}?model=en&text=${encodeURIComponent('The cat sat')}`);
  await page.waitForFunction(() => document.querySelector('attention-model')?.view, null, { timeout: 60000 });
  assert.equal(await el(page, (e) => e.view.tokens.join('')), 'The cat sat');
  await page.close();
});

test('axe-core: no serious or critical violations in model mode, en and zh', async () => {
  const axe = readFileSync(path.join(repo, 'web/node_modules/axe-core/axe.min.js'), 'utf8');
  for (const lang of ['en', 'zh']) {
    const page = await openModel(`model=zh&text=${encodeURIComponent(poem)}&lang=${lang}`);
    await page.addScriptTag({ content: axe });
    const violations = await page.evaluate(async () => (await window.axe.run(document, { resultTypes: ['violations'] })).violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.length}`));
    assert.deepEqual(violations, [], lang);
    await page.close();
  }
});

test('no page errors in model mode', () => {
  assert.deepEqual(problems.filter((p) => !/Failed to load resource/.test(p)), []);
});
