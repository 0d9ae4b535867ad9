// Starts the core's worker as a module worker beside this file: bundlers (Vite, webpack 5) follow
// new Worker(new URL(…, import.meta.url)) and bundle it. The one-file script (web/build-site.mjs)
// swaps this file for start_worker_inline.js, which carries the worker inside the script.
export function startWorker() {
  return new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
}
