// What a blog post downloads: a post saved to disk with the one-file script and its parts beside it (as
// docs/embed.md tells authors to copy them), opened over http and from file:// (a classic <script src>:
// Chromium runs no module script from file://). Every request Chromium makes
// is logged: a post that shows a sequence example fetches the script alone, and the explain part when a reader
// first points at a cell (its caption is then the core's arithmetic); a vision block fetches the vision
// part too, once, and its numbers are the core's; a part left out is said in a sentence, and the other
// embed on the page keeps working. A trainer brings the learn part's script, which holds its code too.
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { before, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { PARTS } from '../../web/module_facts.mjs';
import { brotliBytes, EMBED_BUDGET_BYTES } from '../../web/size_budget.mjs';

import { createAttention } from '../../web/src/node.js';
import { cell } from '../../web/src/stepper/format.js';
import { serveStatic } from '../node/helpers.mjs';
import { artifacts, browserSession, shown, site } from './session.mjs';

const session = browserSession();
let a;

before(async () => {
  a = await createAttention();
});

const SCRIPTS = ['attention-stepper.js', ...PARTS.map((p) => `attention-stepper.${p.name}.js`)];

/** A saved post: post.html with these embeds, and the given files of site/assets beside it. */
function savedPost(embeds, files = SCRIPTS) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'attn-post-'));
  for (const f of files) copyFileSync(path.join(site, 'assets', f), path.join(dir, f));
  writeFileSync(path.join(dir, 'post.html'), `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A post</title></head>
<body><h1>Attention, step by step</h1>
<script src="attention-stepper.js"></script>
${embeds}
</body></html>`);
  return dir;
}

/** Opens url and logs every file Chromium requests (its name), until every embed shows a stage or an error. */
async function openLogged(url, count) {
  const page = await session.browser.newPage({ viewport: { width: 1000, height: 1200 } });
  const requested = [];
  page.on('request', (r) => {
    // files only: the worker starts from a blob: URL the script makes
    if (/^(https?|file):/.test(r.url())) requested.push(decodeURIComponent(new URL(r.url()).pathname.split('/').pop()));
  });
  page.on('pageerror', (e) => session.problems.push(`${url}: ${e.message}`));
  await page.goto(url);
  await page.waitForFunction((n) => {
    const els = [...document.querySelectorAll('attention-stepper')];
    return els.length === n && els.every((e) => e.shadowRoot?.querySelector('.scene, p.error'));
  }, count, { timeout: 30000 });
  return { page, requested };
}

/** The brotli size of what a post fetched, from the files themselves (a static server or file:// does not compress). */
const brotliKB = (dir, files) => files.reduce((sum, f) => sum + brotliBytes(readFileSync(path.join(dir, f))), 0) / 1024;

for (const how of ['http', 'file']) {
  test(`a saved post over ${how}: a sequence example fetches the script alone; a vision block adds the vision part, once`, async (t) => {
    const dir = savedPost('<attention-stepper example="translation" stage="scores"></attention-stepper>');
    const server = how === 'http' ? await serveStatic(dir) : null;
    t.after(() => server?.close());
    const url = server ? `${server.url}post.html` : String(pathToFileURL(path.join(dir, 'post.html')));
    const sequence = await openLogged(url, 1);
    const fetched = sequence.requested.filter((f) => f !== 'post.html');
    assert.deepEqual(fetched, ['attention-stepper.js'], 'a sequence example downloads the element and nothing else');
    const kb = brotliKB(dir, fetched);
    console.log(`${how}: a sequence embed fetches ${(kb * 1024).toFixed(0)} bytes brotli (${kb.toFixed(1)} KiB)`);
    assert.ok(kb * 1024 <= EMBED_BUDGET_BYTES, `the sequence embed is ${(kb * 1024).toFixed(0)} bytes brotli`); // 401 KB before the parts, 217 before the train mode left it, 210 before the -Oz link, 204 before the parts' glue left it and terser, 198.8 before the examples lost their line breaks, 198.0 before the vision views left it, 195.4 before the sequence stages were compiled -Oz, 181.5 before strtod's slow path was our own, 176.1 before the wasm was packed (LZMA), 148.8 before the complexity panels left it; the goal, 150 KB, held as 150,000 bytes (gzip until the guided path; brotli since: web/size_budget.mjs)
    // pointing at a cell loads the explain part, once: the caption is the core's arithmetic
    const scores = a.example('translation').stages.find((s) => s.id === 'scores');
    const cellAt = (i, j) => sequence.page.locator(`attention-stepper figure.role-result td.cell[data-i="${i}"][data-j="${j}"]`);
    await cellAt(0, 1).hover();
    const first = (await shown(sequence.page)).caption;
    assert.match(first, new RegExp(`^e\\[猫, cat\\] = .+ = ${cell(scores.data[1])}$`));
    await cellAt(1, 2).hover();
    assert.match((await shown(sequence.page)).caption, /^e\[坐, sat\] = /);
    assert.deepEqual(sequence.requested.filter((f) => f !== 'post.html'), ['attention-stepper.js', 'attention-stepper.explain.js'],
      'the first caption loads the explain part; the next one reuses it');
    await sequence.page.close();

    const both = savedPost(`<attention-stepper example="translation" stage="weights"></attention-stepper>
<attention-stepper example="se-block" stage="output"></attention-stepper>
<attention-stepper example="cbam-block" stage="output"></attention-stepper>`);
    const server2 = how === 'http' ? await serveStatic(both) : null;
    t.after(() => server2?.close());
    const url2 = server2 ? `${server2.url}post.html` : String(pathToFileURL(path.join(both, 'post.html')));
    const vision = await openLogged(url2, 3);
    assert.deepEqual(vision.requested.filter((f) => f !== 'post.html'), ['attention-stepper.js', 'attention-stepper.vision.js'],
      'two vision embeds load the vision part once; nothing loads the learn part');
    const values = await vision.page.evaluate(() => [...document.querySelectorAll('attention-stepper')[1].shadowRoot
      .querySelectorAll('figure.tensor.role-result .vcell')].map((c) => [+c.dataset.index, +c.dataset.value]));
    const output = a.example('se-block').stages.find((s) => s.id === 'output');
    assert.ok(values.length > 10, 'the SE block\'s output is drawn');
    for (const [index, value] of values) assert.equal(value, output.data[index], `output[${index}] is the core's`);
    if (how === 'file') await vision.page.screenshot({ path: path.join(artifacts, 'saved-post-vision.png'), fullPage: true });
    await vision.page.close();
  });
}

test('the complexity example in a saved post brings the fast part\'s script once (its panels and a.attention), from file://', async () => {
  const dir = savedPost('<attention-stepper example="complexity"></attention-stepper>');
  const { page, requested } = await openLogged(String(pathToFileURL(path.join(dir, 'post.html'))), 1);
  assert.deepEqual(requested.filter((f) => f !== 'post.html'), ['attention-stepper.js', 'attention-stepper.fast.js'],
    'the complexity panels\' code rides in the fast part\'s script');
  // the measured paths (the streaming kernel's time and memory) are drawn once the fast part has run them
  const started = Date.now();
  await page.locator('attention-stepper button.measure-paths').click();
  await page.waitForFunction(() => document.querySelector('attention-stepper').shadowRoot
    .querySelector('section.complexity.paths [data-exponent-stream-mib]'), null, { timeout: 90000 });
  const exponent = await page.evaluate(() => +document.querySelector('attention-stepper').shadowRoot
    .querySelector('section.complexity.paths [data-exponent-stream-mib]').dataset.exponentStreamMib);
  console.log(`the two paths measured in ${Date.now() - started} ms`);
  assert.ok(exponent > 0.7 && exponent < 1.3, `the streaming path's memory grows as n (exponent ${exponent})`);
  assert.deepEqual(requested.filter((f) => f !== 'post.html'), ['attention-stepper.js', 'attention-stepper.fast.js'],
    'the measured paths run the streaming kernel from the script already loaded: nothing more is fetched');
  await page.close();
});

test('a post whose parts were not copied says so in a sentence, asks once, and its sequence embed still works', async () => {
  const dir = savedPost(`<attention-stepper example="numpy-3x4" stage="weights"></attention-stepper>
<attention-stepper example="eca-block" stage="output"></attention-stepper>`, ['attention-stepper.js']);
  const { page, requested } = await openLogged(String(pathToFileURL(path.join(dir, 'post.html'))), 2);
  const got = await page.evaluate(() => [...document.querySelectorAll('attention-stepper')].map((e) => ({
    cells: [...e.shadowRoot.querySelectorAll('figure.role-result td.cell')].slice(0, 3).map((td) => td.textContent),
    error: e.shadowRoot.querySelector('p.error')?.textContent ?? null,
  })));
  assert.deepEqual(got[0], { cells: ['0.5065', '0.1863', '0.3072'], error: null });
  assert.match(got[1].error, /^the vision part could not be loaded: file:\/\/\S+\/attention-stepper\.vision\.js is missing; copy it beside attention-stepper\.js\.$/);
  // the explain part is missing too: a caption says so, and the page asks for the file once, not per caption
  const cellAt = (i, j) => page.locator('attention-stepper').first().locator(`figure.role-result td.cell[data-i="${i}"][data-j="${j}"]`);
  for (const [i, j] of [[0, 1], [1, 2], [2, 0]]) {
    await cellAt(i, j).hover();
    assert.match((await shown(page)).caption, /^the explain part could not be loaded: file:\/\/\S+\/attention-stepper\.explain\.js is missing; copy it beside attention-stepper\.js\.$/);
  }
  assert.equal(requested.filter((f) => f === 'attention-stepper.explain.js').length, 1, 'a missing part is asked for once a page');
  await page.close();
});

test('a trainer added to a saved post after it loaded: its code comes with the learn part, once, and it trains; without the file it says so', async () => {
  // the post adds the element once its stepper is drawn: the one-file script sees it and loads the learn part
  const post = (files) => savedPost('<attention-stepper example="numpy-3x4" stage="weights"></attention-stepper>', files);
  const addTrainer = (page) => page.evaluate(() => document.body.append(Object.assign(document.createElement('attention-trainer'), { lang: 'en' })));
  const dir = post(SCRIPTS);
  const { page, requested } = await openLogged(String(pathToFileURL(path.join(dir, 'post.html'))), 1);
  assert.deepEqual(requested.filter((f) => f !== 'post.html'), ['attention-stepper.js'], 'no trainer yet: nothing but the script');
  await addTrainer(page);
  const trainer = page.locator('attention-trainer');
  await page.waitForFunction(() => /^step 0 of \d+$/.test(document.querySelector('attention-trainer')?.shadowRoot?.querySelector('.train-status')?.textContent ?? ''), null, { timeout: 30000 });
  assert.match(await trainer.locator('h2').textContent(), /^Alignment: /);
  await trainer.locator('button.step').click();
  await page.waitForFunction(() => /^step 1 of /.test(document.querySelector('attention-trainer').shadowRoot.querySelector('.train-status').textContent));
  assert.deepEqual(requested.filter((f) => f !== 'post.html'), ['attention-stepper.js', 'attention-stepper.learn.js'],
    'the trainer\'s code and the learn part come in one file, fetched once');
  await page.close();

  const without = post(['attention-stepper.js']);
  const missing = await openLogged(String(pathToFileURL(path.join(without, 'post.html'))), 1);
  await addTrainer(missing.page);
  await missing.page.waitForFunction(() => document.querySelector('attention-trainer [role="alert"]'));
  // a second trainer added after the failure says the same, and the file is not asked for again
  await addTrainer(missing.page);
  await missing.page.waitForFunction(() => document.querySelectorAll('attention-trainer [role="alert"]').length === 2);
  for (const text of await missing.page.locator('attention-trainer [role="alert"]').allTextContents()) {
    assert.match(text, /^the train mode could not be loaded: file:\/\/\S+\/attention-stepper\.learn\.js is missing; copy it beside attention-stepper\.js\.$/);
  }
  assert.equal(missing.requested.filter((f) => f === 'attention-stepper.learn.js').length, 1);
  await missing.page.close();
});

test('no page errors', () => {
  assert.deepEqual(session.problems, []);
});
