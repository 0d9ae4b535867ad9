// The package in a Vite app, as a JavaScript developer starts one: `npm pack`, the tarball installed into an
// empty project, one page that imports the package, runs a trace, loads the zh model (with onProgress) and
// generates. Served by Vite's dev server (which pre-bundles the package into node_modules/.vite/deps/) and then
// built for production and served by `vite preview`, both read by one headless Chromium. No Vite config file:
// the package's files are found by `new URL(…, import.meta.url)` alone (web/src/package_file.js).
// Kept short for CI: one pack, one install, one dev server, one build, one browser.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, test } from 'node:test';

import { launchChromium, webDir } from './helpers.mjs';

const started = Date.now();
let project;
let browser;
let vite;
let expected; // what the installed package answers in Node, the same core: the page must say the same

before(async () => {
  const packDir = mkdtempSync(path.join(os.tmpdir(), 'attn-vite-pack-'));
  const [{ filename }] = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', packDir], { cwd: webDir }));
  project = mkdtempSync(path.join(os.tmpdir(), 'attn-vite-app-'));
  writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'vite-app', private: true, type: 'module' }));
  execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', path.join(packDir, filename)], { cwd: project, stdio: 'pipe' });
  writeFileSync(path.join(project, 'index.html'), ('<!doctype html><meta charset="utf-8"><title>vite app</title>' +
    '<pre id="out">loading</pre><script type="module" src="./main.js"></script>'));
  // the page a reader of web/README.md writes: nothing but the package's own calls
  writeFileSync(path.join(project, 'main.js'), `
    import { createAttention } from 'attention-playground';
    const out = document.getElementById('out');
    try {
      const a = await createAttention({ parts: [] });
      const w = a.example('translation').stages.find((s) => s.id === 'weights');
      const progress = [];
      const m = await a.loadModel('zh', { onProgress: ({ loaded, total }) => progress.push([loaded, total]) });
      const text = m.generate('床前明月光，', { n: 12, temperature: 0 });
      out.textContent = JSON.stringify({ weights: Array.from(w.data.slice(0, 6), (v) => v.toFixed(4)), text,
        vocab: m.about.vocab_size, progress: progress.at(-1), reports: progress.length });
    } catch (e) {
      out.textContent = JSON.stringify({ error: String(e?.message ?? e) });
    }
  `);
  const installed = path.join(project, 'node_modules/attention-playground');
  const { createAttention } = await import(pathToFileURL(path.join(installed, 'src/node.js')));
  const a = await createAttention({ parts: [] });
  const m = await a.loadModel('zh');
  expected = {
    weights: Array.from(a.example('translation').stages.find((s) => s.id === 'weights').data.slice(0, 6), (v) => v.toFixed(4)),
    text: m.generate('床前明月光，', { n: 12, temperature: 0 }), vocab: m.about.vocab_size,
    bytes: statSync(path.join(installed, 'models/zh.safetensors')).size,
  };
  vite = await import(pathToFileURL(path.join(webDir, 'node_modules/vite/dist/node/index.js')));
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  console.log(`vite test: ${((Date.now() - started) / 1000).toFixed(1)} s in all`);
});

/** The page's report at url, and every request that failed (favicon aside). */
async function report(url) {
  const tab = await browser.newPage();
  const failed = [];
  tab.on('response', (r) => { if (r.status() >= 400 && !r.url().endsWith('/favicon.ico')) failed.push(`${r.status()} ${r.url()}`); });
  tab.on('pageerror', (e) => failed.push(e.message));
  await tab.goto(url);
  await tab.waitForFunction(() => document.getElementById('out').textContent.startsWith('{'), null, { timeout: 60000 });
  const out = JSON.parse(await tab.textContent('#out'));
  await tab.close();
  return { out, failed };
}

function checkReport({ out, failed }, compressed = false) {
  assert.equal(out.error, undefined, out.error);
  assert.deepEqual(out.weights, ['0.0225', '0.8874', '0.0225', '0.0225', '0.0225', '0.0225']); // 猫 → cat
  assert.deepEqual(out.weights, expected.weights);
  assert.equal(out.vocab, expected.vocab);
  assert.equal([...out.text].length, 12);
  assert.equal(out.text, expected.text, 'greedy generation in the page is Node\'s, character for character');
  // the weights' bytes reported as they came, ending at the file's size; the total the server said (vite preview
  // sends them gzipped: a Content-Length of the compressed body says nothing of the file's, so 0, unknown)
  assert.deepEqual(out.progress, [expected.bytes, compressed ? 0 : expected.bytes]);
  assert.ok(out.reports >= 1);
  assert.deepEqual(failed, []);
}

test('vite dev: the pre-bundled package finds its wasm, the lm module and the zh weights', async () => {
  const server = await vite.createServer({ root: project, configFile: false, logLevel: 'error', clearScreen: false,
    server: { host: '127.0.0.1', port: 5173 } });
  await server.listen();
  try {
    const seen = await report(server.resolvedUrls.local[0]);
    checkReport(seen);
  } finally {
    await server.close();
  }
});

test('vite build + preview: the build copies the lm module and both models, and the page loads them', async () => {
  await vite.build({ root: project, configFile: false, logLevel: 'error' });
  const assets = readdirSync(path.join(project, 'dist/assets'));
  for (const file of [/^attention_core-.*\.wasm$/, /^attention_lm-.*\.wasm$/, /^attention_lm-.*\.js$/, /^zh-.*\.safetensors$/, /^en-.*\.safetensors$/]) {
    assert.ok(assets.some((f) => file.test(f)), `the build holds ${file}: ${assets.join(', ')}`);
  }
  // the weights are files beside the bundle, not base64 inside it
  const js = assets.filter((f) => /^index-.*\.js$/.test(f));
  assert.equal(js.length, 1);
  assert.ok(statSync(path.join(project, 'dist/assets', js[0])).size < 100_000, 'the app\'s own bundle stays small');
  const server = await vite.preview({ root: project, configFile: false, logLevel: 'error', preview: { host: '127.0.0.1', port: 4173 } });
  try {
    checkReport(await report(server.resolvedUrls.local[0]), true);
  } finally {
    await server.close();
  }
});
