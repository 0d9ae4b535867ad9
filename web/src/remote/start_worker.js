// Starts the core's worker as a module worker beside this file: bundlers (Vite, webpack 5) follow
// new Worker(new URL(…, import.meta.url)) and bundle it. The classic bundle for a post saved to disk
// (web/classic_bundle.mjs) builds this same line as a worker inside the script, started from a blob URL.
export function startWorker() {
  return new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
}
