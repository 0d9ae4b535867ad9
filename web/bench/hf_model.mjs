// A model you bring, GPT-2 small's shape (12 layers, 12 heads, d 768, vocabulary 50,257; random weights in the
// Hugging Face layout), side by side in one run, in headless Chromium as a reader's page runs it (cross-origin
// isolated, as scripts/serve.sh serves the site, so that both libraries may use threads): our forward pass (the npm
// package's model folder: the last token's next-token distribution; traced: every stage kept in the module, the
// next tokens from the same pass and one stage read, as model mode's worker reads it) on 64 and 256 tokens, and one
// generated token through the key/value cache, on one thread and on the wasm-threads module; against the same
// weights exported to ONNX by torch (gpt2_onnx.py) and run by onnxruntime-web's wasm backend (SIMD; 1 and 2
// threads) with past keys and values, as transformers.js runs GPT-2. Each contender runs in a page of its own, one
// measuring at a time (a pool of threads spinning in one page would take the cores another needs), in three rounds.
// Every contender's next token is checked against ours. Figures, not pass/fail; the best of the rounds' best of three
// runs each, after one not counted.
//
// usage: node web/bench/hf_model.mjs FOLDER MODEL.onnx   (FOLDER and MODEL.onnx inside the repository)
import path from 'node:path';

import { repo } from '../../tests/node/helpers.mjs';
import { isolatedPages } from './isolated_pages.mjs';

const [folder, onnxPath] = process.argv.slice(2).map((p) => path.resolve(p));
const SIZES = [64, 256];
const REPEAT = 3;
const STEPS = 8; // generated tokens timed per cached run
const served = (file) => path.relative(repo, file).split(path.sep).join('/');

const { server, newPage, close } = await isolatedPages();

/** A page of the repository's origin (cross-origin isolated) with window.bench.best(run) and setup(arg) run in it. */
async function pageWith(scripts, setup, arg) {
  const page = await newPage(scripts);
  await page.evaluate((repeat) => {
    window.bench = {
      /** The least of `repeat` runs, after one not counted (each engine compiles its hot code on first use). */
      async best(run, times = repeat) {
        await run();
        let least = Infinity;
        for (let r = 0; r < times; ++r) {
          const t0 = performance.now();
          await run();
          least = Math.min(least, performance.now() - t0);
        }
        return least;
      },
      /** The top token of logits and its probability: the check that both ran the same model (not a figure we draw). */
      top(logits) {
        let top = 0;
        for (let i = 1; i < logits.length; ++i) if (logits[i] > logits[top]) top = i;
        let sum = 0;
        for (const z of logits) sum += Math.exp(z - logits[top]);
        return { id: top, p: 1 / sum };
      },
    };
  }, REPEAT);
  return { page, info: await page.evaluate(setup, arg) };
}

/** Our package in its page: createAttention({threads}), the folder opened from its URL. */
const ours = (threads) => pageWith([], async ({ threads, url }) => {
  const { createAttention } = await import('/web/src/index.js');
  const a = await createAttention({ threads, parts: [] });
  const t0 = performance.now();
  window.bench.model = await a.loadModel(url);
  const m = window.bench.model;
  return { load: performance.now() - t0, threads: m.threads, relaxed: m.relaxedSimd, about: m.about, heap: m.memory().heapInUse, isolated: crossOriginIsolated };
}, { threads, url: `${server.url}${served(folder)}/` });

/** onnxruntime-web in its page with `threads` threads, its session made from the exported graph. */
const theirs = (threads) => pageWith(['onnxruntime-web/dist/ort.min.js'], async ({ threads, url }) => {
  const { ort } = window;
  ort.env.wasm.wasmPaths = '/web/node_modules/onnxruntime-web/dist/';
  ort.env.wasm.numThreads = threads;
  ort.env.logLevel = 'error';
  const t0 = performance.now();
  const bytes = new Uint8Array(await (await fetch(url)).arrayBuffer());
  window.bench.session = await ort.InferenceSession.create(bytes, { executionProviders: ['wasm'] });
  return { load: performance.now() - t0, version: ort.env.versions.web };
}, { threads, url: `${server.url}${served(onnxPath)}` });

/** Our rows: per n, the next token, a forward pass, a trace and one token through the cache. */
const ourRows = (page) => page.evaluate(async ({ sizes, steps }) => {
  const { model: m, best } = window.bench;
  const rows = [];
  for (const n of sizes) {
    const text = `the${' the'.repeat(n - 1)}`; // "the" is one GPT-2 token, " the" another: n tokens
    const top = m.next(text, 1)[0];
    const forward = await best(() => m.next(text, 1));
    // as model mode's worker traces a text: every stage kept in the module, the next tokens of the same pass, one
    // stage read (the one drawn), the others given up
    const traced = await best(() => {
      const t = m.trace(text, { next: 10 });
      void t.stages.find((s) => s.id === 'weights' && s.layer === 0).data;
      t.dispose();
    });
    // one token through the cache of n: generate's per-token cost (the prompt's pass subtracted)
    const prompt = await best(() => m.next(text, 1), 1);
    const gen = (await best(() => m.generate(text, { n: steps + 1, temperature: 0 }), 2) - prompt) / steps;
    rows.push({ n, ids: m.tokenize(text).ids, top, forward, traced, gen });
  }
  return rows;
}, { sizes: SIZES, steps: STEPS });

/** Their rows on the same token ids: the next token, a forward pass and one step with past keys and values. */
const theirRows = (page, idsOf, about) => page.evaluate(async ({ idsOf, L, H, dh }) => {
  const { ort, bench } = window;
  const { session, best } = bench;
  const empty = () => new ort.Tensor('float32', new Float32Array(0), [L, 2, H, 0, dh]);
  const run = (ids, past = empty()) => session.run({ ids: new ort.Tensor('int64', BigInt64Array.from(ids.map(BigInt)), [ids.length]), past });
  const rows = [];
  for (const ids of idsOf) {
    const first = await run(ids);
    const top = bench.top(first.logits.data);
    const forward = await best(() => run(ids));
    const step = await best(() => run([464], first.present));
    rows.push({ top, forward, step });
  }
  return rows;
}, { idsOf, L: about.n_layer, H: about.n_head, dh: about.d_head });

/** The least of each figure over the rounds: each contender's own cost (noise only adds). */
const least = (rounds) => rounds[0].map((row, k) => Object.fromEntries(Object.entries(row).map(([key, v]) =>
  [key, typeof v === 'number' && key !== 'n' ? Math.min(...rounds.map((r) => r[k][key])) : v])));

try {
  const one = await ours(false);
  const threaded = await ours(true);
  if (!threaded.info.isolated) throw new Error('the page is not cross-origin isolated');
  const ort = [await theirs(1), await theirs(2)];
  const idsOf = (await ourRows(one.page)).map((r) => r.ids);
  // the pages take turns, one measuring at a time, three rounds
  const rounds = [[], [], [], []];
  for (let round = 0; round < 3; ++round) {
    rounds[0].push(await ourRows(one.page));
    rounds[1].push(await ourRows(threaded.page));
    for (const [i, o] of ort.entries()) rounds[2 + i].push(await theirRows(o.page, idsOf, one.info.about));
  }
  const [us1, usT, them1, them2] = rounds.map(least);
  for (const [k, r] of us1.entries()) {
    for (const other of [usT[k].top, them1[k].top, them2[k].top]) {
      if (other.id !== r.top.id || Math.abs(other.p - r.top.p) > 1e-4) throw new Error(`n ${r.n}: ours ${JSON.stringify(r.top)} vs ${JSON.stringify(other)}`);
    }
  }
  const { about } = one.info;
  console.log(`GPT-2-small-shaped model (${about.n_layer} layers, ${about.n_head} heads, d ${about.d_model}, vocabulary ${about.n_vocab}, ${about.dtype}, ` +
    `${(about.weight_bytes / 2 ** 20).toFixed(0)} MB); headless Chromium, cross-origin isolated; onnxruntime-web ${ort[0].info.version}; ` +
    `ours with threads: ${threaded.info.threads} threads (this machine: ${(await import('node:os')).availableParallelism()} cores); ours ${threaded.info.relaxed ? 'on relaxed SIMD (the fused multiply-add twin)' : 'on plain SIMD'}`);
  console.log(`load: ours ${one.info.load.toFixed(0)} ms (module heap ${(one.info.heap / 2 ** 20).toFixed(0)} MB), with threads ${threaded.info.load.toFixed(0)} ms; ` +
    `onnxruntime-web ${ort[0].info.load.toFixed(0)} ms (1 thread), ${ort[1].info.load.toFixed(0)} ms (2 threads)`);
  console.log('time, the best of 3 rounds of 3 runs; ratio = onnxruntime-web\'s time ÷ ours with as many threads (above 1: ours is faster); ÷fwd: traced ÷ forward, the same module');
  const f = (x) => `${x.toFixed(1)} ms`.padStart(10);
  const r = (x) => `${x.toFixed(2)}×`.padStart(7);
  const head = ['n', 'ours 1', 'ORT 1', 'ratio', 'ours 2', 'ORT 2', 'ratio', 'traced 1', '÷fwd', 'traced 2', '÷fwd', 'step 1', 'ORT st 1', 'ratio', 'step 2', 'ORT st 2', 'ratio'];
  const widths = [4, 10, 10, 7, 10, 10, 7, 10, 7, 10, 7, 10, 10, 7, 10, 10, 7];
  console.log(head.map((h, i) => h.padStart(widths[i])).join(' '));
  for (const [k, a] of us1.entries()) {
    const b = usT[k], o1 = them1[k], o2 = them2[k];
    console.log([String(a.n).padStart(4), f(a.forward), f(o1.forward), r(o1.forward / a.forward), f(b.forward), f(o2.forward), r(o2.forward / b.forward),
      f(a.traced), r(a.traced / a.forward), f(b.traced), r(b.traced / b.forward),
      f(a.gen), f(o1.step), r(o1.step / a.gen), f(b.gen), f(o2.step), r(o2.step / b.gen)].join(' '));
  }
} finally {
  await close();
}
