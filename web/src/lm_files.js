// Where index.js finds the language model's files: its module (dist/lm), the shipped weights (models/) and the
// model folders' module (dist/hf), named
// by literal paths so that a bundler (Vite, webpack 5) follows them and copies the files into the app, as it does
// the core's and the parts' (core_file.js, part_files.js); package_file.js maps them when the package's files were
// moved (createAttention's filesUrl) or Vite's dev server pre-bundled the package. Only index.js names this
// file: the page's worker starts create_core.js, which has no model, and model mode's script carries its own.
import { bodyBytes } from './fetch_bytes.js';
import { packageFile } from './package_file.js';
import { hasRelaxedSimd } from './relaxed_simd.js';
import { startThreadedModule } from './threaded_module.js';

const weights = {
  zh: () => packageFile('models/zh.safetensors', new URL('../models/zh.safetensors', import.meta.url)),
  en: () => packageFile('models/en.safetensors', new URL('../models/en.safetensors', import.meta.url)),
};

/** The language model's module, instantiated (its glue does not name its .wasm: USE_ES6_IMPORT_META=0). */
export async function lmCore() {
  const wasm = packageFile('dist/lm/attention_lm.wasm', new URL('../dist/lm/attention_lm.wasm', import.meta.url));
  const { default: create } = await import('../dist/lm/attention_lm.js');
  return create({ locateFile: () => String(wasm) });
}

/**
 * The model folders' module (dist/hf: models you bring), instantiated when a folder is first opened: its
 * relaxed-SIMD twin (dist/hf/relaxed) where the engine runs it (relaxed_simd.js), both named literally for the bundlers.
 */
export async function hfCore() {
  const relaxed = hasRelaxedSimd();
  const wasm = relaxed
    ? packageFile('dist/hf/relaxed/attention_hf.wasm', new URL('../dist/hf/relaxed/attention_hf.wasm', import.meta.url))
    : packageFile('dist/hf/attention_hf.wasm', new URL('../dist/hf/attention_hf.wasm', import.meta.url));
  const { default: create } = await (relaxed ? import('../dist/hf/relaxed/attention_hf.js') : import('../dist/hf/attention_hf.js'));
  return Object.assign(await create({ locateFile: () => String(wasm) }), { relaxedSimd: relaxed });
}

// Its wasm-threads twin (dist/hf-threads: the linear layers and heads shared between workers), for a
// cross-origin-isolated page that asked for threads (createAttention({threads: true})). The path is a variable so
// bundlers leave it alone, as the threads core's (create_core.js): a bundle gets the one-thread module.
const hfThreadsPaths = { plain: 'dist/hf-threads/attention_hf.js', relaxed: 'dist/hf-threads/relaxed/attention_hf.js' };

/** The threaded model folders' module: its glue, its wasm and the workers' script, all from dist/hf-threads (or its relaxed twin's subfolder). */
export async function hfThreadsCore() {
  const relaxed = hasRelaxedSimd();
  const glue = hfThreadsPaths[relaxed ? 'relaxed' : 'plain'];
  const module = await startThreadedModule(String(packageFile(glue, new URL(/* @vite-ignore */ `../${glue}`, import.meta.url))));
  return Object.assign(module, { relaxedSimd: relaxed });
}

/**
 * A shipped model's weights, fetched with signal; onProgress({loaded, total}) as the bytes arrive (total 0 when
 * the server does not say how many: no Content-Length, or a compressed body).
 */
export async function readModel(name, { signal, onProgress } = {}) {
  const response = await fetch(weights[name](), { signal });
  if (!response.ok) throw new Error(`HTTP ${response.status} for ${response.url}`);
  const said = response.headers.get('content-encoding') ? 0 : Number(response.headers.get('content-length')) || 0;
  return bodyBytes(response, onProgress && ((loaded) => onProgress({ loaded, total: said })));
}
