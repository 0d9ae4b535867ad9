// Builds the site's scripts into site/assets/: the ES modules the pages load over http(s) (esm/, site_modules.mjs),
// their bytes before the first figure held to the size budget; the classic bundle for a post saved to disk,
// attention-stepper.js (classic_bundle.mjs: one file, its wasm and worker inside), and the guided path's classic
// script beside it; model mode's script (attention-model.js, the language model's wasm packed inside, LZMA in
// base64, which its worker unpacks: src/model/unpack_wasm.js), the shipped models' weights as classic scripts
// (src/byte_string.js) and the worker of a model you bring.
import { execFileSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

import { build } from 'vite';

import { buildClassic } from './classic_bundle.mjs';
import { MODULES } from './module_facts.mjs';
import { buildModules, bytesBeforeFirstFigure } from './site_modules.mjs';
import { brotliBytes, EMBED_BUDGET_BYTES, EMBED_ENTRY, gzipBytes } from './size_budget.mjs';
import { byteString } from './src/byte_string.js';
import { LESSON_FILES } from './src/model/lesson.js';

const here = path.dirname(fileURLToPath(import.meta.url));
// ATTN_SITE_ASSETS: another folder (scripts/serve.sh builds there while it serves site/, then moves each file in)
const outDir = path.resolve(process.env.ATTN_SITE_ASSETS ?? path.join(here, '../site/assets'));
// Terser, two passes: the embed 2.2 KB gzipped smaller than with Vite's default minifier (esbuild's), the
// model mode's script and the trainer's code smaller too. ATTN_UNMINIFIED=1 keeps readable names, for a profile.
const TERSER = { ecma: 2020, compress: { passes: 2 } };
const MINIFY = process.env.ATTN_UNMINIFIED ? { minify: false } : { minify: 'terser', terserOptions: TERSER };

// The stepper's stylesheet (src/stepper/styles.js, a template literal kept readable there) without its
// indentation and the spaces CSS does not need. Safe for it: no quoted text in it holds ': ', ', ' or a run of
// spaces, and ${…} (the media query) keeps its braces.
const compactCss = {
  name: 'attention-compact-css',
  transform(code, id) {
    if (!id.endsWith(path.join('src', 'stepper', 'styles.js'))) return null;
    const [before, css, after] = code.split(/(?<=export const css = `)([^`]*)(?=`;)/);
    if (after === undefined) throw new Error('site: src/stepper/styles.js has no `export const css = `…`;` to compact');
    return before + css.replace(/\s+/g, ' ').replace(/\s*([{};])\s*/g, '$1').replace(/: /g, ':').replace(/, /g, ',').trim() + after;
  },
};

// the classic bundle: the elements of src/stepper/page.js, their worker and every wasm in one classic script
await buildClassic({ entry: path.join(here, 'src/stepper/page.js'), name: 'AttentionStepperBundle', outDir, fileName: 'attention-stepper.js', minify: MINIFY, plugins: [compactCss] });

// the model mode (site/model.html, <attention-model>): its own script, with its Web Worker and the language
// model's wasm inlined, so the playground's first load does not grow; the weights beside it as classic
// scripts (src/byte_string.js), which a page opened from file:// can load too (fetch cannot)
const lmBuilt = existsSync(path.join(here, 'dist/lm/attention_lm.js'));
const hfBuilt = existsSync(path.join(here, 'dist/hf/attention_hf.js'));
const notBuilt = path.join(here, 'src/model/module_not_built.js');
await build({
  configFile: false,
  logLevel: 'warn',
  // the language model's module not linked yet (scripts/serve.sh serves the pages first): a stand-in that says so
  resolve: lmBuilt ? {} : { alias: [{ find: /^\.\.\/\.\.\/dist\/lm\/attention_lm\.js$/, replacement: notBuilt }] },
  worker: { format: 'iife' }, // a classic worker: a module worker from a blob URL does not start on a page opened from file://
  build: {
    outDir,
    emptyOutDir: false,
    target: 'es2020',
    ...MINIFY,
    lib: { entry: path.join(here, 'src/model/index.js'), name: 'AttentionModelBundle', formats: ['iife'], fileName: () => 'attention-model.js' },
  },
});
// the worker of a model you bring (assets/hf/folder-worker.js, beside the model folders' wasm): its own classic
// script, loaded only when a folder is opened, so the model mode's script does not carry the folders' glue and
// loaders; a model you bring needs the page served over http anyway (the wasm is fetched, with streaming compilation)
await build({
  configFile: false,
  logLevel: 'warn',
  resolve: hfBuilt ? {} : { alias: [{ find: /^\.\.\/\.\.\/dist\/hf\/attention_hf\.js$/, replacement: notBuilt }] },
  build: {
    outDir: path.join(outDir, 'hf'),
    emptyOutDir: false,
    target: 'es2020',
    ...MINIFY,
    lib: { entry: path.join(here, 'src/model/folder_worker.js'), name: 'AttentionFolderWorker', formats: ['iife'], fileName: () => 'folder-worker.js' },
  },
});
// the guided path's classic script (site/index.html from file://): its figures are the stepper's elements and
// its core the classic bundle's worker (AttentionStepperBundle.pageAttention, loaded first), so it adds only the
// path's words and drawing code
await buildClassic({
  entry: path.join(here, 'src/path/index.js'), name: 'AttentionPath', outDir, fileName: 'attention-path.js', minify: MINIFY,
  rollupOptions: { external: [path.join(here, 'src/stepper/page_core.js')], output: { globals: () => 'AttentionStepperBundle' } },
});
{
  const pathFile = path.join(outDir, 'attention-path.js');
  console.log(`site: ${path.relative(process.cwd(), pathFile)} ${statSync(pathFile).size} bytes, ${gzipBytes(readFileSync(pathFile))} gzipped (the guided path: its words, figures and questions)`);
}
{
  // the language model's wasm in the model mode's script, where its client left room for it (model/client.js)
  const modelScript = path.join(outDir, 'attention-model.js');
  const holes = readFileSync(modelScript, 'utf8').split(/(["'])__ATTN_LM_WASM__\1/);
  if (holes.length !== 3) throw new Error('site: the model mode\'s script has no one place for the language model\'s wasm (LM_WASM in model/client.js)');
  // not linked yet: the stand-in above never reads it, and the page says the model is still being built
  if (!lmBuilt) console.log('site: the language model\'s module is not built yet (web/dist/lm): the model mode says so');
  writeFileSync(modelScript, '\uFEFF' + holes[0] + (lmBuilt ? packedWasm(path.join(here, 'dist/lm/attention_lm.wasm')) : '"not built"') + holes[2]);
}
mkdirSync(path.join(outDir, 'models'), { recursive: true });
for (const name of ['zh', 'en']) {
  const weights = path.join(here, 'models', `${name}.safetensors`);
  if (!existsSync(weights)) continue; // scripts/models.sh trains them; the model mode then says it could not load
  writeFileSync(path.join(outDir, 'models', `${name}.js`), `\uFEFF(globalThis.AttentionModels ??= {}).${name} = ${byteString(readFileSync(weights))};\n`);
}
// the induction lesson's corpus: English fortunes from Debian's fortunes package (apt, as the shipped en
// model's), fortune format, a classic script like the weights; the core splits it as it splits a model's corpus
const lessonFiles = LESSON_FILES.map((f) => path.join('/usr/share/games/fortunes', f));
if (lessonFiles.every((f) => existsSync(f))) {
  const text = lessonFiles.map((f) => readFileSync(f, 'utf8').replace(/\n?$/, '\n')).join('%\n');
  writeFileSync(path.join(outDir, 'models', 'lesson-en.js'), `(globalThis.AttentionModels ??= {}).lessonText = ${JSON.stringify(text)};\n`);
}
const modelFile = path.join(outDir, 'attention-model.js');
// the model element ships in the npm package as it sits in the site (attention-playground/attention-model.js),
// its weights' scripts beside it in dist/models/, where the script looks for them
mkdirSync(path.join(here, 'dist/models'), { recursive: true });
copyFileSync(modelFile, path.join(here, 'dist/attention-model.js'));
// and the folder view's worker beside the model folders' module in dist/hf/, where the script looks for both
mkdirSync(path.join(here, 'dist/hf'), { recursive: true });
copyFileSync(path.join(outDir, 'hf', 'folder-worker.js'), path.join(here, 'dist/hf/folder-worker.js'));
for (const name of ['zh', 'en']) {
  const weights = path.join(outDir, 'models', `${name}.js`);
  if (existsSync(weights)) copyFileSync(weights, path.join(here, 'dist/models', `${name}.js`));
}
console.log(`site: ${path.relative(process.cwd(), modelFile)} ${statSync(modelFile).size} bytes, ${gzipSync(readFileSync(modelFile), { level: 9 }).length} gzipped (model mode: element + worker + the lm wasm, packed)`);

// A wasm as model mode's script carries it: the JS string literal 'lzma/1:<size>:<base64>' of its LZMA stream
// (xz from Debian's xz-utils; a 1 MiB dictionary, more than any module, so the decoder's window stays small).
function packedWasm(file) {
  const wasm = readFileSync(file);
  const lzma = execFileSync('xz', ['--format=lzma', '--lzma1=preset=9e,dict=1MiB,lc=4,pb=0', '--stdout', file], { maxBuffer: 64 << 20 });
  return JSON.stringify(`lzma/1:${wasm.length}:${lzma.toString('base64')}`);
}

const file = path.join(outDir, 'attention-stepper.js');
// the same file ships in the npm package, so a blog can take it from any npm CDN
copyFileSync(file, path.join(here, 'dist/attention-stepper.js'));
// the model folders' module beside the model mode's script (assets/hf/), fetched by the folder view's worker
if (hfBuilt) {
  mkdirSync(path.join(outDir, 'hf'), { recursive: true });
  copyFileSync(path.join(here, 'dist/hf/attention_hf.wasm'), path.join(outDir, 'hf', 'attention_hf.wasm'));
  // its relaxed-SIMD twin (wasm/parts.json's "relaxed"), which the worker loads where the engine runs relaxed SIMD
  const twin = MODULES.find((m) => m.name === 'hf').relaxed;
  if (existsSync(path.join(here, 'dist/hf', twin))) cpSync(path.join(here, 'dist/hf', twin), path.join(outDir, 'hf', twin), { recursive: true });
}
// the wasm-threads modules beside them, for the site's own pages: the playground's pages name the core's on their
// script tag (data-threads), the folder view's worker looks for the folders' in assets/hf-threads; both are used
// when served cross-origin isolated (scripts/serve.sh); embeds never load them
for (const name of ['core-threads', 'hf-threads']) {
  const threads = path.join(here, 'dist', name);
  if (!existsSync(threads)) continue;
  mkdirSync(path.join(outDir, name), { recursive: true });
  cpSync(threads, path.join(outDir, name), { recursive: true }); // with its relaxed-SIMD twin's subfolder
}
// The same elements and path as ES modules, for the site's pages served over http(s) (site_modules.mjs); the
// size goal holds what a visitor fetches there before a compact sequence figure is drawn (docs/toolchain.md, "Sizes")
const esmDir = path.join(outDir, 'esm');
await buildModules(here, esmDir, { [EMBED_ENTRY]: 'src/stepper/page.js', 'attention-path': 'src/path/index.js' }, { minify: MINIFY, plugins: [compactCss] });
const firstFigure = bytesBeforeFirstFigure(esmDir, EMBED_ENTRY);
const firstBytes = firstFigure.reduce((sum, f) => sum + f.brotli, 0);
console.log(`site: ${path.relative(process.cwd(), esmDir)}/: ${firstBytes} bytes brotli before the first figure (budget ${EMBED_BUDGET_BYTES}): ${firstFigure.map((f) => `${f.file} ${f.brotli}`).join(', ')}`);
console.log(`site: ${path.relative(process.cwd(), file)} ${statSync(file).size} bytes, ${brotliBytes(readFileSync(file))} brotli (the classic bundle: elements, worker and every wasm, for a post read from disk)`);
if (firstBytes > EMBED_BUDGET_BYTES) {
  console.error(`site: the ES modules before the first figure are ${firstBytes} bytes brotli, over ${EMBED_BUDGET_BYTES}: see what grew (docs/toolchain.md, "Sizes").`);
  process.exit(1);
}
