// The wasm-threads module: the playground served cross-origin isolated (COOP/COEP, as scripts/serve.sh
// serves it) runs its elements' a.attention on it (in their core worker), and the package's a.attention
// splits its rows between workers with the same floats, bit for bit, as the one-thread module; embeds,
// and any page that is not isolated, never load it.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';

import { collectProblems, launchChromium, repo, serveStatic } from '../node/helpers.mjs';
import { site, writeLyingFolder } from './session.mjs';

const isolation = { 'cross-origin-opener-policy': 'same-origin', 'cross-origin-embedder-policy': 'require-corp' };
let browser, isolated, plain;
before(async () => {
  [isolated, plain] = await Promise.all([serveStatic(site, { headers: isolation }), serveStatic(site)]);
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await Promise.all([isolated?.close(), plain?.close()]);
});

/** A page at url once its (first) stepper has a core; what it asked the server for, and its console errors. */
async function open(url) {
  const page = await browser.newPage();
  const requests = [], problems = collectProblems(page);
  page.on('request', (r) => requests.push(r.url()));
  await page.goto(url);
  await page.waitForFunction(() => document.querySelector('attention-stepper')?.attention);
  return { page, requests, problems };
}

test('isolated playground: the elements\' core worker runs a.attention on the wasm-threads module', async () => {
  const { page, requests, problems } = await open(`${isolated.url}playground.html`);
  const report = await page.evaluate(() => ({
    isolated: crossOriginIsolated, threads: document.querySelector('attention-stepper').attention.threads, cores: navigator.hardwareConcurrency,
  }));
  assert.equal(report.isolated, true);
  assert.equal(report.threads, Math.min(4, report.cores), 'the pool of 3 workers and the core\'s worker, at most one a core');
  assert.ok(requests.some((u) => u.endsWith('/core-threads/attention_core.worker.js')), 'the pool\'s workers started');
  assert.deepEqual(problems, []);
  await page.close();
});

test('a post served isolated: the classic bundle whose tag names data-threads runs a.attention on the wasm-threads module', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'attn-threads-post-'));
  symlinkSync(path.join(site, 'assets/attention-stepper.js'), path.join(dir, 'attention-stepper.js'));
  symlinkSync(path.join(site, 'assets/core-threads'), path.join(dir, 'core-threads'));
  writeFileSync(path.join(dir, 'post.html'), '<!doctype html><meta charset="utf-8"><title>A post</title>' +
    '<script src="attention-stepper.js" data-threads="core-threads/attention_core.js"></script><attention-stepper example="numpy-3x4"></attention-stepper>');
  const server = await serveStatic(dir, { headers: isolation });
  t.after(() => server.close());
  const { page, requests, problems } = await open(`${server.url}post.html`);
  const report = await page.evaluate(() => ({ threads: document.querySelector('attention-stepper').attention.threads, cores: navigator.hardwareConcurrency }));
  assert.equal(report.threads, Math.min(4, report.cores), 'the threads module, from the script\'s own tag');
  assert.ok(requests.some((u) => u.endsWith('/core-threads/attention_core.worker.js')), 'the pool\'s workers started');
  assert.deepEqual(problems, []);
  await page.close();
});

test('embeds and pages that are not isolated stay on one thread and never fetch the threads module', async () => {
  for (const url of [`${isolated.url}embed.html`, `${plain.url}playground.html`]) {
    const { page, requests, problems } = await open(url);
    assert.equal(await page.evaluate(() => document.querySelector('attention-stepper').attention.threads), 1, url);
    assert.deepEqual(requests.filter((u) => u.includes('core-threads')), [], url);
    assert.deepEqual(problems, [], url);
    await page.close();
  }
});

test('the npm package in an isolated page: createAttention({threads: true}) loads dist/core-threads; a wrong option is refused', async () => {
  const dir = path.join(repo, 'build/test-artifacts/threads-esm');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'index.html'), `<!doctype html><meta charset="utf-8"><title>esm</title>
<script type="module">
  import { createAttention } from '/web/src/index.js';
  const threaded = await createAttention({ threads: true });
  const single = await createAttention();
  let refused = '';
  try { await createAttention({ threads: 'yes' }); } catch (e) { refused = e.name + ': ' + e.message; }
  // a.trace on shared memory: the spec's text goes in and a refusal's sentence comes out through it
  const traced = ['cbam-block', 'masking'].map((id) => {
    const spec = single.example(id).spec;
    const [mine, theirs] = [threaded.trace(spec), single.trace(JSON.stringify(spec))];
    return mine.stages.every((s, k) => s.data.every((v, i) => Object.is(v, theirs.stages[k].data[i]))) && JSON.stringify({ ...mine, compute_ms: 0 }) === JSON.stringify({ ...theirs, compute_ms: 0 });
  });
  let ragged = '';
  try { threaded.trace({ x: [[1, 2], [3]] }); } catch (e) { ragged = e.message; }
  // a.attention split between the pool's workers: the same floats, bit for bit, as one thread
  const random = (n, seed) => {
    const out = new Float32Array(n);
    let s = seed;
    for (let i = 0; i < n; i++) { s = (s * 1103515245 + 12345) >>> 0; out[i] = (s / 4294967296) * 2 - 1; }
    return out;
  };
  const cases = [];
  for (const [n, d, heads, causal] of [[1024, 64, 1, false], [777, 64, 4, true], [2048, 32, 2, false], [40, 8, 1, true]]) {
    const q = random(n * d, 1), k = random(n * d, 2), v = random(n * d, 3);
    const a = threaded.attention({ q, k, v, d, heads, causal }), b = single.attention({ q, k, v, d, heads, causal });
    let differ = 0;
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) differ++;
    cases.push([n, differ, a.length > 0]);
  }
  // many threaded calls in one task: each call's workers go back to the pool when it joins them (a
  // call that found the pool empty would wait for a new worker that cannot start: the page would freeze)
  const small = random(256 * 64, 5);
  for (let i = 0; i < 12; i++) threaded.attention({ q: small, k: small, v: small, d: 64 });
  // the threads module refuses as every module does: its sentence through attn_error, and it keeps working
  const sentences = [[Float32Array.of(1, 0, 0, NaN), 2], [Float32Array.of(3e38, 3e38, 3e38, 3e38), 2]].map(([bad, d]) => {
    try { threaded.attention({ q: bad, k: bad, v: bad, d }); return 'computed'; } catch (e) { return e.name + ': ' + e.message; }
  });
  const after = threaded.attention({ q: small, k: small, v: small, d: 64 }).every(Number.isFinite);
  // the language model from the package's own files: its glue finds its .wasm beside it (locateFile in index.js)
  const model = await single.loadModel('en');
  const lm = model.trace('the cat').stages.some((s) => s.id === 'weights');
  // speed, side by side (reported, not asserted: this machine is shared)
  const n = 2048, d = 64, q = random(n * d, 4);
  const time = (api) => { const t0 = performance.now(); for (let i = 0; i < 3; i++) api.attention({ q, k: q, v: q, d }); return (performance.now() - t0) / 3; };
  time(threaded); time(single);
  const ms = { threaded: time(threaded), single: time(single) };
  window.report = { threads: threaded.threads, single: single.threads, same: threaded === await createAttention({ threads: true }), refused, traced, ragged, cases, sentences, after, lm, ms };
</script>`);
  const server = await serveStatic(repo, { headers: isolation });
  try {
    const page = await browser.newPage();
    const problems = collectProblems(page);
    await page.goto(`${server.url}build/test-artifacts/threads-esm/index.html`);
    const report = await page.waitForFunction(() => window.report).then((h) => h.jsonValue());
    const cores = await page.evaluate(() => navigator.hardwareConcurrency);
    const { ms } = report;
    delete report.ms;
    console.log(`a.attention n = 2048, d = 64 in Chromium: ${ms.single.toFixed(1)} ms on one thread, ` +
      `${ms.threaded.toFixed(1)} ms on ${report.threads} (${(ms.single / ms.threaded).toFixed(2)}×)`);
    assert.deepEqual(report, { threads: Math.min(4, cores), single: 1, same: true,
      cases: [[1024, 0, true], [777, 0, true], [2048, 0, true], [40, 0, true]],
      refused: 'AttentionError: options.threads is yes but must be true or false.', traced: [true, true],
      ragged: 'row 2 of x has 1 values but row 1 has 2: every row needs the same length.',
      sentences: ['AttentionError: q[3] is not a finite number.',
        'AttentionError: the attention overflowed the float range: q·kᵀ or the weighted sum of v is too large for float32.'], after: true, lm: true });
    assert.deepEqual(problems, []);
    await page.close();
  } finally {
    await server.close();
  }
});

// A model you bring on the threads module: its linear layers and heads shared between the pool's workers give the
// same floats, bit for bit, as the one-thread module; it refuses what the one-thread module refuses, in the same
// sentence, and keeps working; model mode on an isolated site opens a chosen folder on it.
const llama = path.join(repo, 'build/native/test_models/llama-f32'); // trained by scripts/models.sh
const gpt2 = path.join(repo, 'build/native/test_models/gpt2-f32');

/** In a page of the repository: the folder's trace (a checksum of each stage's bits), next tokens, refusals. */
const folderReport = async ({ threads, url, lying, gpt2 }) => {
  const { createAttention } = await import('/web/src/index.js');
  const a = await createAttention({ threads, parts: [] });
  const m = await a.loadModel(url);
  const text = '我今天去了火锅店，那家店需要提前预约吗？ The cat sat.';
  const bits = (data) => { // FNV-1a over the floats' bits: equal only if every float is
    let h = 2166136261;
    for (const u of new Uint32Array(data.buffer, data.byteOffset, data.length)) h = Math.imul(h ^ u, 16777619) >>> 0;
    return h;
  };
  const t = m.trace(text, { next: 5 });
  const stages = t.stages.map((s) => [s.id, s.layer, s.shape.join('×'), bits(s.data)]);
  const step = m.step(text).stages.map((s) => [s.id, s.layer, bits(s.data)]);
  // 240 tokens: every linear op and attention's heads are then shared between the threads (over 2^19 multiply-adds)
  const long = m.trace('The cat sat. '.repeat(60)).stages.map((s) => [s.id, s.layer, s.shape.join('×'), bits(s.data)]);
  // and GPT-2's: its GELU and LayerNorm, where the Llama model has SiLU and RMSNorm
  const g = await a.loadModel(gpt2);
  const longGpt2 = g.trace('The cat sat. '.repeat(60)).stages.map((s) => [s.id, s.layer, s.shape.join('×'), bits(s.data)]);
  const refusals = [];
  for (const bad of [() => m.next(''), () => m.trace('x'.repeat(5000))]) {
    try { bad(); refusals.push('computed'); } catch (e) { refusals.push(`${e.name}: ${e.message}`); }
  }
  try { await a.loadModel(lying); refusals.push('opened'); } catch (e) { refusals.push(`${e.name}: ${e.message.replace(location.origin, '')}`); }
  return { threads: m.threads, relaxedSimd: m.relaxedSimd, stages, step, long, longGpt2, next: t.next, nextAlone: m.next(text, 5), generated: m.generate('The', { n: 12, temperature: 0 }).text, refusals };
};

test('a model folder on the threads module: the same bits as one thread, the same refusals, and model mode opens one on it', async () => {
  const lying = writeLyingFolder(llama, path.join(repo, 'build/test-artifacts/threads-lying')); // its first tensor past the file's end
  const server = await serveStatic(repo, { headers: isolation });
  const plainRepo = await serveStatic(repo);
  try {
    const reports = [];
    for (const [origin, threads] of [[server.url, true], [plainRepo.url, false]]) {
      const page = await browser.newPage();
      const problems = collectProblems(page);
      await page.goto(`${origin}site/docs.html`);
      reports.push(await page.evaluate(folderReport, { threads, url: `${origin}${path.relative(repo, llama)}/`, lying: `${origin}${path.relative(repo, lying)}/`, gpt2: `${origin}${path.relative(repo, gpt2)}/` }));
      assert.deepEqual(problems.filter((p) => !/404/.test(p)), [], 'a folder\'s optional files may be missing (404); nothing else');
      await page.close();
    }
    const [threaded, single] = reports;
    const cores = await (await browser.newPage()).evaluate(() => navigator.hardwareConcurrency);
    assert.equal(threaded.threads, Math.min(4, cores));
    assert.equal(single.threads, 1);
    // Chromium runs relaxed SIMD: both are the relaxed twins (web/src/relaxed_simd.js), whose bits these compare
    assert.deepEqual([threaded.relaxedSimd, single.relaxedSimd], [true, true]);
    assert.ok(threaded.stages.length > 40 && threaded.stages.some(([id]) => id === 'q_rot'));
    assert.deepEqual(threaded.stages, single.stages, 'every stage of the trace, bit for bit');
    assert.deepEqual(threaded.step, single.step, 'the cached step, bit for bit');
    assert.ok(Number(threaded.long.find(([id]) => id === 'q')[2].split('×')[1]) >= 200, 'the long text is long');
    assert.deepEqual(threaded.long, single.long, 'a long text\'s trace, every op shared between the threads, bit for bit');
    assert.ok(threaded.longGpt2.some(([id, , shape]) => id === 'mlp_act' && Number(shape.split('×')[0]) >= 200), 'GPT-2\'s GELU over 2^19 / 20 values: shared');
    assert.deepEqual(threaded.longGpt2, single.longGpt2, 'GPT-2\'s long trace, its GELU shared between the threads, bit for bit');
    assert.deepEqual(threaded.next, threaded.nextAlone, 'the trace\'s next tokens are next()\'s');
    assert.deepEqual([threaded.next, threaded.generated], [single.next, single.generated]);
    assert.deepEqual(threaded.refusals, single.refusals);
    assert.match(threaded.refusals[0], /^AttentionError: the text makes no token/);
    assert.match(threaded.refusals[2], /^AttentionError: .*model\.safetensors/);
  } finally {
    await Promise.all([server.close(), plainRepo.close()]);
  }
  // model mode on the isolated site: "Open a model…", the folder chosen; its worker opens it on the threads module
  const page = await browser.newPage();
  const requests = [], problems = collectProblems(page);
  page.on('request', (r) => requests.push(r.url()));
  await page.goto(`${isolated.url}model.html`);
  const chooser = page.waitForEvent('filechooser');
  await page.locator('attention-model').getByRole('button', { name: /Open a model/ }).first().click();
  await (await chooser).setFiles(llama);
  const line = page.locator('attention-model').locator('[data-threads]');
  await line.waitFor({ timeout: 60000 });
  const cores = await page.evaluate(() => navigator.hardwareConcurrency);
  assert.equal(await line.getAttribute('data-threads'), String(Math.min(4, cores)));
  if (cores > 1) assert.match(await line.textContent(), new RegExp(`runs on ${Math.min(4, cores)} threads`));
  assert.ok(requests.some((u) => u.endsWith('/hf-threads/relaxed/attention_hf.worker.js')), 'the folder worker\'s pool started, on the relaxed twin');
  assert.equal(await line.getAttribute('data-simd'), 'relaxed');
  assert.match(await line.textContent(), /fused multiply-add \(relaxed SIMD\)/);
  assert.deepEqual(problems, []);
  await page.close();
});
