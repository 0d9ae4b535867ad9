// The worker's half of worker_calls.js's watch for its death: a Web Lock it holds for as long as it lives. The
// browser releases a worker's locks when the worker is gone (closed or crashed), so the page, asking for the same
// lock, is handed it then and knows. Where locks cannot be used (a browser without them, a context that refuses
// them) nothing is held, and the page watches for a call that waits too long instead.

/** A new lock name for one worker's life, or null where this page has no locks. */
export function lifeName() {
  if (typeof navigator === 'undefined' || !navigator.locks?.request || typeof crypto?.randomUUID !== 'function') return null;
  return `attention-playground:worker:${crypto.randomUUID()}`;
}

/** What the page posts to a new worker first: hold this lock. */
export const holdMessage = (name) => ({ holdLife: name });

/**
 * In the worker: true for the page's {holdLife: name}, after asking for that lock; once held, the worker says so
 * ({alive: name}) and keeps it until it is gone.
 */
export function holdLife(data) {
  if (typeof data?.holdLife !== 'string') return false;
  const name = data.holdLife;
  try {
    navigator.locks.request(name, () => {
      self.postMessage({ alive: name });
      return new Promise(() => {}); // held for the worker's whole life
    }).catch(() => {}); // no locks here: the page's other watch remains
  } catch {
    // no locks at all
  }
  return true;
}
