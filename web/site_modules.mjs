// The site's ES modules (site/assets/esm/): what a page served over http(s) loads, built by Vite from the
// package's own sources as any app that installs it would be. The playground's elements (src/stepper/page.js)
// and the guided path (src/path/index.js) are two entries over shared chunks, so the path's figures and the
// steppers share one module graph and one core's worker; the worker is a module worker, the wasm files beside
// it are fetched and compiled as they stream (WebAssembly.instantiateStreaming in Emscripten's glue); code a
// page needs only for some figures (the vision views, the complexity panels, the train mode, the parts' glue)
// is a chunk that import() fetches when it is first needed. A page opened from file:// cannot run module
// scripts and takes the classic bundle instead (build-site.mjs).
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { build } from 'vite';

import { brotliBytes } from './size_budget.mjs';

const NAMES = { entryFileNames: '[name].js', chunkFileNames: 'chunks/[name]-[hash].js', assetFileNames: 'files/[name]-[hash][extname]' };

/** The ES modules of a page (the entries: {name: source file}) built into dir, with Vite's manifest. */
export async function buildModules(here, dir, entries, { minify, plugins }) {
  await build({
    configFile: false,
    logLevel: 'warn',
    root: here,
    base: './', // URLs relative to the file that names them: the site may be served from any folder
    plugins,
    worker: { format: 'es', rollupOptions: { output: { ...NAMES, entryFileNames: 'worker-[hash].js' } } },
    build: {
      outDir: dir,
      emptyOutDir: true,
      target: 'es2020',
      ...minify,
      assetsInlineLimit: 0, // every wasm a file of its own, compiled as it streams
      modulePreload: false, // a page of ours names no chunk; the entries import what they need
      manifest: true, // .vite/manifest.json: each chunk's file and imports (bytesBeforeFirstFigure, the browser tests)
      copyPublicDir: false,
      reportCompressedSize: false,
      rollupOptions: {
        input: Object.fromEntries(Object.entries(entries).map(([name, file]) => [name, path.join(here, file)])),
        preserveEntrySignatures: 'exports-only', // the page's scripts may import pageAttention from the stepper's entry
        output: NAMES,
      },
    },
  });
}

/**
 * What a visitor fetches before entry's first figure is drawn: the entry and the chunks it imports statically
 * (the build's manifest, buildModules), the core's worker and what it imports statically, and the core's wasm
 * that worker starts with (read from their files). [{file, brotli}], file relative to dir.
 */
export function bytesBeforeFirstFigure(dir, entry) {
  const manifest = JSON.parse(readFileSync(path.join(dir, '.vite/manifest.json'), 'utf8'));
  const files = new Set();
  const visit = (key) => {
    if (files.has(manifest[key].file)) return;
    files.add(manifest[key].file);
    for (const next of manifest[key].imports ?? []) visit(next);
  };
  const entryKey = Object.keys(manifest).find((key) => manifest[key].isEntry && manifest[key].name === entry);
  if (!entryKey) throw new Error(`site: the ES build's manifest has no entry ${entry}`);
  visit(entryKey);
  // the worker and the core's wasm are named in the code as URLs, not as imports: read them from the files
  const named = (file, pattern) => [...readFileSync(path.join(dir, file), 'utf8').matchAll(pattern)].map((m) => m[1]);
  const workers = [...files].flatMap((f) => named(f, /["'`](?:\.\.?\/)*((?:[\w-]+\/)*worker-[\w-]+\.js)["'`]/g));
  if (workers.length !== 1) throw new Error(`site: the ES entry ${entry} names ${workers.length} core workers (one expected: src/remote/start_worker.js)`);
  const worker = workers[0];
  // the worker and the modules it imports statically (the manifest has no worker: its imports are read from its text)
  const addWithImports = (file) => {
    if (files.has(file)) return;
    files.add(file);
    for (const spec of named(file, /(?:\bfrom|\bimport)\s*["'](\.{1,2}\/[^"']+\.js)["']/g)) addWithImports(path.posix.join(path.posix.dirname(file), spec));
  };
  addWithImports(worker);
  const cores = named(worker, /["'`](?:\.\.?\/)*((?:[\w-]+\/)*attention_core-[\w-]+\.wasm)["'`]/g);
  if (cores.length !== 1) throw new Error(`site: the core's worker (${worker}) names ${cores.length} core wasm files (one expected: src/core_file.js)`);
  files.add(cores[0]);
  return [...files].map((file) => ({ file, brotli: brotliBytes(readFileSync(path.join(dir, file))) }));
}
