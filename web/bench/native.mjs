// Benchmark (not a test): the portable native build (one binary, the streaming kernel chosen at
// run time by what the CPU has) against the same source built for this CPU alone
// (-march=native), taking turns in one run: the goal is that dispatch loses nothing to a tuned build.
//
// usage: node web/bench/native.mjs PORTABLE_ATTN TUNED_ATTN   (scripts/bench.sh builds both)
import { execFileSync } from 'node:child_process';

const [portable, tuned] = process.argv.slice(2);
const sizes = '512,2048';
const runs = { portable: [], tuned: [] };
for (let round = 0; round < 3; round++)
  for (const [name, bin] of [['portable', portable], ['tuned', tuned]])
    runs[name].push(JSON.parse(execFileSync(bin, ['bench', '--n', sizes, '--d', '64', '--json'])));

const median = (xs) => xs.sort((a, b) => a - b)[xs.length >> 1];
console.log('streaming kernel, d = 64, median of 3 alternating runs (GFLOP/s = 4·n²·d / time)');
for (const [i, n] of sizes.split(',').map(Number).entries()) {
  const flops = 4 * n * n * 64;
  const best = (name) => median(runs[name].map((rows) => rows[i].streaming_s));
  const [p, t] = [best('portable'), best('tuned')];
  console.log(`  n = ${String(n).padStart(4)}: portable ${(flops / p / 1e9).toFixed(1)} GFLOP/s, tuned ${(flops / t / 1e9).toFixed(1)} GFLOP/s: portable = ${(t / p).toFixed(2)}× the tuned build`);
}
