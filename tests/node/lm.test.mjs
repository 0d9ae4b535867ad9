// The language model in the npm module: a.loadModel('zh' | 'en' | bytes) gives the native CLI's numbers
// (trace ≤ 1e-5, the same next characters, the same generated text for a seed, the same head scores),
// refuses bad arguments and hostile files with one sentence, keeps working after each, and trains.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

import { AttentionError, createAttention } from '../../web/src/node.js';
import { attnCli, webDir } from './helpers.mjs';

const a = await createAttention();
const cli = (...args) => execFileSync(attnCli, ['lm', ...args], { encoding: 'utf8', maxBuffer: 1 << 28 });
const modelFile = (name) => path.join(webDir, 'models', `${name}.safetensors`);
const texts = { zh: '床前明月光，疑是地上霜。举头望明月，低头思故乡。', en: 'The cat sat on the mat. The cat sat on' };

for (const name of ['zh', 'en']) {
  test(`${name}: m.trace equals attn lm trace, stage by stage (≤ 1e-5)`, async () => {
    const m = await a.loadModel(name);
    const text = texts[name] + '☃';
    const wasm = m.trace(text);
    const native = JSON.parse(cli('trace', '--model', modelFile(name), '--text', text));
    assert.deepEqual(wasm.tokens, native.tokens);
    assert.deepEqual(wasm.ids, native.ids);
    assert.deepEqual(wasm.unknown, [[...text].length - 1]);
    assert.equal(wasm.stages.length, native.stages.length);
    for (let s = 0; s < wasm.stages.length; s++) {
      const w = wasm.stages[s], n = native.stages[s];
      assert.equal(w.id, n.id);
      assert.equal(w.layer, n.layer);
      assert.deepEqual(w.shape, n.shape);
      for (let i = 0; i < n.data.length; i++) {
        assert.ok(Math.abs(w.data[i] - n.data[i]) <= 1e-5 * Math.max(1, Math.abs(n.data[i])), `${n.id} layer ${n.layer} [${i}]: ${w.data[i]} vs ${n.data[i]}`);
      }
    }
    // each stage's facts are its registry row's (m.stages() is attn lm stages, the core's one table)
    const registry = m.stages();
    assert.deepEqual(registry, JSON.parse(cli('stages')));
    const rowOf = new Map(registry.map((r) => [r.id, r]));
    for (const st of wasm.stages) {
      const row = rowOf.get(st.id);
      assert.deepEqual([st.symbol, st.title.en, st.title.zh, st.scale], [row.symbol, row.title, row.title_zh, row.scale], st.id);
    }
    assert.equal(rowOf.get('probs').scale, 'probability');
    const ids = wasm.stages.map((s) => `${s.id}@${s.layer}`);
    for (const id of ['embed@null', 'ln_1@0', 'weights@0', 'resid_mid@1', 'mlp_act@1', 'resid_post@1', 'logits@null', 'probs@null']) assert.ok(ids.includes(id), id);
    m.dispose();
  });

  test(`${name}: next, generate and heads equal the CLI's`, async () => {
    const m = await a.loadModel(name);
    const next = m.next(texts[name], 10);
    const nativeNext = JSON.parse(cli('next', '--model', modelFile(name), '--text', texts[name], '--k', '10'));
    assert.deepEqual(next.map((c) => c.char), nativeNext.map((c) => c.char));
    for (let i = 0; i < 10; i++) assert.ok(Math.abs(next[i].p - nativeNext[i].p) < 1e-5);
    assert.ok(next[0].p >= next[9].p);
    const generated = m.generate(texts[name].slice(0, 5), { n: 120, temperature: 0.8, seed: 42 });
    const native = cli('generate', '--model', modelFile(name), '--prompt', texts[name].slice(0, 5), '--n', '120', '--temperature', '0.8', '--seed', '42');
    assert.equal(generated, native.replace(/\n$/, ''));
    assert.equal([...generated].length, 120);
    assert.equal(m.generate('ab', { n: 20, temperature: 0, seed: 1 }), m.generate('ab', { n: 20, temperature: 0, seed: 2 }), 'greedy ignores the seed');
    assert.deepEqual(m.heads(), JSON.parse(cli('heads', '--model', modelFile(name))));
  });
}

test('a trace keeps its own numbers after later traces of any model (the core keeps one; JS copies what is unread)', async () => {
  const zh = await a.loadModel('zh'), en = await a.loadModel('en');
  const first = zh.trace(texts.zh);
  const readEarly = first.stages.find((s) => s.id === 'weights' && s.layer === 1).data;
  en.trace(texts.en);
  zh.step(texts.zh.slice(0, 3));
  const again = zh.trace(texts.zh);
  assert.equal(first.stages.length, again.stages.length);
  for (let s = 0; s < first.stages.length; s++) {
    assert.ok(first.stages[s].data instanceof Float32Array);
    assert.equal(first.stages[s].data, first.stages[s].data, 'one array per stage, however often read');
    assert.deepEqual(first.stages[s].data, again.stages[s].data, `${first.stages[s].id}@${first.stages[s].layer}`);
  }
  assert.equal(readEarly, first.stages.find((s) => s.id === 'weights' && s.layer === 1).data);
  zh.dispose();
  en.dispose();
});

test('m.attribution equals attn lm attribute, and m.layerSpec traced by a.trace gives the model trace\'s weights', async () => {
  const m = await a.loadModel('zh');
  const ours = m.attribution(texts.zh, 5);
  const native = JSON.parse(cli('attribute', '--model', modelFile('zh'), '--text', texts.zh, '--k', '5'));
  assert.deepEqual(ours.map((c) => c.char), native.map((c) => c.char));
  ours.forEach((c, i) => c.heads.forEach((v, g) => assert.ok(Math.abs(v - native[i].heads[g]) <= 1e-5, `${c.char} head ${g}: ${v} vs ${native[i].heads[g]}`)));
  assert.equal(ours[0].heads.length, m.about.config.n_layer * m.about.config.n_head);
  const full = m.trace(texts.zh);
  for (let l = 0; l < m.about.config.n_layer; l++) {
    const t = a.trace(m.layerSpec(texts.zh, l));
    const w = t.stages.find((s) => s.id === 'weights').data, expected = full.stages.find((s) => s.id === 'weights' && s.layer === l).data;
    assert.equal(w.length, expected.length);
    w.forEach((v, k) => assert.ok(Math.abs(v - expected[k]) <= 1e-6, `layer ${l} [${k}]`));
  }
  assert.throws(() => m.layerSpec(texts.zh, 2), /layer is 2 but must be a whole number from 0 to 1/);
  m.dispose();
});

test('m.layerGrad: a.grad of the layer with the model\'s loss above it equals attn lm layer-grad | attn grad, and attn lm grad\'s weights', async () => {
  const m = await a.loadModel('zh');
  const text = texts.zh.slice(0, 12);
  const fullGrad = JSON.parse(cli('grad', '--model', modelFile('zh'), '--text', text));
  for (let l = 0; l < m.about.config.n_layer; l++) {
    const { loss, spec } = m.layerGrad(text, l);
    const native = JSON.parse(cli('layer-grad', '--model', modelFile('zh'), '--text', text, '--layer', String(l + 1)));
    assert.ok(Math.abs(loss - native.loss) <= 1e-6 && Math.abs(loss - fullGrad.loss) <= 1e-6, `loss ${loss} vs ${native.loss}, ${fullGrad.loss}`);
    assert.equal(spec.loss, 'upstream');
    const ours = a.grad(spec);
    const theirs = JSON.parse(execFileSync(attnCli, ['grad', '-'], { input: JSON.stringify(native.spec), encoding: 'utf8', maxBuffer: 1 << 28 }));
    assert.deepEqual(ours.stage_grads.map((g) => g.id), theirs.stage_grads.map((g) => g.id));
    ours.stage_grads.forEach((g, s) => g.data.forEach((v, k) => {
      const n = theirs.stage_grads[s].data[k];
      assert.ok(Math.abs(v - n) <= 1e-5 * Math.max(1, Math.abs(n)), `layer ${l} ${g.id}[${k}]: ${v} vs ${n}`);
    }));
    for (const w of ['wq', 'bq', 'wk', 'wv', 'wo', 'bo']) {
      const flat = ours.grads[w].flat(), whole = fullGrad.grads[`h.${l}.attn.${w}`];
      flat.forEach((v, k) => assert.ok(Math.abs(v - whole[k]) <= 1e-5, `layer ${l} ${w}[${k}]: ${v} vs the model's ${whole[k]}`));
    }
  }
  assert.throws(() => m.layerGrad('床', 0), /at least 2 characters/);
  assert.throws(() => m.layerGrad(text, 2), /layer is 2 but must be a whole number from 0 to 1/);
  assert.throws(() => a.grad({ ...m.layerGrad(text, 0).spec, upstream: [[1]] }), /upstream is 1 × 1 but the last stage is 12 × 64/);
  m.dispose();
});

test('one generation step: the cache grows by one row, and its row of weights, its keys and its probabilities are the full trace\'s, bit for bit (one forward pass)', async () => {
  const m = await a.loadModel('zh');
  const text = texts.zh.slice(0, 12);
  const full = m.trace(text), step = m.step(text);
  const n = [...text].length, H = m.about.config.n_head, dh = m.about.config.d_model / H;
  for (let l = 0; l < m.about.config.n_layer; l++) {
    const row = step.stages.find((s) => s.id === 'weights' && s.layer === l);
    const cache = step.stages.find((s) => s.id === 'kv_cache' && s.layer === l);
    assert.deepEqual(row.shape, [H, 1, n]);
    assert.deepEqual(cache.shape, [2, H, n, dh]);
    const w = full.stages.find((s) => s.id === 'weights' && s.layer === l), k = full.stages.find((s) => s.id === 'k' && s.layer === l);
    for (let h = 0; h < H; h++) {
      for (let j = 0; j < n; j++) assert.equal(row.data[h * n + j], w.data[(h * n + n - 1) * n + j]);
      for (let x = 0; x < n * dh; x++) assert.equal(cache.data[h * n * dh + x], k.data[h * n * dh + x]);
    }
  }
  const p = step.stages.find((s) => s.id === 'probs');
  const q = full.stages.find((s) => s.id === 'probs');
  const V = m.about.vocab_size;
  for (let c = 0; c < V; c++) assert.equal(p.data[c], q.data[(n - 1) * V + c]);
  assert.equal(full.stages.find((s) => s.id === 'ln_1').title.zh, '注意力之前的 LayerNorm');
  assert.match(m.explain(text, 'ln_1', { layer: 0, i: 1, j: 2 }), /^LN₁\[前, d3\] = \(/);
  assert.match(m.explain(text, 'logits', { i: 0, j: 1 }), /^z\[床 → .*\(64 terms\)/);
  const chars = [...text];
  assert.ok(m.explain(text, 'weights', { layer: 1, head: 2, i: 3, j: 1 }).startsWith(`α[${chars[3]}, ${chars[1]}] = exp[${chars[3]}, ${chars[1]}] ÷ s_${chars[3]} = `),
    'a layer\'s caption names its cells by the text\'s characters');
  assert.throws(() => m.explain(text, 'ln_1', { layer: 5 }), /layer is 5/);
});

test('every module has one call (attn_call) but a.attention\'s kernel, and index.d.ts\'s ModelOperation spells the character model\'s table', async () => {
  const m = await a.loadModel('en');
  const dts = readFileSync(path.join(webDir, 'types/index.d.ts'), 'utf8');
  const typed = dts.match(/export type ModelOperation = ([^;]+);/)[1].match(/'([a-z_]+)'/g).map((x) => x.slice(1, -1));
  assert.deepEqual(typed, m.operations());
  // each glue's exports: the one call, the refusal's sentence, the heap's use, malloc and free, nothing else; but
  // a.attention's kernel (the fast part), raw floats in the heap and a status (wasm/fast_path.cpp)
  const common = ['_attn_error', '_attn_heap_in_use', '_free', '_malloc'];
  const kernel = ['_attn_attention', '_attn_attention_bytes', '_attn_forward', '_attn_max_threads'];
  for (const glue of ['dist/core/attention_core.js', 'dist/vision/attention_vision.js', 'dist/learn/attention_learn.js',
    'dist/explain/attention_explain.js', 'dist/lm/attention_lm.js', 'dist/hf/attention_hf.js', 'dist/fast/attention_fast.js']) {
    const text = readFileSync(path.join(webDir, glue), 'utf8');
    const exported = new Set([...text.matchAll(/Module\["(_[a-z][a-z_]*)"\]=/g)].map((x) => x[1]));
    assert.deepEqual([...exported].sort(), [...(glue.includes('fast') ? kernel : ['_attn_call']), ...common].sort(), glue);
  }
  m.dispose();
});

test('bad arguments are refused with one sentence, and the next call still works', async () => {
  const m = await a.loadModel('en');
  const cases = [
    [() => m.trace('x'.repeat(129)), /129 characters but the model reads at most 128/],
    [() => m.trace(''), /empty/],
    [() => m.trace('a\ud800b'), /lone UTF-16 surrogate/],
    [() => m.explain('abc', 'ln_\ud800'), /^explain: the stage id must be a string such as "ln_1"\.$/],
    [() => m.next('abc', 0), /k is 0/],
    [() => m.next('abc', 1.5), /k is 1.5/],
    [() => m.generate('ab', { temperature: -1 }), /temperature/],
    [() => m.generate('ab', { temperature: NaN }), /temperature/],
    [() => m.generate('ab', { seed: 1.5 }), /seed is 1.5/],
    [() => m.generate('ab', { seed: 2 ** 60 }), /seed/],
    [() => m.generate('ab', { n: 0 }), /n is 0/],
    // the core's bounds (attn_call("limits")), not bounds typed again in lm.js
    [() => m.generate('ab', { n: 8001 }), /^n is 8001 but must be a whole number from 1 to 8000\.$/],
    [() => m.trainer('abc', { batch: 513 }), /^batch is 513 but must be a whole number from 1 to 512\.$/],
    [() => m.trainer('abc', { warmup: -1 }), /^warmup is -1 but must be a whole number from 0 to 100000\.$/],
  ];
  for (const [call, sentence] of cases) {
    assert.throws(call, (e) => e instanceof AttentionError && sentence.test(e.message) && !e.message.includes('\n'), String(sentence));
    assert.equal(m.trace('ok').tokens.length, 2);
  }
  // a fresh model's shape: the core's config bounds (n_layer up to 12, as a weight file may have)
  await assert.rejects(a.freshModel('x', { nLayer: 13 }), { name: 'AttentionError', message: 'nLayer is 13 but must be a whole number from 1 to 12.' });
  await assert.rejects(a.freshModel('x', { vocab: 7 }), { name: 'AttentionError', message: 'vocab is 7 but must be a whole number from 8 to 4096.' });
  const heap = a.memory().heapInUse;
  for (let i = 0; i < 50; i++) m.trace('The cat sat on the mat.');
  assert.ok(a.memory().heapInUse <= heap + 65536, 'the trace\'s own heap is given back');
});

test('hostile weight files are refused with one sentence; the module keeps working', async () => {
  const good = new Uint8Array(readFileSync(modelFile('en')));
  const view = new DataView(good.buffer);
  const n = Number(view.getBigUint64(0, true));
  const header = new TextDecoder().decode(good.subarray(8, 8 + n));
  const withHeader = (text) => {
    const h = new TextEncoder().encode(text);
    const out = new Uint8Array(8 + h.length + good.length - 8 - n);
    new DataView(out.buffer).setBigUint64(0, BigInt(h.length), true);
    out.set(h, 8);
    out.set(good.subarray(8 + n), 8 + h.length);
    return out;
  };
  const huge = good.slice();
  new DataView(huge.buffer).setBigUint64(0, 2n ** 32n, true);
  const cases = [
    [new Uint8Array([1, 2, 3]), /shorter than/],
    [huge, /header length/],
    [good.slice(0, 8 + n - 10), /header length/],
    [withHeader(header.replace(/"data_offsets":\[0,(\d+)\]/, '"data_offsets":[0,999999999]')), /outside|bytes but its shape/],
    [withHeader(header.replace('"wte"', '"wtx"')), /not one of/],
    [withHeader(header.replace('\\"<unk>\\"', '\\"xy\\"')), /entry 0/],
    [withHeader('{"__metadata__": 5}'), /__metadata__/],
  ];
  for (const [bytes, sentence] of cases) {
    const started = Date.now();
    await assert.rejects(a.loadModel(bytes), (e) => e instanceof AttentionError && sentence.test(e.message), String(sentence));
    assert.ok(Date.now() - started < 1000);
  }
  await assert.rejects(a.loadModel('fr'), /loadModel takes 'zh', 'en'/);
  const m = await a.loadModel(good);
  assert.ok(m.trace('The').stages.length > 10);
});

test('m.train lowers the loss on a text, calls onStep, and the trained model saves and loads', async () => {
  const m = await a.loadModel('en');
  const text = 'abcdefgh '.repeat(40);
  const steps = [];
  m.trace('abcdefg'); // the core keeps this trace for the text's attribution: training must not let it be used
  const losses = await m.train(text, { steps: 30, batch: 4, lr: 3e-3, seed: 3, onStep: (s) => steps.push(s.step) });
  const stale = m.attribution('abcdefg', 3);
  m.trace('xyz');
  assert.deepEqual(stale, m.attribution('abcdefg', 3), 'the attribution after training is of the trained weights');
  assert.deepEqual(steps, Array.from({ length: 30 }, (_, i) => i + 1));
  assert.ok(losses[29] < losses[0] * 0.7, `loss ${losses[0]} → ${losses[29]}`);
  const again = await a.loadModel(m.save());
  assert.deepEqual(again.next('abcdefg', 1), m.next('abcdefg', 1));
  assert.equal(again.next('abcdefg', 1)[0].char, 'h');
});

test('the budget of one call (lm_bounds) leaves room for what the page and the build do: the induction lesson, generate 8000, heads', async () => {
  const { LESSON, LESSON_FILES } = await import('../../web/src/model/lesson.js');
  const corpus = LESSON_FILES.map((f) => readFileSync(path.join('/usr/share/games/fortunes', f), 'utf8')).join('');
  const lesson = await a.freshModel(corpus, { ...LESSON.shape, seed: 1 });
  const run = lesson.trainer(lesson.trainingText, { ...LESSON.training, seed: 1 });
  assert.equal(run.step(5).length, 5, 'the lesson trains a few steps a frame');
  assert.equal(lesson.heads().length, LESSON.shape.nLayer * LESSON.shape.nHead);
  const heap = lesson.memory();
  assert.ok(heap.heapInUse > 0 && heap.heapSize >= heap.heapInUse);
  run.dispose();
  lesson.dispose();
  const zh = await a.loadModel('zh');
  assert.equal([...zh.generate('床前', { n: 8000, seed: 2 })].length, 8000, 'generate at its bound of n');
  assert.equal(zh.heads().length, 8);
  assert.equal(zh.trace(texts.zh.repeat(12).slice(0, 128)).tokens.length, 128, 'a trace of the whole context');
  zh.dispose();
});

test('the zh model reads the articles\' modern sentence and the poems alike: no unknown character (issue 49)', async () => {
  const zh = await a.loadModel('zh');
  for (const text of ['我今天去了火锅店，那家店需要提前预约吗', '床前明月光，疑是地上霜。举头望明月，低头思故乡。', '历史告诉我们不珍惜自由便失去自由'])
    assert.deepEqual(zh.trace(text).unknown, [], text);
  assert.deepEqual(zh.about.corpus, ['fortunes-zh:tang300', 'fortunes-zh:song100', 'fortunes-zh:chinese']);
  zh.dispose();
});

// issue 49: what model mode tells about the typed text, each the CLI's numbers
const lazy = 'The lazy dog sleeps all day. The lazy dog sl';

test('m.attribution splits each logit into its sources, summing to it (≤ 1e-4), as attn lm attribute does', async () => {
  for (const [name, text] of [['en', lazy], ['zh', texts.zh]]) {
    const m = await a.loadModel(name);
    const ours = m.attribution(text, 5);
    const native = JSON.parse(cli('attribute', '--model', modelFile(name), '--text', text, '--k', '5'));
    const { n_layer: L, n_head: H } = m.about.config;
    ours.forEach((c, i) => {
      assert.equal(c.parts.length, 1 + L * (H + 2) + 1);
      assert.deepEqual(c.parts.map((p) => [p.part, p.layer, p.head]), native[i].parts.map((p) => [p.part, p.layer, p.head]));
      c.parts.forEach((p, k) => assert.ok(Math.abs(p.value - native[i].parts[k].value) <= 1e-5, `${c.char} ${p.part}: ${p.value} vs ${native[i].parts[k].value}`));
      const sum = c.parts.reduce((s, p) => s + p.value, 0);
      assert.ok(Math.abs(sum - c.logit) <= 1e-4, `${name} "${c.char}": the parts sum to ${sum}, the logit is ${c.logit}`);
      // the heads' parts are the heads list, layer by layer
      assert.deepEqual(c.parts.filter((p) => p.part === 'head').map((p) => Math.fround(p.value)), c.heads);
    });
    m.dispose();
  }
});

test('m.lens, m.heads(text), m.sample and the shaped m.next equal the CLI; the same seed gives the same text', async () => {
  const m = await a.loadModel('en');
  const file = modelFile('en');
  const lens = m.lens(lazy);
  const nativeLens = JSON.parse(cli('lens', '--model', file, '--text', lazy));
  assert.deepEqual(lens.map((p) => [p.layer, p.after, p.top.map((c) => c.char)]), nativeLens.map((p) => [p.layer, p.after, p.top.map((c) => c.char)]));
  assert.equal(lens.length, 4);
  lens.forEach((p) => assert.equal(p.top.length, 5));
  // the lens's last point is the model's own next character
  const next = m.next(lazy, 5);
  assert.deepEqual(lens.at(-1).top.map((c) => c.char), next.map((c) => c.char));

  const heads = m.heads(lazy);
  assert.deepEqual(heads, JSON.parse(cli('heads', '--model', file, '--text', lazy)));
  for (const h of heads) {
    assert.deepEqual(Object.keys(h.text).sort(), ['entropy', 'first_token', 'induction', 'previous_token', 'self']);
    assert.equal(h.probe.induction, h.induction, 'the top level is the probe\'s');
  }
  assert.ok(Math.max(...heads.map((h) => h.text.induction)) > 0.1, 'a head copies on this text');
  assert.equal(m.heads('abcd')[0].text.induction, null, 'no character repeats: induction is not measured');

  const options = { temperature: 1.5, topK: 5, topP: 0.9, seed: 3 };
  const sample = m.sample(lazy, { ...options, k: 6 });
  const nativeSample = JSON.parse(cli('sample', '--model', file, '--text', lazy, '--temperature', '1.5', '--top-k', '5', '--top-p', '0.9', '--seed', '3', '--k', '6'));
  assert.deepEqual(sample.candidates.map((c) => c.char), nativeSample.candidates.map((c) => c.char));
  assert.equal(sample.sampled.char, nativeSample.sampled.char);
  sample.candidates.forEach((c, i) => ['temperature', 'top_k', 'top_p'].forEach((key) => assert.ok(Math.abs(c[key] - nativeSample.candidates[i][key]) < 1e-5, `${c.char} ${key}`)));
  assert.equal(sample.candidates.filter((c) => c.top_k > 0).length, 5);
  const generated = m.generate(lazy.slice(0, 20), { ...options, n: 40 });
  assert.equal(generated, cli('generate', '--model', file, '--prompt', lazy.slice(0, 20), '--n', '40', '--temperature', '1.5', '--top-k', '5', '--top-p', '0.9', '--seed', '3').replace(/\n$/, ''));
  assert.equal(m.generate(lazy, { ...options, n: 1 }), sample.sampled.char, 'generate\'s first draw is the sample\'s');
  const shaped = m.next(lazy, 4, { temperature: 1.5, topK: 5, topP: 0.9 });
  const nativeShaped = JSON.parse(cli('next', '--model', file, '--text', lazy, '--k', '4', '--temperature', '1.5', '--top-k', '5', '--top-p', '0.9'));
  assert.deepEqual(shaped.map((c) => c.char), nativeShaped.map((c) => c.char));
  shaped.forEach((c, i) => assert.ok(Math.abs(c.p - nativeShaped[i].p) < 1e-6));
  assert.ok(Math.abs(shaped[0].p - sample.candidates[0].top_p) < 1e-6);
  assert.throws(() => m.next(lazy, 3, { topP: 0 }), (e) => e instanceof AttentionError && /topP is 0 but must be from 0.001 to 1/.test(e.message));
  assert.throws(() => m.generate(lazy, { topK: -1 }), (e) => e instanceof AttentionError && /topK is -1/.test(e.message));
  m.dispose();
});
