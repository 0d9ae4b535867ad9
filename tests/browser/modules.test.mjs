// The site's pages over http load the ES modules (site/load.js picks them there). What a visitor fetches before
// a compact translation figure is drawn is the list the build counted against the size budget
// (web/site_modules.mjs, bytesBeforeFirstFigure) and no more; the wasm is compiled as it streams (a server that
// sends it with another type is heard in the glue's fallback, so the check can fail); what a later figure needs
// comes when it is first drawn; a chunk the server has lost is said in one sentence on the figure that needed
// it while the page's other figure keeps working. From file:// the same page takes the classic script.
import assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, test } from 'node:test';
import { pathToFileURL } from 'node:url';

import { bytesBeforeFirstFigure } from '../../web/site_modules.mjs';
import { brotliBytes, EMBED_BUDGET_BYTES, EMBED_ENTRY } from '../../web/size_budget.mjs';
import { createAttention } from '../../web/src/node.js';
import { serveStatic } from '../node/helpers.mjs';
import { browserSession, esmFile, shown, site, siteWith } from './session.mjs';

const session = browserSession();
const esmDir = path.join(site, 'assets/esm');

/** Opens url on a server of dir, logging what the server is asked for and what the console says, until every stepper shows a stage or an error. */
async function openServed(dir, page0, { types, count = 1, wait = true } = {}) {
  const asked = [];
  const server = await serveStatic(dir, { onRequest: (p) => asked.push(p), types });
  after(() => server.close()); // a failed test's server too: an open one keeps node from exiting
  const page = await session.browser.newPage({ viewport: { width: 1000, height: 900 } });
  const said = [];
  page.on('console', (m) => said.push(m.text()));
  page.on('pageerror', (e) => session.problems.push(`${page0}: ${e.message}`));
  await page.goto(server.url + page0);
  if (wait) await page.waitForFunction((n) => {
    const els = [...document.querySelectorAll('attention-stepper')];
    return els.length === n && els.every((e) => e.shadowRoot?.querySelector('.scene, p.error'));
  }, count, { timeout: 30000 });
  await page.waitForLoadState('networkidle');
  return { page, asked, said, close: () => page.close() };
}

test('a compact translation figure over http fetches the entry, its chunks, the worker and the core\'s wasm: the build\'s list, within the budget', async () => {
  const { page, asked, said, close } = await openServed(site, 'embed.html?example=translation&compact&stage=weights&view=matrix&lang=en');
  const counted = bytesBeforeFirstFigure(esmDir, EMBED_ENTRY);
  assert.deepEqual(asked.filter((p) => !p.startsWith('/assets/esm/')), ['/embed.html', '/load.js'], 'the page and its loader, then the ES modules only');
  const fetched = asked.filter((p) => p.startsWith('/assets/esm/')).map((p) => p.slice('/assets/esm/'.length));
  assert.deepEqual([...fetched].sort(), counted.map((f) => f.file).sort(), 'what the browser fetched is what the build counted');
  assert.ok(counted.some((f) => /\.wasm$/.test(f.file)) && counted.some((f) => /^worker-/.test(f.file)));
  const total = fetched.reduce((sum, f) => sum + brotliBytes(readFileSync(path.join(esmDir, f))), 0);
  assert.ok(total <= EMBED_BUDGET_BYTES, `${total} bytes brotli before the first figure, over ${EMBED_BUDGET_BYTES}`);
  assert.ok(!said.some((s) => /streaming compil|falling back/i.test(s)), `the wasm compiled as it streamed: ${said.join(' | ')}`);
  // the figure's numbers are the core's: the weights against the package's own module in Node
  const { stage, cells } = await shown(page);
  assert.equal(stage, 'weights');
  const a = await createAttention();
  const weights = a.example('translation').stages.find((s) => s.id === 'weights');
  const cols = weights.shape.at(-1);
  assert.ok(cells.length >= 4, 'the weights are drawn as cells');
  for (const c of cells) assert.ok(Math.abs(c.value - weights.data[c.i * cols + c.j]) <= 1e-5, `cell ${c.i},${c.j}: drawn ${c.value}, the core ${weights.data[c.i * cols + c.j]}`);
  await close();
});

test('a server that sends the wasm as application/octet-stream is heard in the glue\'s fallback: the streaming check can fail', async () => {
  const { said, page, close } = await openServed(site, 'embed.html?example=translation&compact&lang=en', { types: { '.wasm': 'application/octet-stream' } });
  assert.ok(said.some((s) => /streaming compil|falling back/i.test(s)), `the glue said it could not stream: ${said.join(' | ')}`);
  assert.ok(await page.evaluate(() => document.querySelector('attention-stepper').shadowRoot.querySelector('.scene')), 'and the figure is drawn all the same');
  await close();
});

test('a vision block fetches the vision views and part when first drawn; a chunk the server lost is one sentence, and the other figure works', async () => {
  const later = await openServed(site, 'embed.html?example=se-block&lang=en');
  const first = new Set(bytesBeforeFirstFigure(esmDir, EMBED_ENTRY).map((f) => `/assets/esm/${f.file}`));
  const extra = later.asked.filter((p) => p.startsWith('/assets/esm/') && !first.has(p));
  const views = `/assets/${esmFile('src/stepper/vision_views.js')}`;
  assert.ok(extra.includes(views), `the vision views came when the block was drawn: ${extra.join(', ')}`);
  assert.ok(extra.some((p) => /attention_vision-[\w-]+\.wasm$/.test(p)), 'and the vision part\'s wasm');
  assert.ok(await later.page.evaluate(() => document.querySelector('attention-stepper').shadowRoot.querySelector('.scene')));
  await later.close();

  const dir = siteWith(esmFile('src/stepper/vision_views.js'), null);
  writeFileSync(path.join(dir, 'post.html'), `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A post</title></head><body>
<attention-stepper example="translation" lang="en"></attention-stepper>
<attention-stepper example="se-block" lang="en"></attention-stepper>
<script type="module" src="assets/esm/attention-stepper.js"></script></body></html>`);
  const { page, close } = await openServed(dir, 'post.html', { count: 2 });
  const [translation, vision] = await page.evaluate(() => [...document.querySelectorAll('attention-stepper')].map((el) => ({
    scene: Boolean(el.shadowRoot.querySelector('.scene')), error: el.shadowRoot.querySelector('p.error')?.textContent ?? null })));
  assert.deepEqual(translation, { scene: true, error: null }, 'the sequence figure is drawn');
  assert.match(vision.error ?? '', /^the vision views could not be loaded \([^)]*\)\.$/, `one sentence on the vision block: ${vision.error}`);
  await close();
  rmSync(dir, { recursive: true, force: true });
});

test('the site\'s pages over http load the ES modules, and from file:// the classic script', async () => {
  for (const file of ['playground.html?example=translation', 'train.html', 'index.html', 'docs.html']) {
    const { asked, close } = await openServed(site, file, { wait: false });
    assert.ok(asked.includes('/assets/esm/attention-stepper.js'), `${file} imports the ES entry: ${asked.join(', ')}`);
    if (file === 'index.html') assert.ok(asked.includes('/assets/esm/attention-path.js'), 'the path too');
    assert.ok(!asked.some((p) => /^\/assets\/attention-(stepper|path)[.\w]*\.js$/.test(p)), `${file} loads no classic script: ${asked.join(', ')}`);
    await close();
  }
  const page = await session.browser.newPage();
  const requested = [];
  page.on('request', (r) => requested.push(r.url()));
  await page.goto(`${pathToFileURL(path.join(site, 'playground.html')).href}?example=translation&lang=en`);
  await page.waitForFunction(() => document.querySelector('attention-stepper')?.shadowRoot?.querySelector('.scene'));
  assert.ok(requested.some((u) => u.endsWith('/assets/attention-stepper.js')), 'from file:// the classic script');
  assert.ok(!requested.some((u) => u.includes('/assets/esm/')), 'and no module');
  await page.close();
});

test('no page errors', () => {
  assert.deepEqual(session.problems, []);
});
