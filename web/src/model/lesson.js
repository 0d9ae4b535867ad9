// The induction lesson's recipe, in one place for the page's worker (worker.js), the build (the corpus
// asset, web/build-site.mjs) and the benchmark (web/bench/induction.mjs): a fresh 2-layer model (4 heads,
// d_model 64, MLP 256, 32 characters of context) on English fortunes from Debian, half of each batch a
// random string repeated — the shipped en model's recipe at half its context. Measured natively: an
// attention-only model of this size (d_mlp 0) grew no induction head within 3000 steps, on repeated strings
// alone or with text; with the MLP and text it forms. In wasm (node web/bench/induction.mjs), seeds 1, 2, 3:
// the layer-2 induction score reaches 0.4 at steps 1500, 2375, 2200 over a 4000-step cosine; over 2500 steps
// seed 2 never got there, with batches of 8 no seed did, and at lr 5e-3 seed 2 did not either.

/** Debian's fortunes files (package fortunes, /usr/share/games/fortunes) the lesson trains on. */
export const LESSON_FILES = ['wisdom', 'science', 'humorists'];

export const LESSON = {
  shape: { nLayer: 2, nHead: 4, dModel: 64, dMlp: 256, nCtx: 32, vocab: 128 },
  training: { steps: 4000, batch: 16, lr: 3e-3, warmup: 100, repeatFraction: 0.5 },
};

/** An induction head has formed when a layer-2 head's induction score reaches this. */
export const FORMED = 0.4;
