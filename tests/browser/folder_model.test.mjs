// A model you bring, in model mode as a person opens it: "Open a model…", choose the trained Llama test model
// (`attn lm train --arch llama`, scripts/models.sh), step to layer 1's rotary stage, read every stage
// against `attn lm trace` on the same folder (≤ 1e-5), generate, run one step through the key/value cache; a
// hostile folder is refused in one sentence and the page still opens the good one; model.html?model=URL opens a
// GPT-2 folder the site serves, its Chinese tokens shown as characters; en and zh at 1280 and 390 px; axe-core.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';

import { attnCli, repo } from '../node/helpers.mjs';
import { artifacts, browserSession, site, writeLyingFolder } from './session.mjs';

const session = browserSession();
const { problems } = session;
const work = mkdtempSync(path.join(os.tmpdir(), 'attn-folder-page-'));
const cli = (...args) => JSON.parse(execFileSync(attnCli, ['lm', ...args], { encoding: 'utf8', maxBuffer: 1 << 28 }));

function writeFolder(name, arch, dtype) {
  const folder = path.join(work, name);
  execFileSync('/usr/bin/python3', ['-c', `import sys; sys.path.insert(0, ${JSON.stringify(path.join(repo, 'tests/oracle'))}); import hf_numpy; ` +
    `hf_numpy.write_folder(${JSON.stringify(folder)}, "${arch}", "${dtype}", 0, 1, False)`], { stdio: 'pipe' });
  return folder;
}
const llama = path.join(repo, 'build/native/test_models/llama-f32');  // trained by scripts/models.sh
assert.ok(existsSync(path.join(llama, 'model.safetensors')), `${llama} is missing: scripts/models.sh trains the test models`);
const gpt2 = writeFolder('gpt2', 'gpt2', 'BF16');  // GPT-2's layout written by the independent numpy writer
// a folder whose safetensors header says a tensor ends 1 GiB past the file's end
const lying = writeLyingFolder(llama, path.join(work, 'lying'));
const TEXT = '我今天去了火锅店，那家店需要提前预约吗？';

const inFolderView = (page, fn, arg) => page.evaluate(([source, a]) => {
  const el = document.querySelector('attention-model').shadowRoot.querySelector('attention-folder-model');
  return new Function('el', 'arg', `return (${source})(el, arg);`)(el, a);
}, [fn.toString(), arg]);

/** model.html with our model, then "Open a model…" and the folder chosen as a person chooses it. */
async function chooseFolder(page, folder) {
  const chooser = page.waitForEvent('filechooser');
  const open = page.locator('attention-model').getByRole('button', { name: /Open a model|打开一个模型/ }).first();
  await open.click();
  await (await chooser).setFiles(folder);
}

async function newPage(query, viewport = { width: 1280, height: 900 }) {
  const page = await session.browser.newPage();
  await page.setViewportSize(viewport);
  page.on('pageerror', (e) => problems.push(`model.html: ${e.message}`));
  await page.goto(`${session.server.url}model.html?${query}`);
  return page;
}

const figure = (page) => page.locator('attention-model').locator('attention-folder-model canvas').first();

test('"Open a model…" opens the Llama test folder; layer 1\'s q_rot is drawn and every stage equals attn lm trace (≤ 1e-5)', async () => {
  const page = await newPage('model=en');
  await page.waitForFunction(() => document.querySelector('attention-model')?.view, null, { timeout: 60000 });
  await chooseFolder(page, llama);
  await page.waitForFunction(() => document.querySelector('attention-model').shadowRoot.querySelector('attention-folder-model')?.opened?.firstDrawnMs,
    null, { timeout: 60000 });
  const canvas = figure(page);
  assert.equal(await canvas.getAttribute('data-stage'), 'q_rot');
  assert.equal(await canvas.getAttribute('data-layer'), '1');
  const folderView = page.locator('attention-model').locator('attention-folder-model');
  await folderView.locator('textarea').fill(TEXT);
  await page.waitForFunction((t) => document.querySelector('attention-model').shadowRoot.querySelector('attention-folder-model').shown?.tokens &&
    document.querySelector('attention-model').shadowRoot.querySelector('attention-folder-model').state.text === t, TEXT);
  const native = cli('trace', '--model', llama, '--text', TEXT);
  const shown = await inFolderView(page, (el) => el.trace());
  assert.deepEqual(shown.ids, native.ids);
  assert.equal(shown.stages.length, native.stages.length);
  native.stages.forEach((s, k) => {
    const got = Object.values(shown.stages[k].data);
    assert.equal(shown.stages[k].id, s.id);
    s.data.forEach((v, i) => assert.ok(Math.abs(got[i] - v) <= 1e-5 * (1 + Math.abs(v)), `${s.id} layer ${s.layer} [${i}]: ${got[i]} vs ${v}`));
  });
  // the drawn figure is layer 1's q_rot, head 1: its first number is the trace's
  await page.waitForFunction(() => document.querySelector('attention-model').shadowRoot.querySelector('attention-folder-model').shown.tokens.length > 1);
  const qRot = native.stages.find((s) => s.id === 'q_rot' && s.layer === 0);
  assert.ok(Math.abs(Number(await canvas.getAttribute('data-first')) - qRot.data[0]) <= 1e-5);
  assert.equal(Number(await canvas.getAttribute('data-rows')), native.ids.length);
  // the tokens as the tokenizer gives them
  assert.deepEqual(await folderView.locator('.tok').allTextContents(), native.tokens);
  // the key heads: fewer than the query heads, each naming the query heads that share it
  const about = cli('info', '--model', llama);
  await folderView.getByRole('combobox', { name: 'Stage' }).selectOption('k_rot');
  await page.waitForFunction(() => document.querySelector('attention-model').shadowRoot.querySelector('attention-folder-model').shadowRoot.querySelector('canvas').dataset.stage === 'k_rot');
  const heads = await folderView.getByRole('combobox', { name: 'Head' }).locator('option').allTextContents();
  assert.equal(heads.length, about.n_kv_head);
  if (about.n_kv_head < about.n_head) assert.match(heads[0], /key\/value head 1 \(used by query heads 1, 2/);
  // one step through the key/value cache: the cache holds every token's key; the new row has one weight per token
  await folderView.getByRole('button', { name: /through the cache/ }).click();
  const cacheCanvas = folderView.locator('canvas[aria-label^="K cache"]');
  await cacheCanvas.waitFor();
  assert.equal(await cacheCanvas.getAttribute('data-shape'), `2×${about.n_kv_head}×${native.ids.length}×${about.d_head}`);
  await page.screenshot({ path: path.join(artifacts, 'folder-llama-desktop-en.png'), fullPage: true });
  // layer 1 in the playground's stepper, from its RMS norm's rows: the rotated queries and keys (fewer key heads)
  // and the weights are the model trace's own
  assert.match(await folderView.locator('section').last().textContent(), /from its RMS norm's rows to its output/);
  await folderView.getByRole('button', { name: 'Open layer 1 in the stepper' }).click();
  await page.waitForFunction(() => document.querySelector('attention-model').shadowRoot.querySelector('attention-folder-model')
    .shadowRoot.querySelector('attention-stepper')?.shadowRoot?.querySelector('.scene'), null, { timeout: 30000 });
  for (const id of ['weights', 'q_rot', 'k_rot']) {
    const inStepper = await inFolderView(page, async (el, stage) => {
      const stepper = el.shadowRoot.querySelector('attention-stepper');
      await stepper.settled?.();
      stepper.goTo(stage);
      await stepper.settled?.();
      const d = stepper.stageData();
      return { stage: d.stage, shape: d.shape, data: [...d.data] };
    }, id);
    const model = native.stages.find((x) => x.id === id && x.layer === 0);
    assert.equal(inStepper.stage, id);
    assert.deepEqual(inStepper.shape, model.shape, id);
    inStepper.data.forEach((v, i) => assert.ok(Math.abs(v - model.data[i]) <= 1e-4 * (1 + Math.abs(model.data[i])), `the stepper's ${id} [${i}]: ${v} vs the model's ${model.data[i]}`));
  }
  assert.equal((await inFolderView(page, (el) => el.shadowRoot.querySelector('attention-stepper').stageData().shape))[0], about.n_kv_head, 'k_rot: one per key/value head');
  // the stepper's rotation cell in words, from the core
  await folderView.locator('attention-stepper').locator('figure.role-result td.cell[data-i="1"][data-j="0"]').hover();
  await page.waitForFunction(() => /^k_rot\[/.test(document.querySelector('attention-model').shadowRoot.querySelector('attention-folder-model')
    .shadowRoot.querySelector('attention-stepper').shadowRoot.querySelector('.caption')?.textContent ?? ''), null, { timeout: 10000 });
  await folderView.locator('attention-stepper').screenshot({ path: path.join(artifacts, 'folder-llama-stepper-desktop-en.png') });
  // generation with a seed: the CLI's text, appended
  const before = await inFolderView(page, (el) => el.state.text);
  const made = await inFolderView(page, (el) => el.generate(10));
  const want = execFileSync(attnCli, ['lm', 'generate', '--model', llama, '--prompt', before, '--n', '10', '--temperature', '0.8', '--seed', '1'], { encoding: 'utf8' })
    .replace(/\n$/, '');
  assert.equal(made, want.replace(/[\uFFFD]/g, '\uFFFD'));
  const timing = await inFolderView(page, (el) => ({ open: el.opened.ms, drawn: el.opened.firstDrawnMs, heap: el.opened.memory.heapInUse }));
  console.log(`llama test folder: opened in ${timing.open.toFixed(0)} ms, first layer drawn ${timing.drawn.toFixed(0)} ms after choosing; module heap ${timing.heap} bytes`);
  assert.deepEqual(problems, []);
  await page.close();
});

test('a hostile folder (a header that lies about its offsets) is refused in one sentence, and the page then opens the good one', async () => {
  const page = await newPage('model=en');
  await page.waitForFunction(() => document.querySelector('attention-model')?.view, null, { timeout: 60000 });
  await chooseFolder(page, lying);
  const status = page.locator('attention-model').locator('attention-folder-model p[role="alert"]');
  await status.waitFor({ timeout: 30000 });
  const sentence = await status.textContent();
  assert.match(sentence, /^The model could not be opened: .*model\.safetensors/);
  assert.doesNotMatch(sentence, /\n/);
  // still working: the good folder opens in the same page
  const chooser = page.waitForEvent('filechooser');
  await page.locator('attention-model').locator('attention-folder-model').getByRole('button', { name: 'Open a model…' }).click();
  await (await chooser).setFiles(llama);
  await page.waitForFunction(() => document.querySelector('attention-model').shadowRoot.querySelector('attention-folder-model')?.opened?.firstDrawnMs,
    null, { timeout: 60000 });
  assert.equal(await figure(page).getAttribute('data-stage'), 'q_rot');
  // back to our character models
  await page.locator('attention-model').locator('attention-folder-model').getByRole('button', { name: /Our character models/ }).click();
  await page.locator('attention-model').locator('button.head').first().waitFor();
  assert.deepEqual(problems, []);
  await page.close();
});

test('model.html?model=URL opens a GPT-2 folder the site serves; zh words; Chinese characters split into byte pieces shown as characters; 390 px; axe-core', async () => {
  const served = path.join(site, 'assets', 'test-models', 'gpt2');
  cpSync(gpt2, served, { recursive: true });
  try {
    for (const [lang, viewport] of [['zh', { width: 1280, height: 900 }], ['en', { width: 390, height: 844 }]]) {
      const page = await newPage(`model=${encodeURIComponent('assets/test-models/gpt2/')}&lang=${lang}`, viewport);
      await page.waitForFunction(() => document.querySelector('attention-model').shadowRoot.querySelector('attention-folder-model')?.opened?.firstDrawnMs,
        null, { timeout: 60000 });
      const view = page.locator('attention-model').locator('attention-folder-model');
      const native = cli('tokenize', '--model', gpt2, '--text', TEXT);
      assert.deepEqual(await view.locator('.tok').allTextContents(), native.tokens);
      assert.ok(native.tokens.some((t) => /^.\(1\/\d\)$/u.test(t)), 'GPT-2 splits a Chinese character into byte pieces');
      assert.ok(await view.locator('.tok.piece').count() > 0);
      if (lang === 'zh') {
        // layer 1 in the playground's stepper: its weights are the model trace's own (every head, ≤ 1e-5)
        await view.getByRole('button', { name: '在步进器里打开第 1 层' }).click();
        await page.waitForFunction(() => document.querySelector('attention-model').shadowRoot.querySelector('attention-folder-model')
          .shadowRoot.querySelector('attention-stepper')?.shadowRoot?.querySelector('.scene'), null, { timeout: 30000 });
        const inStepper = await inFolderView(page, async (el) => {
          const stepper = el.shadowRoot.querySelector('attention-stepper');
          await stepper.settled?.();
          const d = stepper.stageData();
          return { stage: d.stage, shape: d.shape, data: [...d.data], rows: d.rows };
        });
        const model = cli('trace', '--model', gpt2, '--text', TEXT).stages.find((x) => x.id === 'weights' && x.layer === 0);
        assert.equal(inStepper.stage, 'weights');
        assert.deepEqual(inStepper.shape, model.shape);
        inStepper.data.forEach((v, i) => assert.ok(Math.abs(v - model.data[i]) <= 1e-5, `the stepper's weights [${i}]: ${v} vs the model's ${model.data[i]}`));
        assert.deepEqual(inStepper.rows, native.tokens, 'its rows are the tokens');
        // the words a reader sees (not the stylesheet), and the options of the pickers; LayerNorm is a term zh keeps
        const words = await view.evaluate((el) => [...el.shadowRoot.querySelectorAll('.frame *:not(style)')]
          .map((e) => [...e.childNodes].filter((c) => c.nodeType === 3).map((c) => c.textContent).join(' ')).join('\n'));
        assert.match(words, /你带来的模型/);
        for (const english of ['Layer', 'Stage', 'Head', 'The next token', 'Generate', 'Your text', 'Open a model', 'Before and after', 'rotated', 'Hover'])
          assert.ok(!new RegExp(`\\b${english}\\b`).test(words), `"${english}" left in zh`);
      }
      const axe = readFileSync(path.join(repo, 'web/node_modules/axe-core/axe.min.js'), 'utf8');
      await page.addScriptTag({ content: axe });
      const violations = await page.evaluate(async () => (await window.axe.run(document, { resultTypes: ['violations'] })).violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.length}`));
      assert.deepEqual(violations, [], `axe-core (${lang})`);
      await page.screenshot({ path: path.join(artifacts, `folder-gpt2-${viewport.width}-${lang}.png`), fullPage: true });
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(width <= viewport.width + 1, `no sideways scroll at ${viewport.width} px (${width})`);
      await page.close();
    }
  } finally {
    rmSync(path.join(site, 'assets', 'test-models'), { recursive: true, force: true });
  }
  assert.deepEqual(problems, []);
});
