// The npm tarball as a stranger uses it: `npm pack`, installed into an empty project, then
// imported from Node ESM, type-checked with TypeScript, and dropped into a plain page that headless Chromium
// runs (a Vite app: vite.test.mjs).
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { MODULES, PARTS } from '../../web/module_facts.mjs';
import { brotliBytes } from '../../web/size_budget.mjs';
import { before, test } from 'node:test';

import { attnCli, launchChromium, repo, serveStatic, webDir } from './helpers.mjs';

const bin = (name) => path.join(webDir, 'node_modules/.bin', name);
let project; // an empty project with only the tarball installed
let tarball;

before(() => {
  const packDir = mkdtempSync(path.join(os.tmpdir(), 'attn-pack-'));
  const packed = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', packDir], { cwd: webDir }));
  tarball = { file: path.join(packDir, packed[0].filename), files: packed[0].files.map((f) => f.path), size: packed[0].size };
  project = mkdtempSync(path.join(os.tmpdir(), 'attn-stranger-'));
  writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'stranger', private: true, type: 'module' }));
  // --offline: the package has no dependencies, so installing it must not need the registry
  execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', tarball.file], { cwd: project, stdio: 'pipe' });
});

test('the tarball holds the loader, the wasm (and its wasm-threads build), the types and the README, and nothing else', () => {
  const files = [...tarball.files].sort();
  // every source file of web/src (as the repository has them) and the built files; nothing else
  const sources = readdirSync(path.join(webDir, 'src'), { recursive: true }).filter((f) => f.endsWith('.js')).map((f) => `src/${f}`);
  const threads = [...['attention_core.js', 'attention_core.wasm', 'attention_core.worker.js'].map((f) => `dist/core-threads/${f}`),
    ...['attention_hf.js', 'attention_hf.wasm', 'attention_hf.worker.js'].map((f) => `dist/hf-threads/${f}`)];
  const lm = ['dist/lm/attention_lm.js', 'dist/lm/attention_lm.wasm', 'dist/hf/attention_hf.js', 'dist/hf/attention_hf.wasm', 'models/en.safetensors', 'models/zh.safetensors'];
  // the model element's one-file script and its weights' scripts beside it (docs.html, "The model element"), and the worker of a model you bring beside the folders' module
  const modelElement = ['dist/attention-model.js', 'dist/models/en.js', 'dist/models/zh.js', 'dist/hf/folder-worker.js'];
  // the relaxed-SIMD twins' .wasm beside their modules' (wasm/parts.json's "relaxed")
  const relaxed = MODULES.filter((m) => m.relaxed).flatMap(({ name, target, relaxed }) =>
    ['js', 'wasm', ...(name.endsWith('-threads') ? ['worker.js'] : [])].map((ext) => `dist/${name}/${relaxed}/${target}.${ext}`));
  const parts = PARTS.flatMap(({ name, target }) => [`dist/${name}/${target}.js`, `dist/${name}/${target}.wasm`]);
  assert.deepEqual(files, ['LICENSE', 'README.md', 'custom-elements.json', 'dist/attention-stepper.js', 'dist/core/attention_core.js', 'dist/core/attention_core.wasm', ...threads, ...lm, ...relaxed, ...modelElement, ...parts, 'package.json',
    ...sources, 'types/index.d.ts', 'types/stepper.d.ts'].sort());
  console.log(`tarball: ${tarball.size} bytes packed`);
});

test('the parts are the ones wasm/parts.json names: parts.js, part_files.js, the types, package.json and every module\'s files', async () => {
  const names = PARTS.map((p) => p.name);
  const { PART_NAMES } = await import('../../web/src/parts.js');
  assert.deepEqual([...PART_NAMES], names, 'web/src/parts.js');
  // part_files.js spells each part's files literally, so that a bundler follows them
  const partFiles = readFileSync(path.join(webDir, 'src/part_files.js'), 'utf8');
  assert.deepEqual([...partFiles.matchAll(/^ {2}(\w+): \(\) => \[import\('\.\.\/dist\/(\w+)\/(\w+)\.js'\)/gm)].map((m) => [m[1], m[2], m[3]]),
    PARTS.map((p) => [p.name, p.name, p.target]), 'web/src/part_files.js');
  const dts = readFileSync(path.join(webDir, 'types/index.d.ts'), 'utf8');
  assert.deepEqual(dts.match(/export type PartName = ([^;]+);/)[1].match(/'([a-z-]+)'/g).map((x) => x.slice(1, -1)), names, 'PartName in index.d.ts');
  // every module the package ships, with its glue and wasm
  const pkg = JSON.parse(readFileSync(path.join(webDir, 'package.json'), 'utf8'));
  const shipped = MODULES.filter((m) => m.name !== 'lab').flatMap(({ name, target }) => [`dist/${name}/${target}.js`, `dist/${name}/${target}.wasm`]);
  for (const file of shipped) assert.ok(pkg.files.includes(file), `package.json's files name ${file}`);
  // each module's factory is the name its glue exports
  for (const { name, target, factory } of MODULES.filter((m) => m.name !== 'lab')) {
    assert.match(readFileSync(path.join(webDir, 'dist', name, `${target}.js`), 'utf8'), new RegExp(`export default ${factory};\\s*$`), `dist/${name}/${target}.js exports ${factory}`);
  }
});

test('the tarball carries the repository\'s MIT licence, and package.json says where its manifest and source are', () => {
  const pkg = JSON.parse(readFileSync(path.join(project, 'node_modules/attention-playground/package.json'), 'utf8'));
  const licence = readFileSync(path.join(project, 'node_modules/attention-playground/LICENSE'), 'utf8');
  assert.equal(licence, readFileSync(path.join(repo, 'LICENSE'), 'utf8'), 'web/LICENSE is the repository\'s LICENSE');
  assert.match(licence, /^MIT License\n/);
  assert.equal(pkg.license, 'MIT');
  assert.deepEqual(pkg.repository, { type: 'git', directory: 'web' });
  assert.equal(pkg.customElements, 'custom-elements.json');
});

test('the model element is exported by the package: attention-playground/attention-model.js and its weights\' scripts resolve', () => {
  // ERR_PACKAGE_PATH_NOT_EXPORTED before: the element was in the site only
  const resolved = execFileSync(process.execPath, ['--input-type=module', '-e',
    "for (const s of ['attention-playground/attention-model.js', 'attention-playground/models/zh.js', 'attention-playground/models/en.js']) console.log(import.meta.resolve(s))"],
  { cwd: project, encoding: 'utf8' }).trim().split('\n');
  const root = pathToFileURL(path.join(project, 'node_modules/attention-playground')).href;
  assert.deepEqual(resolved, [`${root}/dist/attention-model.js`, `${root}/dist/models/zh.js`, `${root}/dist/models/en.js`]);
  const script = readFileSync(path.join(project, 'node_modules/attention-playground/dist/attention-model.js'), 'utf8');
  for (const tag of ['attention-model', 'attention-folder-model']) assert.ok(script.includes(`"${tag}"`) && script.includes('customElements.define('), `the script defines <${tag}>`);
  for (const name of ['zh', 'en']) {
    assert.equal(readFileSync(path.join(project, `node_modules/attention-playground/dist/models/${name}.js`), 'utf8'),
      readFileSync(path.join(repo, `site/assets/models/${name}.js`), 'utf8'), `dist/models/${name}.js is the site's`);
  }
});

test('custom-elements.json documents every attribute, event, CSS custom property and part the elements\' source has', () => {
  const manifest = JSON.parse(readFileSync(path.join(webDir, 'custom-elements.json'), 'utf8'));
  const read = (dir) => readdirSync(path.join(webDir, dir)).filter((f) => f.endsWith('.js')).map((f) => readFileSync(path.join(webDir, dir, f), 'utf8')).join('\n');
  const found = (text, re) => [...new Set([...text.matchAll(re)].map((m) => m[1]))].sort();
  // the model element's folder also holds the induction lesson's element: its file alone
  for (const [tag, dir, only] of [['attention-stepper', 'src/stepper'], ['attention-trainer', 'src/trainer'], ['attention-model', 'src/model', 'element.js']]) {
    const element = manifest.modules.flatMap((m) => m.declarations).find((d) => d.tagName === tag);
    assert.ok(element, `${tag} is in the manifest`);
    const source = only ? readFileSync(path.join(webDir, dir, only), 'utf8') : read(dir);
    const elementFile = readFileSync(path.join(webDir, dir, 'element.js'), 'utf8');
    const names = (list) => list.map((x) => x.name).sort();
    const observed = found(elementFile, /observedAttributes\(\)\s*\{\s*return \[([^\]]*)\]/g).join(',').match(/[a-z-]+/g);
    const read_ = found(elementFile, /this\.(?:has|get)Attribute\('([a-z-]+)'\)/g).filter((a) => !['tabindex', 'aria-label'].includes(a));
    for (const attribute of [...observed, ...read_]) assert.ok(names(element.attributes).includes(attribute), `${tag}'s attribute ${attribute} is documented`);
    assert.deepEqual(names(element.events), found(source, /new CustomEvent\('([a-z]+)'/g), `${tag}'s events`);
    assert.deepEqual(names(element.cssParts), found(source, /part: '([a-z-]+)'/g), `${tag}'s parts`);
    // a property the element sets on itself (style.setProperty) is its own business, not the page's
    const own = found(source, /setProperty\('(--[a-z0-9-]+)'/g);
    assert.deepEqual(names(element.cssProperties), found(source, /var\((--[a-z0-9-]+)/g).filter((p) => !own.includes(p)), `${tag}'s CSS custom properties`);
  }
});

/**
 * The bytes of the string literal (web/build-site.mjs, byteString) that holds a wasm module in text, read
 * here from the format's description, not with the package's decoder: after its tag, the character of each
 * byte value 0 … 255, then one character a byte.
 */
/**
 * The wasm model mode's script carries, packed ('lzma/1:<size>:<base64>', web/build-site.mjs): unpacked here by
 * Debian's xz, an LZMA decoder other than the worker's (js-lzma), and by the worker's own code, which must agree.
 */
async function packedWasmIn(text) {
  const packed = /"(lzma\/1:(\d+):([A-Za-z0-9+/=]+))"/.exec(text);
  assert.ok(packed, 'the wasm packed as a string');
  const bytes = execFileSync('xz', ['--format=lzma', '--decompress', '--stdout'], { input: Buffer.from(packed[3], 'base64') });
  assert.equal(bytes.length, Number(packed[2]), 'as many bytes as the string says');
  assert.equal(bytes.subarray(0, 4).toString('latin1'), '\0asm', 'a wasm module');
  const { unpackWasm } = await import(pathToFileURL(path.join(webDir, 'src/model/unpack_wasm.js')));
  assert.deepEqual(Buffer.from(unpackWasm(packed[1])), bytes, 'the worker unpacks the same bytes');
  return bytes;
}

test('the classic bundle holds the core\'s and every part\'s wasm, byte for byte, and no model', () => {
  const installed = (file) => readFileSync(path.join(project, 'node_modules/attention-playground', file));
  const bundle = installed('dist/attention-stepper.js').toString('utf8');
  // every file inside it is a data: URL (a library build's): decoded here, each must be one of the package's modules
  const inside = [...bundle.matchAll(/data:([a-z/+-]+);base64,([A-Za-z0-9+/=]+)/g)].map((m) => ({ type: m[1], bytes: Buffer.from(m[2], 'base64') }));
  const modules = ['core', ...PARTS.map((p) => p.name)].map((name) => ({ name, bytes: installed(`dist/${name}/${MODULES.find((m) => m.name === name).target}.wasm`) }));
  assert.deepEqual(inside.map((f) => f.type), modules.map(() => 'application/wasm'), 'one wasm per module, nothing else (no model\'s weights, no lm)');
  for (const { name, bytes } of modules) assert.ok(inside.some((f) => f.bytes.equals(bytes)), `the ${name} module's wasm, as in dist/`);
  console.log(`the classic bundle: ${bundle.length} characters, ${brotliBytes(Buffer.from(bundle))} bytes brotli`);
});

test('model mode\'s script holds the language model\'s wasm, packed, which xz and its worker unpack alike', async () => {
  const script = readFileSync(path.join(project, 'node_modules/attention-playground/dist/attention-model.js'), 'utf8');
  const wasm = await packedWasmIn(script);
  assert.deepEqual(wasm, readFileSync(path.join(project, 'node_modules/attention-playground/dist/lm/attention_lm.wasm')));
});

test('Node ESM: import from the installed package and trace', () => {
  writeFileSync(path.join(project, 'app.mjs'), `
    import { createAttention, AttentionError } from 'attention-playground';
    const a = await createAttention();
    const w = a.example('numpy-3x4').stages.find((s) => s.id === 'weights');
    let refused = '';
    try { a.trace({ x: [[1, 2], [3]] }); } catch (e) { refused = e instanceof AttentionError ? e.message : 'wrong type'; }
    console.log(JSON.stringify({ row: Array.from(w.data.slice(0, 3), (v) => v.toFixed(4)), refused }));
  `);
  const out = JSON.parse(execFileSync('node', ['app.mjs'], { cwd: project }).toString());
  assert.deepEqual(out.row, ['0.5065', '0.1863', '0.3072']);
  assert.equal(out.refused, 'row 2 of x has 1 values but row 1 has 2: every row needs the same length.');
});

test('Node ESM: the installed package loads the zh and en models, traces, predicts and generates', () => {
  writeFileSync(path.join(project, 'model.mjs'), `
    import { createAttention } from 'attention-playground';
    const a = await createAttention();
    const out = {};
    for (const name of ['zh', 'en']) {
      const m = await a.loadModel(name);
      const t = m.trace(name === 'zh' ? '床前明月光' : 'The cat');
      out[name] = { stages: t.stages.length, layers: Math.max(...t.stages.map((s) => s.layer ?? 0)) + 1,
        next: m.next(name === 'zh' ? '床前明月' : 'The ca', 3).length, text: m.generate(name === 'zh' ? '床前' : 'The ', { n: 40, seed: 7 }) };
    }
    console.log(JSON.stringify(out));
  `);
  const out = JSON.parse(execFileSync('node', ['model.mjs'], { cwd: project }).toString());
  for (const name of ['zh', 'en']) {
    assert.equal(out[name].layers, 2);
    assert.ok(out[name].stages > 40);
    assert.equal(out[name].next, 3);
    assert.equal([...out[name].text].length, 40);
    console.log(`${name} from the installed package: ${JSON.stringify(out[name].text)}`);
  }
});

test('Node ESM: the installed package loads a model folder (the trained Llama test model, BF16) and generates what the CLI generates', () => {
  const folder = path.join(repo, 'build/native/test_models/llama-bf16');  // scripts/models.sh trains it
  writeFileSync(path.join(project, 'folder.mjs'), `
    import { readFileSync } from 'node:fs';
    import { createAttention } from 'attention-playground';
    const a = await createAttention();
    const read = (name) => new Uint8Array(readFileSync(${JSON.stringify(folder)} + '/' + name));
    const m = await a.loadModel({ config: read('config.json'), weights: read('model.safetensors'), tokenizer: read('tokenizer.json') });
    const t = m.trace('我今天去了火锅店，那家店需要提前预约吗？');
    console.log(JSON.stringify({ about: m.about, stages: t.stages.length, rotated: t.stages.filter((s) => s.id === 'k_rot').map((s) => s.shape),
      text: m.generate('The', { n: 20, temperature: 0.7, seed: 1 }).text }));
    m.dispose();
  `);
  const out = JSON.parse(execFileSync('node', ['folder.mjs'], { cwd: project }).toString());
  assert.equal(out.about.architecture, 'llama');
  assert.equal(out.about.dtype, 'BF16');
  assert.equal(out.stages, 50);  // embed, 2 layers of 23 stages, norm_f, logits, probs
  assert.deepEqual(out.rotated, [[2, 17, 16], [2, 17, 16]]);  // 2 key/value heads for 4 query heads, 17 tokens
  const cli = execFileSync(attnCli, ['lm', 'generate', '--model', folder, '--prompt', 'The', '--n', '20', '--temperature', '0.7', '--seed', '1'], { encoding: 'utf8' });
  assert.equal(out.text, cli.replace(/\n$/, ''));
  assert.match(out.text, /[a-z]{3,} [a-z]{2,}/);  // words, as the fortunes have them
  console.log(`the trained Llama test model from the installed package: ${JSON.stringify(out.text)}`);
});

test('TypeScript: the declarations type a real program, and reject a wrong stage id', () => {
  const tsc = (file) => spawnSync(bin('tsc'), ['--noEmit', '--strict', '--target', 'es2022', '--module', 'nodenext',
    '--moduleResolution', 'nodenext', file], { cwd: project });
  writeFileSync(path.join(project, 'good.mts'), `
    import { createAttention, AttentionError, type Spec, type StageId, type Trace, type VisionSpec, type VisionTrace, type VisionStageId } from 'attention-playground';
    const spec: Spec = { x: [[1, 0], [0, 1]], mask: { window: 2 }, heads: 1, weights: { wq: [[1, 0], [0, 1]] } };
    const a = await createAttention();
    const t: Trace = a.trace(spec);
    const id: StageId = t.stages[0].id;
    const data: Float32Array = t.stages[0].data;
    const zh: string = t.stages[0].explain.zh + t.stages[0].title_zh;
    const e: Error = new AttentionError('x');
    console.log(id, data.length, zh, e.message, a.catalog()[0].title.en, a.examples()[0].length, t.spec.mask_value);
    const vision: VisionSpec = { kind: 'vision', block: 'eca', feature: [[[1]], [[2]], [[3]]], eca: { w: [1, 2, 1] } };
    const v: VisionTrace = a.trace(vision);
    const gate: VisionStageId = v.stages[3].id;
    const se: VisionTrace = a.example('se-block');
    const either = a.trace(JSON.stringify(vision));
    if (either.kind === 'vision') console.log(either.spec.block);
    console.log(gate, se.spec.channels[0], a.explain(v, 'gate', { index: 1 }));
    const fast: Float32Array = a.attention({ q: new Float32Array(8), k: new Float32Array(8), v: new Float32Array(8), d: 4, heads: 2, causal: true });
    console.log(fast.length, a.attentionBytes({ nQ: 2, nK: 2, d: 4 }));
    const g = a.grad({ x: [[1, 0]], target: [[0, 1]] });
    const dx: number[][] = g.grads.x;
    const first: Float32Array = g.stage_grads[0].data;
    const run = a.trainer({ x: [[1, 0]], weights: { wq: [[1, 0], [0, 1]] },
      train: { data: [{ x: [[1, 0]], target: [[0, 1]] }], params: ['wq'], optimizer: { adam: { lr: 0.1 } }, steps: 2 } });
    const losses: Float32Array = run.step(2);
    run.dispose();
    console.log(g.loss, dx[0][0], first.length, losses[1]);
    const m = await a.loadModel('en');
    const mt = m.trace('The');
    const layer: number | null = mt.stages[0].layer;
    const top: { char: string; p: number }[] = m.next('The', 2);
    const said: string = m.generate('The', { n: 5, temperature: 0, seed: 1 });
    console.log(layer, top[0].char, said, m.heads()[0].induction, m.about.config.n_ctx);
    // the model's stage registry, a trace stage's facts, out, and the scalar table
    const row = m.stages().find((st) => st.block && st.kind === 'model');
    const scale: 'signed' | 'positive' | 'probability' = mt.stages[0].scale;
    const into = new Float32Array(8);
    const same: Float32Array = a.attention({ q: new Float32Array(8), k: new Float32Array(8), v: new Float32Array(8), d: 4, out: into });
    console.log(row?.formula, row?.operands[0]?.layer, row?.rows, mt.stages[0].title.zh, scale, same === into, a.schema().sequence.scalars[0].kind);
    // progress, cancellation, codes, dispose (web/README.md, "A real model")
    const stop = new AbortController();
    const poet = await a.loadModel('zh', { signal: stop.signal, onProgress: ({ loaded, total }) => console.log(loaded / (total || 1)) });
    const trained: Float32Array = await poet.train('床前明月光，疑是地上霜。', { steps: 1, batch: 1, signal: stop.signal });
    const code: 'ERR_ATTN_INVALID' | 'ERR_ATTN_PART_NOT_LOADED' | 'ERR_ATTN_LOAD_FAILED' | 'ERR_ATTN_DISPOSED' | 'ERR_ATTN_OUT_OF_MEMORY' | 'ERR_ATTN_OPTIONS' = new AttentionError('x').code;
    console.log(trained.length, code, poet.generate('床', { n: 1, signal: stop.signal }));
    poet.dispose();
    a.dispose();
  `);
  const good = tsc('good.mts');
  assert.equal(good.status, 0, good.stdout.toString());
  writeFileSync(path.join(project, 'bad.mts'), `
    import type { StageId, Spec, TrainSpec, VisionSpec } from 'attention-playground';
    const id: StageId = 'weight';
    const spec: Spec = { x: [[1]], score: 'cosine' };
    const block: VisionSpec = { kind: 'vision', block: 'senet', feature: [[[1]]] };
    const train: TrainSpec = { x: [[1]], train: { data: [], params: ['w_q'], optimizer: { sgd: { lr: 1 } } } };
    console.log(id, spec, block, train);
    import { createAttention } from 'attention-playground';
    const a = await createAttention({ filesUrl: 7 });
    await a.loadModel('zh', { onProgress: 'loud' });
  `);
  const bad = tsc('bad.mts');
  assert.notEqual(bad.status, 0);
  assert.match(bad.stdout.toString(), /'"weight"' is not assignable to type 'StageId'/);
  assert.match(bad.stdout.toString(), /'"cosine"' is not assignable to type 'ScoreKind/);
  assert.match(bad.stdout.toString(), /'"senet"' is not assignable to type 'VisionBlock'/);
  assert.match(bad.stdout.toString(), /'"w_q"' is not assignable/);
  assert.match(bad.stdout.toString(), /Type 'number' is not assignable to type 'string \| URL/);
  assert.match(bad.stdout.toString(), /Type 'string' is not assignable to type '\(progress: \{ loaded: number; total: number; file\?: string \| undefined; \}\) => void'/);
});

test('the classic bundle from the installed package, dropped into a plain page with no build step', async (t) => {
  const blog = path.join(project, 'blog');
  execFileSync('mkdir', ['-p', blog]);
  execFileSync('cp', [path.join(project, 'node_modules/attention-playground/dist/attention-stepper.js'), blog]);
  writeFileSync(path.join(blog, 'post.html'), '<!doctype html><meta charset="utf-8"><p>My post</p>' +
    '<script type="module" src="attention-stepper.js"></script>' +
    '<attention-stepper example="long-range" stage="weights" lang="en"></attention-stepper>');
  const server = await serveStatic(blog);
  const browser = await launchChromium();
  t.after(async () => { await browser.close(); await server.close(); });
  const page = await browser.newPage();
  await page.goto(`${server.url}post.html`);
  // a sentence example opens its weights as lines: one per (query, key), α in data-weight
  await page.waitForFunction(() => document.querySelector('attention-stepper')?.shadowRoot?.querySelector('.lines path'));
  const weight = await page.evaluate(() => document.querySelector('attention-stepper').shadowRoot
    .querySelector('.lines path[data-query="was"][data-key="cat"]').dataset.weight);
  assert.equal(Number(weight).toFixed(4), '0.4523'); // was → cat, from the article's long-range sentence
});

// Vite (dev server and production build, the language model too): tests/node/vite.test.mjs

