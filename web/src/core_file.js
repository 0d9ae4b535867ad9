// Where create_core.js finds the core's .wasm: a literal path, so that a bundler (Vite, webpack 5) follows it
// and copies the file into the app, as it does the parts' (part_files.js), and a library build (the classic
// bundle: web/classic_bundle.mjs) puts it inside the script. The core's glue does not name the file itself
// (USE_ES6_IMPORT_META=0), so this is the one place. package_file.js maps the URL when the files were moved (filesUrl) or Vite's dev server pre-bundled them.
import { packageFile } from './package_file.js';

export { setFilesUrl } from './package_file.js';

export const coreWasmUrl = () => packageFile('dist/core/attention_core.wasm', new URL('../dist/core/attention_core.wasm', import.meta.url));
