// Drawing in pieces: a large stage (64 heads of 64 × 64, two 32 × 32 tables) is more DOM than one task
// should build, so parts of it are drawn after the next frame, a piece a task, and the page keeps
// answering (no main-thread task over 100 ms, issue 24). A piece queued for a stage that has since been
// drawn again is dropped. The element's settled() waits for the pieces too.

/**
 * Runs draw() in a task after the next frame, unless owner drew again meanwhile (owner.drawn: a count the
 * stage area bumps on every drawing) and the piece belongs to that drawing (always: it does not).
 * owner.working(promise) counts it for the element's settled().
 */
export function later(owner, draw, always = false) {
  const drawn = owner.drawn;
  owner.working(new Promise((resolve) => {
    requestAnimationFrame(() => setTimeout(() => {
      if (always || owner.drawn === drawn) draw();
      resolve();
    }, 0));
  }));
}

/** Runs each of jobs with later(), one after another: one piece a task. */
export function inPieces(owner, jobs) {
  const next = (k) => {
    if (k >= jobs.length) return;
    later(owner, () => {
      jobs[k]();
      next(k + 1);
    });
  };
  next(0);
}

/**
 * Runs run(from, to) over 0 … count: the first `per` now, the others `per` at a time as jobs handed to
 * queue (inPieces, or a caller's own that redraws after each): how a large picture is drawn in pieces.
 */
export function nowAndLater(count, per, run, queue) {
  run(0, Math.min(count, per));
  const jobs = [];
  for (let from = per; from < count; from += per) jobs.push(() => run(from, Math.min(count, from + per)));
  if (jobs.length) queue(jobs);
}
