// Drives the stepper's progress with requestAnimationFrame: through each stage's animation,
// then on to the next stage. With prefers-reduced-motion every stage appears whole and stays
// a moment instead of building up cell by cell.

const reducedMotion = () => typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;

/** How long a stage takes at speed 1: a quarter second a step, within 1.2 s … 5 s. */
export function stageDuration(steps) {
  return Math.min(5000, Math.max(1200, steps * 250));
}

/**
 * @param {ReturnType<import('./store.js').createStore>} store
 * @param {() => {steps: number, stages: number}} shape the current stage's step count and the stage count
 */
export function createAnimator(store, shape) {
  let frame = 0;
  let last = 0;

  function tick(now) {
    const s = store.get();
    if (!s.playing) return (frame = 0);
    const dt = last ? now - last : 0;
    last = now;
    const { steps, stages } = shape();
    const reduce = reducedMotion();
    const duration = reduce ? 1500 : stageDuration(steps);
    let progress = s.progress + (dt * s.speed) / duration;
    if (progress >= 1) {
      if (s.stageIndex + 1 < stages) {
        store.set({ stageIndex: s.stageIndex + 1, progress: reduce ? 1 : 0 });
      } else {
        store.set({ progress: 1, playing: false });
        return (frame = 0);
      }
    } else {
      store.set({ progress: reduce ? Math.max(progress, 0.999) : progress });
    }
    frame = requestAnimationFrame(tick);
  }

  return {
    /** Starts playing from where the stepper is (from the start of the stage if it was finished). */
    play() {
      const s = store.get();
      const { stages } = shape();
      if (s.progress >= 1 && s.stageIndex + 1 >= stages) store.set({ stageIndex: 0, progress: 0 });
      else if (s.progress >= 1) store.set({ stageIndex: s.stageIndex + 1, progress: 0 });
      store.set({ playing: true });
      last = 0;
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
