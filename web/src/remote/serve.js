// The worker's half of the page's one worker protocol (the page's half is worker_calls.js), for every worker
// the page starts: the core's (worker.js), the character models' (../model/worker.js) and a model folder's
// (../model/folder_worker.js). In: {id, op, args}. Out: {id, progress} while long work runs, then {id, result}
// (with what the operation transfers) or {id, error, name, cancelled}: the core's sentence, which the page
// throws as an AttentionError.
import { holdLife } from './worker_life.js';

/**
 * Serves `ops` in this worker: `what` names it in a refusal ("the core's worker"); `serial` runs one operation at a
 * time, in the order they came (a call posted while a model loads waits for it); `other(data)` takes a message that
 * is not an operation (a module's bytes) and returns true; `run(op, args, call)` runs one (default
 * ops[op](...args)), call being {id, transfer: [] (what the result transfers), progress(fraction)}.
 */
export function serveOperations(ops, { what, serial = false, other = () => false, run = (op, args) => ops[op](...args) }) {
  let queue = Promise.resolve();
  const answer = async (id, op, args) => {
    const call = { id, transfer: [], progress: (fraction) => self.postMessage({ id, progress: fraction }) };
    try {
      if (!Object.hasOwn(ops, op)) throw new Error(`${what} has no operation "${op}".`);
      const result = await run(op, args, call);
      self.postMessage({ id, result }, call.transfer);
    } catch (error) {
      self.postMessage({ id, error: String(error?.message ?? error), name: error?.name, cancelled: !!error?.cancelled });
    }
  };
  self.onmessage = ({ data }) => {
    if (holdLife(data)) return; // the page watches for this worker's death (worker_life.js)
    if (other(data)) return;
    const { id, op, args } = data;
    if (serial) queue = queue.then(() => answer(id, op, args));
    else answer(id, op, args);
  };
}
