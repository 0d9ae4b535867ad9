// Builds site/assets/attention-stepper.js: the <attention-stepper> and <attention-trainer> elements,
// and the core's Web Worker with the wasm core inlined, in one classic script. One file serves every way the
// page is opened: <script src> from file:// (double-clicking site/index.html), and
// <script type="module" src> in a stranger's blog (it has no import or export statements).
import { copyFileSync, existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';

import { build } from 'vite';

import { LESSON_FILES } from './src/model/lesson.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const outDir = path.resolve(here, '../site/assets');

await build({
  configFile: false,
  logLevel: 'warn',
  // the core's worker inside the script (a blob URL, a classic worker: it starts on a page opened from file://)
  resolve: { alias: [{ find: /^\.\/start_worker\.js$/, replacement: path.join(here, 'src/remote/start_worker_inline.js') }] },
  worker: { format: 'iife' },
  build: {
    outDir,
    emptyOutDir: false, // site/assets/lab/ (the ImGui lab) is built there too
    target: 'es2020',
    minify: !process.env.ATTN_UNMINIFIED, // ATTN_UNMINIFIED=1: readable names, for a profile
    lib: {
      entry: path.join(here, 'src/stepper/index.js'),
      name: 'AttentionStepperBundle',
      formats: ['iife'],
      fileName: () => 'attention-stepper.js',
    },
  },
});

// the model mode (site/model.html, <attention-model>): its own script, with its Web Worker and the language
// model's wasm inlined, so the playground's first load does not grow; the weights beside it as classic
// scripts (base64), which a page opened from file:// can load too (fetch cannot)
await build({
  configFile: false,
  logLevel: 'warn',
  worker: { format: 'iife' }, // a classic worker: a module worker from a blob URL does not start on a page opened from file://
  build: {
    outDir,
    emptyOutDir: false,
    target: 'es2020',
    minify: true,
    lib: { entry: path.join(here, 'src/model/index.js'), name: 'AttentionModelBundle', formats: ['iife'], fileName: () => 'attention-model.js' },
  },
});
mkdirSync(path.join(outDir, 'models'), { recursive: true });
for (const name of ['zh', 'en']) {
  const weights = path.join(here, 'models', `${name}.safetensors`);
  if (!existsSync(weights)) continue; // scripts/models.sh trains them; the model mode then says it could not load
  const b64 = readFileSync(weights).toString('base64');
  writeFileSync(path.join(outDir, 'models', `${name}.js`), `(globalThis.AttentionModels ??= {}).${name} = '${b64}';\n`);
}
// the induction lesson's corpus: English fortunes from Debian's fortunes package (apt, as the shipped en
// model's), fortune format, a classic script like the weights; the core splits it as it splits a model's corpus
const lessonFiles = LESSON_FILES.map((f) => path.join('/usr/share/games/fortunes', f));
if (lessonFiles.every((f) => existsSync(f))) {
  const text = lessonFiles.map((f) => readFileSync(f, 'utf8').replace(/\n?$/, '\n')).join('%\n');
  writeFileSync(path.join(outDir, 'models', 'lesson-en.js'), `(globalThis.AttentionModels ??= {}).lessonText = ${JSON.stringify(text)};\n`);
}
const modelFile = path.join(outDir, 'attention-model.js');
console.log(`site: ${path.relative(process.cwd(), modelFile)} ${statSync(modelFile).size} bytes, ${gzipSync(readFileSync(modelFile), { level: 9 }).length} gzipped (model mode: element + worker + inlined lm wasm)`);

const file = path.join(outDir, 'attention-stepper.js');
// the same file ships in the npm package, so a blog can take it from any npm CDN
copyFileSync(file, path.join(here, 'dist/attention-stepper.js'));
// the wasm-threads module beside it, for the playground's own pages: they name it on their script tag
// (data-threads) and use it when served cross-origin isolated (scripts/serve.sh); embeds never load it
const threads = path.join(here, 'dist/core-threads');
if (existsSync(threads)) {
  mkdirSync(path.join(outDir, 'core-threads'), { recursive: true });
  for (const name of readdirSync(threads)) copyFileSync(path.join(threads, name), path.join(outDir, 'core-threads', name));
}
const gz = gzipSync(readFileSync(file), { level: 9 }).length;
console.log(`site: ${path.relative(process.cwd(), file)} ${statSync(file).size} bytes, ${gz} gzipped (element + loader + inlined wasm)`);
