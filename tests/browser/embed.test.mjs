// What a blog post downloads: a post saved to disk with the classic bundle beside it (as site/docs.html tells
// authors to copy it), opened over http and from file:// (a classic <script src>: Chromium runs no module script
// from file://). Every request Chromium makes is logged: whatever the post shows (a sequence example and the core's
// arithmetic of a cell, vision blocks, the complexity example's measured paths, a trainer added later), it fetches
// the one script and nothing else, and its numbers are the core's.
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { before, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { brotliBytes } from '../../web/size_budget.mjs';

import { createAttention } from '../../web/src/node.js';
import { cell } from '../../web/src/stepper/format.js';
import { serveStatic } from '../node/helpers.mjs';
import { artifacts, browserSession, shown, site } from './session.mjs';

const session = browserSession();
let a;

before(async () => {
  a = await createAttention();
});

/** A saved post: post.html with these embeds, and the classic bundle beside it. */
function savedPost(embeds, files = ['attention-stepper.js']) {
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

const ONLY = ['attention-stepper.js'];

for (const how of ['http', 'file']) {
  test(`a saved post over ${how} fetches the script alone: a sequence example, a cell's arithmetic, vision blocks`, async (t) => {
    const dir = savedPost('<attention-stepper example="translation" stage="scores"></attention-stepper>');
    // over http the server hears every request too, the worker's included
    const served = [];
    const server = how === 'http' ? await serveStatic(dir, { onRequest: (p) => served.push(p) }) : null;
    t.after(() => server?.close());
    const url = server ? `${server.url}post.html` : String(pathToFileURL(path.join(dir, 'post.html')));
    const sequence = await openLogged(url, 1);
    const fetched = sequence.requested.filter((f) => f !== 'post.html');
    assert.deepEqual(fetched, ONLY, 'a sequence example downloads the script and nothing else');
    console.log(`${how}: the classic bundle is ${brotliBytes(readFileSync(path.join(dir, fetched[0])))} bytes brotli`);
    // pointing at a cell: the caption is the core's arithmetic (the explain part, inside the script)
    const scores = a.example('translation').stages.find((s) => s.id === 'scores');
    const cellAt = (i, j) => sequence.page.locator(`attention-stepper figure.role-result td.cell[data-i="${i}"][data-j="${j}"]`);
    await cellAt(0, 1).hover();
    const first = (await shown(sequence.page)).caption;
    assert.match(first, new RegExp(`^e\\[猫, cat\\] = .+ = ${cell(scores.data[1])}$`));
    await cellAt(1, 2).hover();
    assert.match((await shown(sequence.page)).caption, /^e\[坐, sat\] = /);
    assert.deepEqual(sequence.requested.filter((f) => f !== 'post.html'), ONLY, 'a cell\'s arithmetic fetches nothing more');
    await sequence.page.close();

    const both = savedPost(`<attention-stepper example="translation" stage="weights"></attention-stepper>
<attention-stepper example="se-block" stage="output"></attention-stepper>
<attention-stepper example="cbam-block" stage="output"></attention-stepper>`);
    const server2 = how === 'http' ? await serveStatic(both, { onRequest: (p) => served.push(p) }) : null;
    t.after(() => server2?.close());
    const url2 = server2 ? `${server2.url}post.html` : String(pathToFileURL(path.join(both, 'post.html')));
    const vision = await openLogged(url2, 3);
    assert.deepEqual(vision.requested.filter((f) => f !== 'post.html'), ONLY, 'vision blocks fetch nothing more');
    const values = await vision.page.evaluate(() => [...document.querySelectorAll('attention-stepper')[1].shadowRoot
      .querySelectorAll('figure.tensor.role-result .vcell')].map((c) => [+c.dataset.index, +c.dataset.value]));
    const output = a.example('se-block').stages.find((s) => s.id === 'output');
    assert.ok(values.length > 10, 'the SE block\'s output is drawn');
    for (const [index, value] of values) assert.equal(value, output.data[index], `output[${index}] is the core's`);
    if (how === 'file') await vision.page.screenshot({ path: path.join(artifacts, 'saved-post-vision.png'), fullPage: true });
    else assert.deepEqual(served, ['/post.html', '/attention-stepper.js', '/post.html', '/attention-stepper.js'], 'the server was asked for the post and the script, twice, and nothing else');
    await vision.page.close();
  });
}

test('the complexity example in a saved post measures its paths from the script alone, from file://', async () => {
  const dir = savedPost('<attention-stepper example="complexity"></attention-stepper>');
  const { page, requested } = await openLogged(String(pathToFileURL(path.join(dir, 'post.html'))), 1);
  // the measured paths (the streaming kernel's time and memory) are drawn once the fast part has run them
  const started = Date.now();
  await page.locator('attention-stepper button.measure-paths').click();
  await page.waitForFunction(() => document.querySelector('attention-stepper').shadowRoot
    .querySelector('section.complexity.paths [data-exponent-stream-mib]'), null, { timeout: 90000 });
  const exponent = await page.evaluate(() => +document.querySelector('attention-stepper').shadowRoot
    .querySelector('section.complexity.paths [data-exponent-stream-mib]').dataset.exponentStreamMib);
  console.log(`the two paths measured in ${Date.now() - started} ms`);
  assert.ok(exponent > 0.7 && exponent < 1.3, `the streaming path's memory grows as n (exponent ${exponent})`);
  assert.deepEqual(requested.filter((f) => f !== 'post.html'), ONLY, 'the panels and the streaming kernel are inside the script');
  await page.close();
});

test('a trainer added to a saved post after it loaded is defined from the script alone, and it trains', async () => {
  // the post adds the element once its stepper is drawn: the script sees it and defines it
  const dir = savedPost('<attention-stepper example="numpy-3x4" stage="weights"></attention-stepper>');
  const { page, requested } = await openLogged(String(pathToFileURL(path.join(dir, 'post.html'))), 1);
  await page.evaluate(() => document.body.append(Object.assign(document.createElement('attention-trainer'), { lang: 'en' })));
  const trainer = page.locator('attention-trainer');
  await page.waitForFunction(() => /^step 0 of \d+$/.test(document.querySelector('attention-trainer')?.shadowRoot?.querySelector('.train-status')?.textContent ?? ''), null, { timeout: 30000 });
  assert.match(await trainer.locator('h2').textContent(), /^Alignment: /);
  await trainer.locator('button.step').click();
  await page.waitForFunction(() => /^step 1 of /.test(document.querySelector('attention-trainer').shadowRoot.querySelector('.train-status').textContent));
  assert.deepEqual(requested.filter((f) => f !== 'post.html'), ONLY, 'the trainer\'s code and the learn part are inside the script');
  await page.close();
});

test('no page errors', () => {
  assert.deepEqual(session.problems, []);
});
