// Drawing in pieces: a large stage (64 heads of 64 × 64, two 32 × 32 tables) is more DOM than one task
// should build, so parts of it are drawn after the next frame, a piece a task, and the page keeps
// answering (no main-thread task over 100 ms, issue 24). A piece queued for a stage that has since been
// drawn again is dropped. el.settled() waits for the pieces too.

/**
 * Runs draw() in a task after the next frame, unless the stage area was drawn again meanwhile
 * (el.drawn: a count renderStage bumps) and the piece belongs to the stage (always: it does not).
 */
export function later(el, draw, always = false) {
  const drawn = el.drawn;
  el.working(new Promise((resolve) => {
    requestAnimationFrame(() => setTimeout(() => {
      if (always || el.drawn === drawn) draw();
      resolve();
    }, 0));
  }));
}

/** Runs each of jobs with later(), one after another: one piece a task. */
export function inPieces(el, jobs) {
  const next = (k) => {
    if (k >= jobs.length) return;
    later(el, () => {
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
