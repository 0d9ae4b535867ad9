// The classic bundle: a page's elements as one classic script that needs no other file, for a post saved to disk
// and opened from file://, where browsers run no module file, fetch nothing and start no worker from a file.
// It is the ES modules' own sources built as a library (Vite's iife format): Rollup puts every import() inside
// the script, a library build puts every wasm named by new URL(…, import.meta.url) inside it as a data: URL, and
// the one plugin below builds the source's new Worker(new URL(…, import.meta.url)) as Vite's inline worker, its
// code inside the script and started from a blob URL (a classic worker, which a page from file:// can start).
import { build } from 'vite';

/** The pattern bundlers follow for a worker (src/remote/start_worker.js), and what a library build cannot keep. */
const WORKER_URL = /new Worker\(new URL\((['"])([^'"]+)\1, import\.meta\.url\)(?:, \{ type: 'module' \})?\)/g;

/** new Worker(new URL('./worker.js', import.meta.url), …) as the import of Vite's inline worker (?worker&inline). */
export const inlineWorkers = {
  name: 'attention-inline-workers',
  enforce: 'pre', // before Vite's own worker plugin, which would emit the worker as a file beside the script
  transform(code, id) {
    const imports = [];
    const out = code.replace(WORKER_URL, (_, quote, file) => {
      imports.push(`import InlineWorker${imports.length} from ${JSON.stringify(`${file}?worker&inline`)};`);
      return `new InlineWorker${imports.length - 1}()`;
    });
    // any other worker would be a file beside the script, which a page from file:// cannot start
    if (/\bnew Worker\s*\(\s*new URL\(\s*['"`]/.test(out)) throw new Error(`classic bundle: ${id} starts a worker in a form this build does not put inside the script (write it as src/remote/start_worker.js does)`);
    return imports.length ? { code: `${imports.join('\n')}\n${out}`, map: null } : null;
  },
};

/**
 * Builds entry (a file) as outDir/fileName, a classic script whose exports are the global name; options: the
 * site build's minify options, plugins, and rollup options (externals) to add.
 */
export async function buildClassic({ entry, name, outDir, fileName, minify, plugins = [], rollupOptions = {} }) {
  await build({
    configFile: false,
    logLevel: 'warn',
    plugins: [inlineWorkers, ...plugins],
    // a classic worker (a module worker from a blob URL does not start on a page opened from file://), its import()s inside it
    worker: { format: 'iife', rollupOptions: { output: { inlineDynamicImports: true } } },
    build: {
      outDir,
      emptyOutDir: false,
      target: 'es2020',
      ...minify,
      reportCompressedSize: false,
      lib: { entry, name, formats: ['iife'], fileName: () => fileName },
      rollupOptions,
    },
  });
}
