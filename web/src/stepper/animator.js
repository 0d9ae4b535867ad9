// Drives the stepper's progress with requestAnimationFrame: each stage's animation, a pause on its
// finished picture, then the next stage. Pacing: a quarter second a step, but at least 1.5 s and
// at most 8 s a stage (the scene reveals row by row when it has many cells), then at least 1 s on
// the finished stage with its caption. With prefers-reduced-motion every stage appears whole and
// stays for 1.5 s instead of building up cell by cell.

const reducedMotion = () => typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;

export const MIN_STAGE_MS = 1500;
export const MAX_STAGE_MS = 8000;
export const HOLD_MS = 1000;

/** How long a stage's animation takes at speed 1: a quarter second a step, within 1.5 s … 8 s. */
export function stageDuration(steps) {
  return Math.min(MAX_STAGE_MS, Math.max(MIN_STAGE_MS, steps * 250));
}

/**
 * @param {ReturnType<import('./store.js').createStore>} store
 * @param {() => {steps: number, stages: number}} shape the current stage's step count and the stage count
 */
export function createAnimator(store, shape) {
  let frame = 0;
  let last = 0;
  let held = 0; // ms spent on the finished stage so far

  function tick(now) {
    const s = store.get();
    if (!s.playing) return (frame = 0);
    const dt = last ? now - last : 0;
    last = now;
    const { steps, stages } = shape();
    const reduce = reducedMotion();
    if (s.progress < 1 && !reduce) {
      store.set({ progress: Math.min(1, s.progress + (dt * s.speed) / stageDuration(steps)) });
    } else {
      if (s.progress < 1) store.set({ progress: 1 }); // reduced motion: the stage whole at once
      held += dt;
      if (held >= (reduce ? MIN_STAGE_MS : HOLD_MS)) {
        held = 0;
        if (s.stageIndex + 1 >= stages) {
          store.set({ playing: false, animated: true });
          return (frame = 0);
        }
        store.set({ stageIndex: s.stageIndex + 1, progress: reduce ? 1 : 0, animated: false });
      }
    }
    if (store.get().progress >= 1) store.set({ animated: true });
    frame = requestAnimationFrame(tick);
  }

  return {
    /**
     * Plays from where the stepper is: resumes a stage part-way through, animates from its first
     * cell a stage that was only looked at (reached by a click or a key), and goes on to the next
     * stage after one that has finished its animation (back to the first after the last).
     */
    play() {
      const s = store.get();
      const { stages } = shape();
      if (s.progress >= 1 && !s.animated) store.set({ progress: 0 });
      else if (s.progress >= 1 && s.stageIndex + 1 >= stages) store.set({ stageIndex: 0, progress: 0, animated: false });
      else if (s.progress >= 1) store.set({ stageIndex: s.stageIndex + 1, progress: 0, animated: false });
      store.set({ playing: true });
      last = 0;
      held = 0;
      if (!frame) frame = requestAnimationFrame(tick);
    },
    pause() {
      store.set({ playing: false });
    },
    stop() {
      if (frame) cancelAnimationFrame(frame);
      frame = 0;
    },
  };
}
