// Where create_core.js finds a part's files (parts.js): literal paths, so that a bundler (Vite, webpack 5)
// follows them and copies the glue and the .wasm into the app, as it does the core's (the classic bundle's
// library build puts each inside the script instead: web/classic_bundle.mjs).
// package_file.js maps a .wasm's URL when the files were moved (filesUrl) or Vite's dev server pre-bundled them.
import { moduleFailure } from './module_failure.js';
import { packageFile } from './package_file.js';

export const partFiles = {
  vision: () => [import('../dist/vision/attention_vision.js'), packageFile('dist/vision/attention_vision.wasm', new URL('../dist/vision/attention_vision.wasm', import.meta.url))],
  learn: () => [import('../dist/learn/attention_learn.js'), packageFile('dist/learn/attention_learn.wasm', new URL('../dist/learn/attention_learn.wasm', import.meta.url))],
  explain: () => [import('../dist/explain/attention_explain.js'), packageFile('dist/explain/attention_explain.wasm', new URL('../dist/explain/attention_explain.wasm', import.meta.url))],
  fast: () => [import('../dist/fast/attention_fast.js'), packageFile('dist/fast/attention_fast.wasm', new URL('../dist/fast/attention_fast.wasm', import.meta.url))],
};

/** Instantiates a part's module from its files. */
export async function loadPart(name) {
  const [glue, wasm] = partFiles[name]();
  const { default: create } = await glue;
  return create({ locateFile: () => String(wasm) }).catch(async (error) => {
    throw await moduleFailure(wasm, error);
  });
}
