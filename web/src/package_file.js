// Where a file of the package is, seen from src/: new URL('../dist/…', import.meta.url) as written in core_file.js,
// part_files.js and lm_files.js (literal, so that Vite and webpack 5 follow the URL and copy the file into a build),
// then two corrections:
// 1. createAttention({filesUrl}) names where the package's dist/ and models/ are served from (a CDN, a copy in
//    public/), as onnxruntime-web's env.wasm.wasmPaths does: every file is then looked for there.
// 2. Vite's dev server pre-bundles a dependency into node_modules/.vite/deps/ (esbuild), where
//    `new URL('../dist/x', import.meta.url)` points into node_modules/.vite/dist/x, a file that is not there
//    (vitejs/vite#8427). Such a URL is mapped back to node_modules/attention-playground/dist/x, where that dev
//    server serves the package's own files, so `vite` needs no optimizeDeps.exclude.

let filesBase = null;

/** createAttention's filesUrl: the folder holding the package's dist/ and models/ (null: beside this file). */
export function setFilesUrl(url) {
  filesBase = url == null ? null : new URL(String(url).replace(/\/?$/, '/'), globalThis.location?.href);
}

/**
 * The URL to fetch a package file from: file is its path in the package ("dist/core/attention_core.wasm"), url
 * where the bundler (or, unbundled, the module's own URL) put it.
 */
export function packageFile(file, url) {
  if (filesBase) return new URL(file, filesBase);
  if (url.pathname.endsWith(`/node_modules/.vite/${file}`)) {
    return new URL(`${url.pathname.slice(0, -`.vite/${file}`.length)}attention-playground/${file}`, url);
  }
  return url;
}
