// Where index.js finds the core's .wasm: a literal path, so that a bundler (Vite, webpack 5) follows it and
// copies the file into the app, as it does the parts' (part_files.js). The core's glue does not name the
// file itself (USE_ES6_IMPORT_META=0: Vite would inline it as base64 in a library build). The one-file
// script (web/build-site.mjs) swaps this file for remote/core_file_inline.js: its page hands the worker
// the bytes. package_file.js maps the URL when the files were moved (filesUrl) or Vite's dev server pre-bundled them.
import { packageFile } from './package_file.js';

export { setFilesUrl } from './package_file.js';

export const coreWasmUrl = () => packageFile('dist/core/attention_core.wasm', new URL('../dist/core/attention_core.wasm', import.meta.url));
