// The playground, the iframe route and <attention-stepper> in headless Debian Chromium, looked
// at the way readers and blog authors use them: what the page shows is compared with the core's
// trace (and with the native CLI), screenshots are checked for real pictures, and hostile input
// stays text.
//
// [SECTION] what is shown is the trace: numbers, pictures, arithmetic
// [SECTION] state and edits: the URL, the editor, hostile labels
// [SECTION] the ways it is opened: blogs, keyboard, motion, iframe, file://, docs
// [SECTION] words: empty rows, languages, console errors
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync, copyFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { before, test } from 'node:test';
import { pathToFileURL } from 'node:url';

import { createAttention } from '../../web/src/node.js';
import { VIRIDIS } from '../../web/src/stepper/colors.js';
import { cell } from '../../web/src/stepper/format.js';
import { shownStages } from '../../web/src/stepper/steps.js';
import { shownSize } from '../../web/src/stepper/matrix_view.js';
import { imageStats, launchChromium, nativeTrace, repo, serveStatic } from '../node/helpers.mjs';
import { artifacts, browserSession, editCell, shown, site } from './session.mjs';

const session = browserSession();
const { open, problems } = session;
let a;

before(async () => {
  a = await createAttention();
});

// [SECTION] what is shown is the trace: numbers, pictures, arithmetic

/** How many result cells the page draws for a stage: one head's matrix (q, k, v: all heads side by side), at most 48 × 48 and 1,024 cells. */
function shownCells(stage) {
  const s = stage.shape;
  const [rows, cols] = s.length === 2 ? s : [s[1], ['q', 'k', 'v'].includes(stage.id) ? s[0] * s[2] : s[2]];
  const shown = shownSize(rows, cols);
  return shown.rows * shown.cols;
}

/** The value the page should show at (i, j) of a stage: q/k/v whole (heads side by side), head h of other per-head stages. */
function expected(stage, spec, i, j, h = 0) {
  const s = stage.shape;
  if (s.length === 2) return stage.data[i * s[1] + j];
  if (['q', 'k', 'v'].includes(stage.id)) return stage.data[(Math.floor(j / s[2]) * s[1] + i) * s[2] + (j % s[2])];
  return stage.data[(h * s[1] + i) * s[2] + j];
}

test('every example, every stage: the numbers shown are the trace\'s, and the native CLI agrees within 1e-5', async () => {
  let compared = 0;
  for (const id of a.examples().filter((e) => a.example(e).kind !== 'vision')) { // the vision blocks: vision.test.mjs
    const trace = a.example(id);
    const native = nativeTrace(trace.spec);
    const page = await open(`playground.html?example=${id}&lang=en&view=matrix`); // the lines view has its own test
    const stages = shownStages(trace); // with one head, concat is folded into context
    for (let k = 0; k < stages.length; k++) {
      const stage = stages[k];
      const got = await shown(page);
      assert.equal(got.stage, stage.id, `${id}: stage ${k}`);
      assert.equal(got.title, stage.title);
      assert.equal(got.cells.length, shownCells(stage), `${id} ${stage.id}: every cell of the result is drawn`);
      for (const c of got.cells) {
        const want = expected(stage, trace.spec, c.i, c.j);
        assert.equal(c.text, cell(want), `${id} ${stage.id}[${c.i}][${c.j}]: shows ${c.text}, trace has ${want}`);
        assert.equal(c.value, want);
        const nat = expected(native.stages.find((n) => n.id === stage.id), trace.spec, c.i, c.j);
        assert.ok(Math.abs(c.value - nat) <= 1e-5, `${id} ${stage.id}[${c.i}][${c.j}]: browser ${c.value}, native ${nat}`);
        assert.equal(c.hidden, false, 'a stage reached by the keyboard is shown whole');
        compared++;
      }
      await page.keyboard.press('ArrowRight');
    }
    if (id === 'multi-head') { // the second head of a per-head stage
      await page.goto(`${session.server.url}playground.html?example=multi-head&stage=weights&head=2&view=matrix`);
      await page.waitForFunction(() => document.querySelector('attention-stepper')?.shadowRoot?.querySelector('figure.role-result'));
      const w = trace.stages.find((s) => s.id === 'weights');
      for (const c of (await shown(page)).cells) assert.equal(c.value, expected(w, trace.spec, c.i, c.j, 1));
    }
    await page.close();
  }
  console.log(`page: ${compared} cells compared with the trace and the native CLI`);
});

test('screenshots of key stages are real pictures, and the weights heatmap has its viridis colours', async () => {
  const shots = [['numpy-3x4', 'weights'], ['translation', 'weights'], ['multi-head', 'q'], ['masking', 'masked'],
    ['positional-encoding', 'pe'], ['coreference', 'weights']];
  const signatures = new Set();
  for (const [id, stage] of shots) {
    const page = await open(`playground.html?example=${id}&stage=${stage}&lang=zh&view=matrix`);
    const file = path.join(artifacts, `page-${id}-${stage}.png`);
    const png = await page.screenshot({ path: file, fullPage: true });
    const stats = await imageStats(page, png, VIRIDIS);
    assert.ok(stats.colours > 40, `${file} has only ${stats.colours} colours: blank?`);
    if (stage === 'weights') assert.ok(stats.heat > 200, `${file}: the weights heatmap is not drawn (${stats.heat} heat pixels)`);
    signatures.add(`${stats.colours}:${stats.height}`);
    await page.close();
  }
  assert.ok(signatures.size >= 4, 'different stages give different pictures');
});

test('hovering or focusing a cell shows its arithmetic with the real values', async () => {
  const page = await open('playground.html?example=numpy-3x4&stage=scores&lang=en');
  const td = await page.locator('attention-stepper').locator('figure.role-result td.cell[data-i="0"][data-j="1"]');
  await td.hover();
  assert.equal((await shown(page)).caption, 'e[token_1, token_2] = q_token_1·k_token_2 = 1×0 + 0×1 + 1×0 + 0×1 = 0');
  const highlighted = await page.evaluate(() => document.querySelector('attention-stepper').shadowRoot.querySelectorAll('td.hl').length);
  assert.equal(highlighted, 8, 'a row of Q and a column of Kᵀ light up');
  await page.keyboard.press('ArrowRight'); // the page keeps the keyboard: on to "scaled"
  await page.locator('attention-stepper').locator('figure.role-result td.cell[data-i="0"][data-j="2"]').focus();
  assert.equal((await shown(page)).caption, 'scaled[token_1, token_3] = e[token_1, token_3] ÷ √4 = 1 ÷ 2 = 0.5000');
  await page.close();
});

// [SECTION] state and edits: the URL, the editor, hostile labels

test('the URL holds the whole state: example, variant, stage, language, head and edits round-trip', async () => {
  const page = await open('playground.html?example=bank&variant=finance&stage=weights&lang=zh&view=matrix');
  await editCell(page, 'x', 0, 1, 2.5);
  await page.waitForFunction(() => location.hash.startsWith('#spec=z.'));
  const before = await shown(page);
  const link = page.url();
  assert.match(link, /view=matrix/, 'the reader\'s choice of picture is part of the link');
  const again = await open(link);
  const after = await shown(again);
  assert.equal(after.stage, 'weights');
  assert.deepEqual(after.cells.map((c) => c.text), before.cells.map((c) => c.text));
  assert.equal(after.title, '注意力权重 α');
  const spec = await again.evaluate(() => document.querySelector('attention-stepper').trace.spec);
  assert.equal(spec.x[0][1], 2.5);
  assert.deepEqual(spec.tokens.query, ['银行', '的', '存款', '利率']);
  const edited = a.trace(spec);
  const w = edited.stages.find((s) => s.id === 'weights');
  after.cells.forEach((c) => assert.equal(c.value, w.data[c.i * w.shape[2] + c.j]));
  await page.close();
  await again.close();
});

test('an invalid edit shows the core\'s sentence beside the field and keeps the last good picture', async () => {
  const page = await open('playground.html?example=numpy-3x4&stage=weights');
  const root = page.locator('attention-stepper');
  const before = await shown(page);
  await root.locator('button.edit').click();
  await root.locator('input[data-field="heads"]').fill('3');
  await root.locator('input[data-field="heads"]').press('Enter');
  await page.waitForFunction(() => document.querySelector('attention-stepper').shadowRoot.querySelector('.error[data-field="heads"]')?.textContent);
  const message = await root.locator('.error[data-field="heads"]').textContent();
  assert.equal(message, 'heads is 3 but d_model 4 is not divisible by it.');
  assert.deepEqual((await shown(page)).cells.map((c) => c.text), before.cells.map((c) => c.text));
  const x = root.locator('input[data-field="x"][data-i="1"][data-j="0"]');
  await x.fill('abc');
  await x.press('Enter');
  await page.waitForFunction(() => document.querySelector('attention-stepper').shadowRoot.querySelector('.error[data-field="x"]')?.textContent);
  assert.equal(await root.locator('.error[data-field="x"]').textContent(), 'x[1][0] (row 2, column 1) is NaN, not a finite number.');
  await x.fill('3');
  await x.press('Enter');
  await page.waitForFunction(() => !document.querySelector('attention-stepper').shadowRoot.querySelector('.error[data-field="x"]')?.textContent);
  await page.close();
});

test('the editor draws every matrix of the core\'s field table the spec has, labelled with its symbol, and makes and drops them with their kinds', async () => {
  const page = await open('playground.html?example=numpy-3x4&stage=weights');
  const root = page.locator('attention-stepper');
  await root.locator('button.edit').click();
  const { tensors } = a.schema().sequence;
  const panel = () => page.evaluate(() => {
    const r = document.querySelector('attention-stepper').shadowRoot;
    return {
      grids: [...r.querySelectorAll('section.editor .field')].filter((f) => f.querySelector('table.grid, textarea.paste')).map((f) => [f.dataset.field, f.querySelector('.field-label').textContent]),
      switches: [...r.querySelectorAll('section.editor input[type=checkbox]')].map((c) => [c.dataset.field, c.checked]),
      spec: document.querySelector('attention-stepper').trace.spec,
    };
  });
  const drawn = async (want) => page.waitForFunction((paths) => {
    const fields = [...document.querySelector('attention-stepper').shadowRoot.querySelectorAll('section.editor .field')].map((f) => f.dataset.field);
    return paths.every((p) => (p.startsWith('!') ? !fields.includes(p.slice(1)) : fields.includes(p)));
  }, want);
  const symbolOf = (path) => tensors.find((f) => f.path === path).symbol;
  await drawn(['x']); // the editor's first draw follows the click
  let now = await panel();
  assert.deepEqual(now.grids, [['x', 'X']], 'numpy-3x4 has x only');
  assert.deepEqual(now.switches, tensors.filter((f) => f.shape === 'd_model × d_model' || f.shape === 'd_model × d_kv').map((f) => [`use.${f.path}`, false]), 'a switch for each projection');
  // a projection switched on is the identity; the trace then has it
  await root.locator('input[data-field="use.weights.wo"]').check();
  await drawn(['weights.wo']);
  now = await panel();
  assert.deepEqual(now.grids, [['x', 'X'], ['weights.wo', symbolOf('weights.wo')]]);
  assert.deepEqual(now.spec.weights.wo, [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]);
  // a score's own parameters come with it (identity matrices, a vector of ones) and go when another is chosen
  await root.locator('select[data-field="score"]').selectOption('additive');
  await drawn(['additive.w1', 'additive.w2', 'additive.v']);
  now = await panel();
  assert.deepEqual(now.grids.map(([f]) => f), ['x', 'weights.wo', 'additive.w1', 'additive.w2', 'additive.v'], 'in the table\'s order');
  assert.deepEqual(now.grids.slice(2).map(([, label]) => label), ['additive.w1', 'additive.w2', 'additive.v'].map(symbolOf));
  assert.deepEqual(now.spec.additive.v, [1, 1, 1, 1]);
  await root.locator('select[data-field="score"]').selectOption('bilinear');
  await drawn(['bilinear.w', '!additive.w1']);
  assert.equal((await panel()).spec.additive, undefined, 'no empty additive object is left behind');
  // the matrices under a kind's menu: a mask of ones, a learned table of zeros
  await root.locator('select[data-field="mask"]').selectOption('matrix');
  await drawn(['mask.matrix']);
  await root.locator('select[data-field="positional"]').selectOption('learned');
  await drawn(['positional.learned']);
  now = await panel();
  assert.deepEqual(now.spec.mask, { matrix: [[1, 1, 1], [1, 1, 1], [1, 1, 1]] });
  assert.equal(now.spec.positional.learned.length, 3);
  assert.ok(now.spec.positional.learned.flat().every((v) => v === 0), 'a learned table starts at zeros (the core table\'s start)');
  // rotary positions: the base θ's box at the core table's start, and the rotated stages in the trace
  await root.locator('select[data-field="positional"]').selectOption('rotary');
  await drawn(['!positional.learned']);
  await root.locator('input[data-field="positional.rotary"]').waitFor();
  await page.waitForFunction(() => document.querySelector('attention-stepper').trace.stages.some((st) => st.id === 'q_rot'));
  now = await panel();
  assert.deepEqual(now.spec.positional, { rotary: 10000 });
  assert.equal(await root.locator('input[data-field="positional.rotary"]').inputValue(), '10000');
  assert.equal(await root.locator('input[data-field="positional.rotary"]').getAttribute('aria-label'), 'Rotary base θ');
  assert.equal(await root.locator('section.editor .error[role=alert]').allTextContents().then((t) => t.join('')), '', 'every edit was accepted');
  // a number edited in place keeps the panel (and the reader's place in it): the same box after the edit
  await root.locator('select[data-field="mask"]').selectOption('window');
  await page.waitForFunction(() => document.querySelector('attention-stepper').trace.spec.mask.window === 2); // the table's start
  const box = root.locator('input[data-field="mask.window"]');
  assert.equal(await box.getAttribute('aria-label'), 'Window k', 'the core\'s label for mask.window');
  await box.evaluate((input) => { input.dataset.before = 'yes'; });
  await box.fill('3');
  await box.press('Enter');
  await page.waitForFunction(() => document.querySelector('attention-stepper').trace.spec.mask.window === 3);
  assert.equal(await box.evaluate((input) => input.dataset.before), 'yes', 'the window box was not drawn again');
  // a refused window is said under the mask's menu, the line the window box sits on
  await box.fill('0');
  await box.press('Enter');
  await page.waitForFunction(() => document.querySelector('attention-stepper').shadowRoot.querySelector('.error[data-field="mask"]')?.textContent);
  assert.match(await root.locator('.error[data-field="mask"]').textContent(), /window/);
  await page.close();
});

test('a token label with HTML in it stays text, from the URL and from the spec attribute', async (t) => {
  const evil = '<img src=x onerror="window.__xss=1">';
  const spec = { x: [[1, 0], [0, 1]], tokens: { query: [evil, '<b>bold</b>'] } };
  const page = await open(`playground.html?spec=${encodeURIComponent(JSON.stringify(spec))}&stage=weights`);
  const found = await page.evaluate(() => {
    const root = document.querySelector('attention-stepper').shadowRoot;
    return { imgs: root.querySelectorAll('img, b').length, labels: [...root.querySelectorAll('th.row')].map((t) => t.textContent), xss: window.__xss };
  });
  assert.equal(found.imgs, 0);
  assert.ok(found.labels.includes(evil));
  assert.equal(found.xss, undefined);
  // the same through an attribute on a stranger's page
  const dir = mkdtempSync(path.join(os.tmpdir(), 'attn-xss-'));
  copyFileSync(path.join(site, 'assets/attention-stepper.js'), path.join(dir, 'attention-stepper.js'));
  const attr = JSON.stringify(spec).replace(/&/g, '&amp;').replace(/'/g, '&#39;').replace(/</g, '&lt;');
  writeFileSync(path.join(dir, 'index.html'), `<!doctype html><meta charset="utf-8"><script type="module" src="attention-stepper.js"></script>
    <attention-stepper stage="weights" spec='${attr}'></attention-stepper>`);
  const s2 = await serveStatic(dir);
  t.after(() => s2.close()); // also when an assertion fails: an open server would keep the run alive
  const p2 = await open(`${s2.url}index.html`);
  const f2 = await p2.evaluate(() => ({ imgs: document.querySelector('attention-stepper').shadowRoot.querySelectorAll('img').length, xss: window.__xss,
    labels: [...document.querySelector('attention-stepper').shadowRoot.querySelectorAll('th.row')].map((t) => t.textContent) }));
  assert.equal(f2.imgs, 0);
  assert.equal(f2.xss, undefined);
  assert.ok(f2.labels.includes(evil));
  await page.close();
  await p2.close();
});

// [SECTION] the ways it is opened: blogs, keyboard, motion, iframe, file://, docs

test('<attention-model> in a blog whose stylesheet sets * { font-size: 20px }: as tall as on a plain page, its fonts its own', async (t) => {
  // the host element takes the page's rule (a page's styles beat :host), and rem is the page's root: the element
  // sets its font on a frame inside, in px (1351 → 1646 px tall under such a blog before)
  const dir = mkdtempSync(path.join(os.tmpdir(), 'attn-model-blog-'));
  mkdirSync(path.join(dir, 'models'));
  copyFileSync(path.join(site, 'assets/attention-model.js'), path.join(dir, 'attention-model.js'));
  copyFileSync(path.join(site, 'assets/models/zh.js'), path.join(dir, 'models/zh.js'));
  const post = (css) => `<!doctype html><html><head><meta charset="utf-8"><title>A post</title><style>${css}</style></head><body style="max-width:760px">
<script src="attention-model.js"></script>
<attention-model model="zh" text="床前明月光，疑是地上霜。"></attention-model></body></html>`;
  writeFileSync(path.join(dir, 'plain.html'), post(''));
  writeFileSync(path.join(dir, 'blog.html'), post('* { font-size: 20px; line-height: 2; } html { font-size: 20px; } body { text-align: center; }'));
  const blog = await serveStatic(dir);
  t.after(() => blog.close());
  const measure = async (name) => {
    const page = await session.browser.newPage({ viewport: { width: 1000, height: 900 } });
    page.on('pageerror', (e) => problems.push(`model blog: ${e.message}`));
    await page.goto(`${blog.url}${name}`);
    await page.waitForFunction(() => document.querySelector('attention-model')?.shadowRoot?.querySelectorAll('.grid canvas').length >= 8, null, { timeout: 60000 });
    await page.evaluate(() => document.fonts.ready);
    const got = await page.evaluate(() => {
      const root = document.querySelector('attention-model').shadowRoot;
      const style = (sel) => { const cs = getComputedStyle(root.querySelector(sel)); return [cs.fontSize, cs.lineHeight, cs.textAlign]; };
      return { height: Math.round(document.querySelector('attention-model').getBoundingClientRect().height), h1: style('h1'), hint: style('p.hint'), caption: style('.caption') };
    });
    await page.screenshot({ path: path.join(artifacts, `model-blog-${name.replace('.html', '')}.png`) });
    await page.close();
    return got;
  };
  const plain = await measure('plain.html');
  const hostile = await measure('blog.html');
  console.log(`<attention-model>: ${plain.height} px tall on a plain page, ${hostile.height} px under * { font-size: 20px }`);
  assert.deepEqual(hostile, plain);
  assert.deepEqual(plain.h1, ['21.6px', '31.32px', 'left']); // 15px / 1.45 and its 1.44 times
});

test('a plain blog page with hostile CSS and two embeds renders both, sharing one core worker', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'attn-blog-'));
  copyFileSync(path.join(site, 'assets/attention-stepper.js'), path.join(dir, 'attention-stepper.js'));
  writeFileSync(path.join(dir, 'post.html'), `<!doctype html><html><head><meta charset="utf-8"><title>My blog</title>
<style>
  * { font-size: 40px !important; color: red !important; background: yellow !important; line-height: 0.2 !important; }
  table, td, th, figure, button { display: inline !important; border: 9px dotted green !important; padding: 30px !important; }
  attention-stepper { width: 700px; }
  div { transform: rotate(3deg); }
</style></head><body>
<h1>Why attention?</h1><p>Here is the NumPy example:</p>
<script type="module" src="attention-stepper.js"></script>
<attention-stepper example="numpy-3x4" stage="weights" lang="en" controls="play,timeline"></attention-stepper>
<p>And the translation one, in Chinese:</p>
<attention-stepper example="translation" stage="weights" lang="zh"></attention-stepper>
</body></html>`);
  const blog = await serveStatic(dir);
  t.after(() => blog.close());
  const page = await session.browser.newPage({ viewport: { width: 1000, height: 1400 } });
  await page.addInitScript(() => {
    // the core runs in one Web Worker for the whole page; the page's own thread instantiates no wasm
    window.__instantiations = 0;
    window.__workers = 0;
    for (const name of ['instantiate', 'instantiateStreaming']) {
      const original = WebAssembly[name];
      WebAssembly[name] = function (...args) { window.__instantiations++; return original.apply(this, args); };
    }
    const OriginalWorker = window.Worker;
    window.Worker = class extends OriginalWorker {
      constructor(...args) { super(...args); window.__workers++; }
    };
  });
  page.on('pageerror', (e) => problems.push(`blog: ${e.message}`));
  await page.goto(`${blog.url}post.html`);
  await page.waitForFunction(() => [...document.querySelectorAll('attention-stepper')].every((e) => e.shadowRoot.querySelector('.scene')));
  const first = await shown(page, 0);
  assert.deepEqual(first.cells.slice(0, 3).map((c) => c.text), ['0.5065', '0.1863', '0.3072']);
  // the translation embed opens on its lines: 猫 → cat is the heaviest line from 猫
  const second = await page.evaluate(() => {
    const root = document.querySelectorAll('attention-stepper')[1].shadowRoot;
    const fromCat = [...root.querySelectorAll('.lines path[data-query="猫"]')].sort((x, y) => y.dataset.weight - x.dataset.weight)[0];
    return { title: root.querySelector('.current .stage-title').textContent, key: fromCat.dataset.key, weight: +fromCat.dataset.weight };
  });
  assert.equal(second.title, '注意力权重 α');
  assert.deepEqual([second.key, cell(second.weight)], ['cat', '0.8874']);
  const look = await page.evaluate(() => {
    const td = document.querySelector('attention-stepper').shadowRoot.querySelector('td.cell');
    const cs = getComputedStyle(td);
    const root = document.querySelector('attention-stepper').shadowRoot;
    const title = getComputedStyle(root.querySelector('.current .stage-title'));
    const play = getComputedStyle(root.querySelector('button.play'));
    return { display: cs.display, size: cs.fontSize, instantiations: window.__instantiations, workers: window.__workers,
      title: [title.fontSize, title.color, title.lineHeight], play: play.fontSize,
      controls: [...document.querySelector('attention-stepper').shadowRoot.querySelectorAll('button')].map((b) => b.className) };
  });
  assert.equal(look.display, 'table-cell', 'the blog\'s CSS does not reach inside');
  assert.equal(look.size, '12px');
  assert.deepEqual(look.title, ['16px', 'rgb(27, 31, 36)', '23.2px'], 'inherited fonts and colours do not leak in either');
  assert.equal(look.play, '14px');
  assert.equal(look.workers, 1, 'two elements, one core worker');
  assert.equal(look.instantiations, 0, 'no wasm on the page\'s own thread');
  assert.ok(look.controls.includes('play') && !look.controls.includes('edit') && !look.controls.includes('prev'));
  await page.screenshot({ path: path.join(artifacts, 'blog-two-embeds.png'), fullPage: true });
  await page.close();
});

test('keyboard only: tab in, arrows step, space plays and pauses, arrows move between cells', async () => {
  const page = await open('embed.html?example=numpy-3x4&lang=en');
  await page.keyboard.press('Tab'); // the element itself is the first tab stop
  assert.equal(await page.evaluate(() => document.activeElement?.tagName), 'ATTENTION-STEPPER');
  assert.equal((await shown(page)).stage, 'x');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  assert.equal((await shown(page)).stage, 'k');
  await page.keyboard.press('ArrowLeft');
  assert.equal((await shown(page)).stage, 'q');
  await page.keyboard.press(' ');
  assert.equal(await page.evaluate(() => document.querySelector('attention-stepper').store.get().playing), true);
  await page.keyboard.press(' ');
  assert.equal(await page.evaluate(() => document.querySelector('attention-stepper').store.get().playing), false);
  // tab into the first matrix, then arrows walk its cells and the caption follows
  await page.evaluate(() => document.querySelector('attention-stepper').goTo('scores'));
  for (let t = 0; t < 80; t++) { // past the formula map's terms, the timeline and the controls
    await page.keyboard.press('Tab');
    const inCell = await page.evaluate(() => document.querySelector('attention-stepper').shadowRoot.activeElement?.closest?.('figure.role-result') != null);
    if (inCell) break;
  }
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowDown');
  assert.match((await shown(page)).caption, /^e\[token_2, token_2\] = q_token_2·k_token_2 = /);
  await page.close();
});

test('play animates cell by cell; prefers-reduced-motion shows each stage whole', async () => {
  const page = await open('playground.html?example=numpy-3x4&stage=q');
  await page.evaluate(() => document.querySelector('attention-stepper').play());
  await page.waitForFunction(() => document.querySelector('attention-stepper').shadowRoot.querySelectorAll('td.cell.hidden').length > 0);
  await page.waitForFunction(() => document.querySelector('attention-stepper').shadowRoot.querySelector('td.cell.current'));
  await page.close();
  const still = await open('playground.html?example=numpy-3x4&stage=q', { reducedMotion: true });
  await still.evaluate(() => document.querySelector('attention-stepper').play());
  for (let t = 0; t < 8; t++) {
    await still.waitForTimeout(100);
    assert.equal(await still.evaluate(() => document.querySelector('attention-stepper').shadowRoot.querySelectorAll('td.cell.hidden').length), 0);
  }
  await still.close();
});

test('the iframe route takes the same options as query parameters', async () => {
  const spec = { x: [[1, 0], [0, 1], [1, 1]], tokens: { query: ['a', 'b', 'c'] }, mask: 'causal' };
  const page = await open(`embed.html?example=translation&stage=weights&lang=zh&controls=play,timeline&view=matrix`);
  const got = await shown(page);
  assert.equal(got.stage, 'weights');
  assert.equal(got.title, '注意力权重 α');
  const buttons = await page.evaluate(() => [...document.querySelector('attention-stepper').shadowRoot.querySelectorAll('.controls button')].filter((b) => b.getClientRects().length).map((b) => b.className));
  assert.deepEqual(buttons, ['play']);
  await page.close();
  const custom = await open(`embed.html?spec=${encodeURIComponent(JSON.stringify(spec))}&stage=masked`);
  const m = await shown(custom);
  assert.equal(m.stage, 'masked');
  assert.deepEqual(m.cells.map((c) => c.text).slice(0, 3), ['0.7071', '−1e9', '−1e9']);
  await custom.close();
});

test('site/playground.html opens from file:// after a build, with no server', async () => {
  const url = `${pathToFileURL(path.join(site, 'playground.html'))}?example=bank&stage=context`;
  const page = await open(url);
  const got = await shown(page);
  assert.equal(got.stage, 'context');
  const ctx = a.example('bank').stages.find((s) => s.id === 'context');
  got.cells.forEach((c) => assert.equal(c.value, ctx.data[c.i * ctx.shape[2] + c.j]));
  await page.close();
});

// [SECTION] words: empty rows, languages, console errors

test('a query row that sees no key is named, and its uniform softmax explained, at the softmax stages only', async () => {
  const trace = a.example('masking', 'padding');
  assert.deepEqual(trace.empty_rows, [3]);
  const page = await open('playground.html?example=masking&variant=padding&stage=weights&lang=en');
  const note = () => page.evaluate(() => document.querySelector('attention-stepper').shadowRoot.querySelector('.empty-rows')?.textContent ?? null);
  assert.equal(await note(), `Query row 4 (${trace.axes.query[3]}) sees no key: its softmax is uniform, as in the first article's code.`);
  await page.screenshot({ path: path.join(artifacts, 'page-masking-empty-row.png') });
  await page.evaluate(() => document.querySelector('attention-stepper').goTo('context'));
  assert.equal(await note(), null, 'the context stage mixes values: no softmax row to explain');
  await page.close();
});

test('the docs page shows the snippets and a live embed (the complexity example: views.test.mjs)', async () => {
  const docs = await open('docs.html');
  const text = await docs.evaluate(() => document.body.innerText);
  assert.match(text, /<attention-stepper example="numpy-3x4" stage="weights" lang="zh"><\/attention-stepper>/);
  assert.match(text, /npm install attention-playground/);
  await docs.waitForFunction(() => !document.getElementById('stage-ids').textContent.includes('registry'));
  assert.equal(await docs.evaluate(() => document.getElementById('stage-ids').textContent), a.stageIds.join(' '));
  await docs.close();
});

test('no words of ours in the learner\'s way: no "spec", "seed 000" or "a.trace()" on the page, in English and 中文', async () => {
  const OURS = /\bspec\b|seed 00\d|文章 00\d|a\.trace\(\)|a\.attention\b/i;
  /** Every text a reader sees: the page's and the stepper's visible text, its menus' options, labels and titles. */
  const seen = (page) => page.evaluate(() => {
    const root = document.querySelector('attention-stepper').shadowRoot;
    const texts = [document.body.innerText];
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) if (n.parentElement?.getClientRects().length || n.parentElement?.tagName === 'OPTION') texts.push(n.textContent);
    for (const x of root.querySelectorAll('[title], [aria-label]')) texts.push(x.getAttribute('title') ?? '', x.getAttribute('aria-label') ?? '');
    return texts.join('\n');
  });
  const found = [];
  for (const lang of ['en', 'zh']) {
    const page = await open(`playground.html?example=numpy-3x4&lang=${lang}`);
    for (const id of a.examples()) {
      await page.evaluate((x) => document.querySelector('attention-stepper').chooseExample(x), id);
      const el = 'document.querySelector("attention-stepper")';
      await page.evaluate(`${el}.store.set({ editing: true })`);
      for (const stage of await page.evaluate(`${el}.stageIds()`)) {
        await page.evaluate((s) => { const e = document.querySelector('attention-stepper'); e.goTo(s); return e.settled(); }, stage);
        const text = await seen(page);
        const hit = OURS.exec(text);
        if (hit) found.push(`${lang} ${id} ${stage}: "${text.slice(Math.max(0, hit.index - 40), hit.index + 40)}"`);
      }
      await page.evaluate(`${el}.store.set({ editing: false })`);
    }
    await page.close();
    // the reader's own numbers (a link with a spec and no example) are "your numbers"
    const own = await open(`playground.html?lang=${lang}#spec=${encodeURIComponent(JSON.stringify({ x: [[1, 0], [0, 1]] }))}`);
    const title = await own.evaluate(() => document.querySelector('attention-stepper').shadowRoot.querySelector('h2.title').textContent);
    assert.equal(title, lang === 'en' ? 'Your numbers' : '你的数字');
    assert.doesNotMatch(await seen(own), OURS);
    await own.close();
  }
  assert.deepEqual(found.slice(0, 10), [], `${found.length} views with our words`);
  assert.ok(a.examples().every((id) => !/seed|文章 0/i.test(JSON.stringify(a.exampleDocument(id).source))), 'the examples\' sources name the articles as a reader does');
});

test('the docs page in 中文: ?lang=zh, its switch and its stepper\'s language buttons turn the whole page', async () => {
  const page = await open('docs.html?lang=zh');
  const state = () => page.evaluate(() => ({
    lang: document.documentElement.lang, h1: [...document.querySelectorAll('h1')].find((x) => x.getClientRects().length)?.textContent,
    text: document.body.innerText, stepper: document.querySelector('attention-stepper').store.get().lang,
    copy: document.querySelector('button.copy').textContent,
  }));
  await page.waitForFunction(() => !document.querySelector('attention-stepper').shadowRoot.querySelector('.pending'));
  let s = await state();
  assert.deepEqual([s.lang, s.h1, s.stepper, s.copy], ['zh-CN', '嵌入与使用注意力机制演练场', 'zh', '复制']);
  // the prose is Chinese: no English sentence of ours outside code and the stepper's data
  assert.doesNotMatch(s.text, /\b(the|and|your|with|element)\b.*\b(the|and|of|to)\b/, 'an English sentence in zh mode');
  await page.screenshot({ path: path.join(artifacts, 'docs-zh.png'), fullPage: true });
  // the live stepper's English button turns the page, and the page's 中文 button turns them both back
  await page.locator('attention-stepper').locator('button.lang-en').click();
  s = await state();
  assert.deepEqual([s.lang, s.h1, s.stepper, s.copy], ['en', 'Embedding and using Attention Playground', 'en', 'Copy']);
  await page.locator('button[data-set-lang="zh"]').click();
  s = await state();
  assert.deepEqual([s.lang, s.stepper], ['zh-CN', 'zh']);
  await page.close();
});

test('the language follows the reader\'s browser unless the page says otherwise', async (t) => {
  const zhBrowser = await launchChromium({ locale: 'zh-CN' });
  t.after(() => zhBrowser.close());
  const page = await zhBrowser.newPage();
  await page.goto(`${session.server.url}playground.html?example=numpy-3x4&stage=weights`);
  await page.waitForFunction(() => document.querySelector('attention-stepper')?.shadowRoot?.querySelector('.current .stage-title'));
  assert.equal(await page.evaluate(() => document.querySelector('attention-stepper').shadowRoot.querySelector('.current .stage-title').textContent), '注意力权重 α');
  await page.goto(`${session.server.url}playground.html?example=numpy-3x4&stage=weights&lang=en`);
  await page.waitForFunction(() => document.querySelector('attention-stepper')?.shadowRoot?.querySelector('.current .stage-title'));
  assert.equal(await page.evaluate(() => document.querySelector('attention-stepper').shadowRoot.querySelector('.current .stage-title').textContent), 'Attention weights α');
  const english = await open('embed.html?example=numpy-3x4&stage=weights'); // the default browser here is en-US
  assert.equal((await shown(english)).title, 'Attention weights α');
  await english.click('attention-stepper >> button.lang-zh');
  assert.equal((await shown(english)).title, '注意力权重 α');
  await english.close();
});

test('no console errors on any page', () => {
  assert.deepEqual(problems, []);
});
