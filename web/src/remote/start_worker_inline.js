// The one-file script's worker (web/build-site.mjs puts this file in place of start_worker.js): the
// worker and the wasm core inlined, started from a blob URL as a classic worker, which a post saved to
// disk and opened from file:// can run too (a module worker from a blob does not start there).
import CoreWorker from './worker.js?worker&inline';

export function startWorker() {
  return new CoreWorker();
}
