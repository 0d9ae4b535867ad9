// The site as scripts/serve.sh serves it before the rest is built: the core and its parts are there, the
// language model's module is not (web/build-site.mjs writes "not built" where its packed wasm goes), nor the
// models' weights or the lab, and assets/building.json says the build goes on. The guided path and the
// playground work; the model mode and the lab say they are still being built, in the page's language, and
// reload themselves once building.json is gone. Without building.json the same missing files are errors.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';

import { collectProblems, launchChromium, serveStatic } from '../node/helpers.mjs';
import { artifacts, site } from './session.mjs';

let browser, server, dir;
const problems = [];

/** A copy of the built site (links) as the first phase of scripts/serve.sh leaves it. */
function firstPhaseSite() {
  const out = mkdtempSync(path.join(os.tmpdir(), 'attn-serve-first-'));
  for (const f of readdirSync(site)) if (f !== 'assets') symlinkSync(path.join(site, f), path.join(out, f));
  const assets = path.join(out, 'assets');
  mkdirSync(path.join(assets, 'models'), { recursive: true });
  for (const f of readdirSync(path.join(site, 'assets'))) {
    if (!['attention-model.js', 'models', 'lab', 'core-threads'].includes(f)) symlinkSync(path.join(site, 'assets', f), path.join(assets, f));
  }
  // the induction lesson's corpus is written with the pages; the weights are trained behind them
  symlinkSync(path.join(site, 'assets/models/lesson-en.js'), path.join(assets, 'models/lesson-en.js'));
  const model = readFileSync(path.join(site, 'assets/attention-model.js'), 'utf8');
  const packed = /"lzma\/1:\d+:[A-Za-z0-9+/=]+"/.exec(model)[0];
  writeFileSync(path.join(assets, 'attention-model.js'), model.replace(packed, '"not built"'));
  writeFileSync(path.join(assets, 'building.json'), '{"building": true}\n');
  return out;
}

before(async () => {
  mkdirSync(artifacts, { recursive: true });
  dir = firstPhaseSite();
  server = await serveStatic(dir);
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function open(url) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  collectProblems(page, problems, `${url}: `);
  await page.goto(server.url + url);
  return page;
}

const statusSoon = (page, pattern) => page.waitForFunction((source) => {
  const p = [...(document.querySelector('attention-model')?.shadowRoot?.querySelectorAll('p') ?? [])].find((el) => new RegExp(source).test(el.textContent));
  return p?.textContent;
}, pattern.source, { timeout: 20000 }).then((h) => h.jsonValue());

test('the guided path and the playground work before the rest is built', async () => {
  const page = await open('index.html?lang=en');
  await page.waitForFunction(() => document.querySelector('.figure[data-drawn]'), null, { timeout: 30000 });
  await page.goto(`${server.url}playground.html?example=numpy-3x4&stage=weights`);
  await page.waitForFunction(() => document.querySelector('attention-stepper')?.shadowRoot?.querySelector('.scene'), null, { timeout: 30000 });
  // a part (the vision blocks) loads as it does on the finished site
  await page.goto(`${server.url}playground.html?example=se-block`);
  await page.waitForFunction(() => document.querySelector('attention-stepper')?.shadowRoot?.querySelector('.scene'), null, { timeout: 30000 });
  await page.close();
});

test('the model mode says its model is still being built, in English and in Chinese, not that it failed', async () => {
  const page = await open('model.html?model=en&text=The%20cat');
  const en = await statusSoon(page, /still being built/);
  assert.equal(en, 'The en model is still being built behind this page (scripts/serve.sh trains it after the pages are served); the page reloads itself when it is ready.');
  assert.deepEqual(await page.evaluate(() => [...document.querySelector('attention-model').shadowRoot.querySelectorAll('[role="alert"]')].map((e) => e.textContent).filter(Boolean)), [], 'no alert');
  await page.screenshot({ path: path.join(artifacts, 'serve-first-model.png') });
  await page.goto(`${server.url}model.html?model=zh&lang=zh`);
  assert.match(await statusSoon(page, /后台构建/), /^zh 模型还在后台构建/);
  await page.close();
});

test('the lab says it is still being built', async () => {
  const page = await open('lab.html');
  await page.waitForFunction(() => /still being built/.test(document.getElementById('loading')?.textContent ?? ''), null, { timeout: 20000 });
  await page.close();
});

test('once the build is done (building.json gone) the model mode reloads itself; the same missing model is then an error', async () => {
  const page = await open('model.html?model=en&text=The%20cat');
  await statusSoon(page, /still being built/);
  const reloaded = page.waitForEvent('load', { timeout: 20000 });
  rmSync(path.join(dir, 'assets/building.json'));
  await reloaded;
  const text = await statusSoon(page, /could not be loaded/);
  assert.match(text, /^The model could not be loaded: (models\/en\.js could not be read|the language model's module is not built yet\.)$/);
  assert.equal(await page.evaluate(() => document.querySelector('attention-model').shadowRoot.querySelector('p.error[role="alert"]')?.textContent), text, 'said as an alert');
  await page.close();
});

test('no page errors but the missing files\' own', () => {
  assert.deepEqual(problems.filter((p) => !/Failed to load resource/.test(p)), []);
});
