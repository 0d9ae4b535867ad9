// Starts the core's worker as a module worker beside this file: bundlers (Vite, webpack 5) follow
// new Worker(new URL(…, import.meta.url)) and bundle it. The one-file script (web/build-site.mjs)
// swaps this file for start_worker_inline.js, which carries the worker inside the script.
export function startWorker() {
  return new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
}

/** A module worker finds the core itself (../core_file.js). */
export function coreBytes() {
  return null;
}

/** Only the one-file script hands the worker a core, and names its file. */
export function coreSource() {
  return null;
}

/** A module worker loads its parts itself (../part_files.js): the page is never asked. */
export async function partModule(name) {
  throw new Error(`the worker asked the page for the ${name} part, which only the one-file script's worker does.`);
}
