// Builds site/assets/attention-stepper.js: the <attention-stepper> element and the core's Web Worker with the
// wasm core inlined, in one classic script (<attention-trainer>'s code rides in the learn part's script). One file serves every way the
// page is opened: <script src> from file:// (double-clicking site/index.html), and
// <script type="module" src> in a stranger's blog (it has no import or export statements).
// Beside it, attention-stepper.{vision,learn,explain}.js: the parts' wasm in classic scripts, loaded only
// when a page first shows a vision block, a gradient or a trainer, or a cell's arithmetic (web/src/parts.js). Each wasm
// is packed, LZMA in base64 (packedWasm below; the worker unpacks it: src/remote/unpack_inline.js), as is the
// model mode's; the models' weights are strings of one character a byte (src/byte_string.js: LZMA finds
// little in float32 weights), each such script starting with a byte order mark.
import { execFileSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';

import { minify } from 'terser';
import { build } from 'vite';

import { MODULES, PARTS } from './module_facts.mjs';
import { buildModules, bytesBeforeFirstFigure } from './site_modules.mjs';
import { brotliBytes, EMBED_BUDGET_BYTES, gzipBytes } from './size_budget.mjs';
import { byteString } from './src/byte_string.js';
import { LESSON_FILES } from './src/model/lesson.js';

const here = path.dirname(fileURLToPath(import.meta.url));
// ATTN_SITE_ASSETS: another folder (scripts/serve.sh builds there while it serves site/, then moves each file in)
const outDir = path.resolve(process.env.ATTN_SITE_ASSETS ?? path.join(here, '../site/assets'));
// Terser, two passes: the embed 2.2 KB gzipped smaller than with Vite's default minifier (esbuild's), the
// model mode's script and the trainer's code smaller too. ATTN_UNMINIFIED=1 keeps readable names, for a profile.
const TERSER = { ecma: 2020, compress: { passes: 2 } };
const MINIFY = process.env.ATTN_UNMINIFIED ? { minify: false } : { minify: 'terser', terserOptions: TERSER };

// the stepper's modules whose code rides in the vision part's script (src/remote/vision_view_script.js), not in
// this one: the page runs that script before any vision trace reaches it
const VISION_VIEWS = ['vision_view', 'vision_editor'];
// likewise the complexity example's panels, in the fast part's script (src/remote/complexity_script.js)
const COMPLEXITY_VIEWS = ['complexity', 'complexity_paths'];

// The stepper's stylesheet (src/stepper/styles.js, a template literal kept readable there) without its
// indentation and the spaces CSS does not need: 0.2 KB gzipped of the embed. Safe for it: no quoted text in
// it holds ': ', ', ' or a run of spaces, and ${…} (the media query) keeps its braces.
const compactCss = {
  name: 'attention-compact-css',
  transform(code, id) {
    if (!id.endsWith(path.join('src', 'stepper', 'styles.js'))) return null;
    const [before, css, after] = code.split(/(?<=export const css = `)([^`]*)(?=`;)/);
    if (after === undefined) throw new Error('site: src/stepper/styles.js has no `export const css = `…`;` to compact');
    return before + css.replace(/\s+/g, ' ').replace(/\s*([{};])\s*/g, '$1').replace(/: /g, ':').replace(/, /g, ',').trim() + after;
  },
};

await build({
  configFile: false,
  logLevel: 'warn',
  plugins: [compactCss],
  // the core's worker inside the script (a blob URL, a classic worker: it starts on a page opened from file://)
  resolve: { alias: [
    { find: /^\.\/start_worker\.js$/, replacement: path.join(here, 'src/remote/start_worker_inline.js') },
    { find: /^\.\/part_files\.js$/, replacement: path.join(here, 'src/remote/part_files_inline.js') },
    { find: /^\.\/core_file\.js$/, replacement: path.join(here, 'src/remote/core_file_inline.js') },
    { find: /^\.\/unpack\.js$/, replacement: path.join(here, 'src/remote/unpack_inline.js') },
    // and no model's files: a library build would inline the weights that lm_files.js names
    { find: /^\.\/lm_files\.js$/, replacement: path.join(here, 'src/remote/lm_files_absent.js') },
    // the train mode's code goes to the learn part's script (below), loaded when a page has a trainer
    { find: /^\.\.\/trainer\/define\.js$/, replacement: path.join(here, 'src/remote/trainer_beside.js') },
    { find: './vision_ready.js', replacement: path.join(here, 'src/remote/vision_view_beside.js') },
    // the complexity panels' code goes to the fast part's script, loaded when a page shows that example
    { find: './complexity_ready.js', replacement: path.join(here, 'src/remote/complexity_beside.js') },
  ] },
  worker: { format: 'iife' },
  build: {
    outDir,
    emptyOutDir: false, // site/assets/lab/ (the ImGui lab) is built there too
    target: 'es2020',
    ...MINIFY,
    lib: {
      entry: path.join(here, 'src/stepper/page.js'),
      name: 'AttentionStepperBundle',
      formats: ['iife'],
      fileName: () => 'attention-stepper.js',
    },
  },
});

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
// the guided path (site/index.html): its sections, figures and questions as one classic script; its figures are
// the playground's own elements and its core the one-file script's worker (AttentionStepperBundle.pageAttention),
// so the path adds only its words and drawing code to a reader's download
await build({
  configFile: false,
  logLevel: 'warn',
  build: {
    outDir,
    emptyOutDir: false,
    target: 'es2020',
    ...MINIFY,
    lib: { entry: path.join(here, 'src/path/index.js'), name: 'AttentionPath', formats: ['iife'], fileName: () => 'attention-path.js' },
    // the page's shared core is the one-file script's (its global, AttentionStepperBundle, loaded first)
    rollupOptions: { external: [path.join(here, 'src/stepper/page_core.js')], output: { globals: () => 'AttentionStepperBundle' } },
  },
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

// A wasm as the one-file script and its parts carry it: the JS string literal 'lzma/1:<size>:<base64>' of its
// LZMA stream (xz from Debian's xz-utils; a 1 MiB dictionary, more than any module, so the decoder's window
// stays small). gzip -9 of that string is 17 % under the wasm's own gzip (the core: 97.6 KB, where the
// bytes as a string of one character a byte were 123.2 KB); unpacking takes the worker about 30 ms.
function packedWasm(file) {
  const wasm = readFileSync(file);
  const lzma = execFileSync('xz', ['--format=lzma', '--lzma1=preset=9e,dict=1MiB,lc=4,pb=0', '--stdout', file], { maxBuffer: 64 << 20 });
  return JSON.stringify(`lzma/1:${wasm.length}:${lzma.toString('base64')}`);
}

const file = path.join(outDir, 'attention-stepper.js');
const BOM = '\uFEFF';
{
  // the core's wasm in the element's script, where its loader left room for it
  const built = readFileSync(file, 'utf8');
  const holes = built.split(/(["'])__ATTN_CORE_WASM__\1/);
  if (holes.length !== 3) throw new Error('site: the element\'s script has no one place for the core\'s wasm (CORE_WASM in start_worker_inline.js)');
  writeFileSync(file, BOM + holes[0] + packedWasm(path.join(here, 'dist/core/attention_core.wasm')) + holes[2]);
}
// Code that rides in a part's script (the train mode in the learn part's, the vision views in the vision
// part's): built from its entry as a classic script whose src/stepper/*.js imports, but for the few it
// bundles itself, are the one-file script's own, read from globalThis.AttentionStepperModules.NAME
// (src/remote/modules_beside.js publishes them)
const stepperDir = path.join(here, 'src/stepper');
const published = new Set([...readFileSync(path.join(here, 'src/remote/modules_beside.js'), 'utf8').matchAll(/import \* as (\w+) from '\.\.\/stepper\/\1\.js'/g)].map((m) => m[1]));
async function partCode(entry, name, bundled, limit) {
  const sharedModule = (id, importer) => {
    const file = importer && id.startsWith('.') ? path.resolve(path.dirname(importer), id) : id;
    return path.dirname(file) === stepperDir && !bundled.includes(path.basename(file, '.js')) ? path.basename(file, '.js') : null;
  };
  const built = await build({
    configFile: false,
    logLevel: 'warn',
    build: {
      write: false,
      target: 'es2020',
      ...MINIFY,
      lib: { entry: path.join(here, entry), name, formats: ['iife'], fileName: () => `${name}.js` },
      rollupOptions: {
        external: (id, importer) => sharedModule(id, importer) !== null,
        output: { globals: (id) => `AttentionStepperModules.${path.basename(id, '.js')}` }, // the externals are all src/stepper/*.js
      },
    },
  });
  const code = [built].flat()[0].output[0].code;
  // every module it reads must be one modules_beside.js publishes, and no more than a few KB of the stepper rides along
  const read = [...new Set([...code.matchAll(/AttentionStepperModules\.(\w+)/g)].map((m) => m[1]))];
  const missing = read.filter((module) => !published.has(module));
  if (missing.length) throw new Error(`site: ${entry} reads ${missing.join(', ')} from AttentionStepperModules, which src/remote/modules_beside.js does not publish`);
  if (code.length > limit) throw new Error(`site: ${entry}'s code is ${code.length} bytes: did it bundle the stepper's modules again (partCode in build-site.mjs)?`);
  return code;
}
const riding = {
  learn: await partCode('src/trainer/script.js', 'AttentionTrainerScript', [], 30000),
  vision: await partCode('src/remote/vision_view_script.js', 'AttentionVisionViews', VISION_VIEWS, 12000),
  fast: await partCode('src/remote/complexity_script.js', 'AttentionComplexityViews', COMPLEXITY_VIEWS, 12000),
};

// A part's Emscripten glue (an ES6 module: `export default createVisionPart;`) as the classic script the
// one-file script's worker runs (src/remote/part_files_inline.js): it sets AttentionStepperPartFactories[name].
async function classicGlue(name) {
  const glue = readFileSync(path.join(here, 'dist', name, `attention_${name}.js`), 'utf8');
  const end = /\nexport default (\w+);\s*$/;
  if (!end.test(glue) || /\bimport\.meta\b/.test(glue)) throw new Error(`site: the ${name} part's glue does not end in one "export default …;" or names import.meta (its link options: wasm/CMakeLists.txt)`);
  const classic = glue.replace(end, `\n(self.AttentionStepperPartFactories ??= {}).${name} = $1;\n`);
  return (await minify(classic, TERSER)).code; // as the worker was minified when it bundled the glue
}

// the parts beside it, each a classic script setting AttentionStepperParts[name] to its wasm and its glue's
// text (the learn part's then defines <attention-trainer>, the vision part's the vision views)
const partSizes = [];
const overBudget = [];
for (const { name, script_budget_kb: budget } of PARTS) {
  const wasm = packedWasm(path.join(here, 'dist', name, `attention_${name}.wasm`));
  const script = `${BOM}(globalThis.AttentionStepperParts ??= {}).${name} = { wasm: ${wasm}, glue: ${JSON.stringify(await classicGlue(name))} };\n${riding[name] ?? ''}`;
  for (const dir of [outDir, path.join(here, 'dist')]) writeFileSync(path.join(dir, `attention-stepper.${name}.js`), script);
  const gz = gzipSync(script, { level: 9 }).length;
  partSizes.push(`attention-stepper.${name}.js ${Buffer.byteLength(script)} bytes, ${gz} gzipped (budget ${budget} KB)`);
  if (gz > budget * 1024) overBudget.push(`attention-stepper.${name}.js is ${Math.ceil(gz / 1024)} KB gzipped, over its ${budget} KB`);
}
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
// the sequence embed: 401 KB gzipped while the parts rode in it, 245 before LTO and the explain part, 226 before the
// bytes were renamed by frequency, 217 before the train mode's code moved to the learn part's script; the goal is
// 150 (docs/toolchain.md, "Sizes"); 210 before the -Oz link, 204 before the parts' glue left it and terser,
// 198.8 before the examples' documents were embedded without their line breaks, 198.0 before the vision views
// rode in the vision part's script, 195.4 before the sequence stages and the core's exports were compiled -Oz,
// 181.5 before strtod's slow path was our own (core/src/io/decimal.hpp), 176.1 before the wasm was packed (LZMA), 154.0 before the glue read only the options we pass, 153.5 before
// a.attention and the complexity panels left for the fast part's script. The goal, 150 KB, is held in bytes
// (150,000: the stricter reading of a KB); since the guided path, brotli as servers send it (size_budget.mjs)
// The same elements and path as ES modules, for the site's pages served over http(s) (site_modules.mjs); the
// goal holds what a visitor fetches there before a compact sequence figure is drawn
const esmDir = path.join(outDir, 'esm');
const esm = await buildModules(here, esmDir, { 'attention-stepper': 'src/stepper/page.js', 'attention-path': 'src/path/index.js' }, { minify: MINIFY, plugins: [compactCss] });
const firstFigure = bytesBeforeFirstFigure(esmDir, esm, 'attention-stepper');
const firstBytes = firstFigure.reduce((sum, f) => sum + f.brotli, 0);
console.log(`site: ${path.relative(process.cwd(), esmDir)}/: ${firstBytes} bytes brotli before the first figure (budget ${EMBED_BUDGET_BYTES}): ${firstFigure.map((f) => `${f.file} ${f.brotli}`).join(', ')}`);
if (firstBytes > EMBED_BUDGET_BYTES) overBudget.push(`the ES modules before the first figure are ${firstBytes} bytes brotli, over ${EMBED_BUDGET_BYTES}`);
const embedBytes = readFileSync(file);
const br = brotliBytes(embedBytes);
console.log(`site: ${path.relative(process.cwd(), file)} ${statSync(file).size} bytes, ${br} brotli, ${gzipBytes(embedBytes)} gzipped (element + loader + inlined wasm; budget ${EMBED_BUDGET_BYTES} bytes brotli)`);
for (const line of partSizes) console.log(`site: part ${line}`);
if (br > EMBED_BUDGET_BYTES) overBudget.push(`attention-stepper.js is ${br} bytes brotli, over its ${EMBED_BUDGET_BYTES}`);
if (overBudget.length) {
  console.error(`site: ${overBudget.join('; ')}: see what grew (docs/toolchain.md, "Sizes").`);
  process.exit(1);
}
