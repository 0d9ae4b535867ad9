// The induction lesson's figures (issue 26): training steps per second in wasm (Node, one thread as in
// the page's worker) and the step at which the best layer-2 head's induction score first reaches 0.4,
// for three seeds, with their median. The recipe is the page's (web/src/model/lesson.js); head scores are
// the core's detectors, read every 25 steps as the page reads them.
// usage: node web/bench/induction.mjs [seeds…]
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { createAttention } from '../src/node.js';
import { FORMED, LESSON, LESSON_FILES } from '../src/model/lesson.js';

const seeds = process.argv.slice(2).map(Number);
if (!seeds.length) seeds.push(1, 2, 3);
const corpus = LESSON_FILES.map((f) => readFileSync(path.join('/usr/share/games/fortunes', f), 'utf8').replace(/\n?$/, '\n')).join('%\n');
const a = await createAttention();
const median = (xs) => xs.slice().sort((p, q) => p - q)[Math.floor(xs.length / 2)];
const rows = [];
for (const seed of seeds) {
  const model = await a.freshModel(corpus, { ...LESSON.shape, seed });
  const run = model.trainer(model.trainingText, { ...LESSON.training, seed });
  let formed = null, ms = 0, loss0 = null, loss = null;
  while (run.done < LESSON.training.steps && formed === null) {
    const t0 = performance.now();
    const losses = run.step(25);
    ms += performance.now() - t0;
    loss0 ??= losses[0];
    loss = losses.at(-1);
    const best = Math.max(...model.heads().filter((h) => h.layer === 1).map((h) => h.induction));
    if (best >= FORMED) formed = run.done;
  }
  const row = { seed, formed, stepsPerSecond: (run.done * 1000) / ms, loss0, loss };
  rows.push(row);
  console.log(`seed ${seed}: induction score ≥ ${FORMED} at step ${formed ?? `— (not within ${LESSON.training.steps})`}; ` +
    `${row.stepsPerSecond.toFixed(1)} steps/s in wasm; loss ${loss0.toFixed(3)} → ${loss.toFixed(3)} nats/character`);
  run.dispose();
  model.dispose();
}
const formedAt = rows.map((r) => r.formed ?? Infinity);
console.log(`median: formed at step ${median(formedAt)}, ${median(rows.map((r) => r.stepsPerSecond)).toFixed(1)} steps/s ` +
  `(${(median(formedAt) / median(rows.map((r) => r.stepsPerSecond))).toFixed(0)} s of training to the phase change)`);
