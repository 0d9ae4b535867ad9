// Models you bring through the npm package (docs/models-you-bring.md): a.loadModel({config, weights, tokenizer}),
// {files} and a folder's URL, on folders the independent numpy writer makes (tests/oracle/hf_numpy.py), against
// the native CLI on the same folders: the same ids, every stage within 1e-5, the same sampled and generated
// tokens. Hostile folders are refused in one sentence, the module's memory given back, and a model loaded before
// still works.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';

import { AttentionError, createAttention } from '../../web/src/node.js';
import { hasRelaxedSimd } from '../../web/src/relaxed_simd.js';
import { attnCli, repo } from './helpers.mjs';

const a = await createAttention();
const work = mkdtempSync(path.join(os.tmpdir(), 'attn-folders-'));
const cli = (...args) => execFileSync(attnCli, ['lm', ...args], { encoding: 'utf8', maxBuffer: 1 << 28 });
const cliJson = (...args) => JSON.parse(cli(...args));

/** Writes a folder with the numpy oracle's writer: (arch, dtype, shards, untied). */
function writeFolder(name, arch, dtype, shards, untied) {
  const folder = path.join(work, name);
  execFileSync('/usr/bin/python3', ['-c', `import sys; sys.path.insert(0, ${JSON.stringify(path.join(repo, 'tests/oracle'))}); import hf_numpy; ` +
    `hf_numpy.write_folder(${JSON.stringify(folder)}, "${arch}", "${dtype}", 0, ${shards}, ${untied ? 'True' : 'False'})`], { stdio: 'pipe' });
  return folder;
}
const files = (folder) => Object.fromEntries(readdirSync(folder).map((f) => [f, new Uint8Array(readFileSync(path.join(folder, f)))]));

const llama = writeFolder('llama', 'llama', 'F32', 1, false);
const gpt2 = writeFolder('gpt2', 'gpt2', 'BF16', 2, true);
const qwen2 = writeFolder('qwen2', 'qwen2', 'F16', 1, false);
const TEXT = '我今天去了火锅店，那家店需要提前预约吗？ The cat sat';

/** {config, weights, tokenizer} from a folder's files: weights and tokenizer as {name: bytes} when there are several. */
function parts(folder) {
  const f = files(folder);
  const weights = Object.fromEntries(Object.entries(f).filter(([n]) => n.includes('safetensors')));
  const tokenizer = Object.fromEntries(Object.entries(f).filter(([n]) => ['tokenizer.json', 'vocab.json', 'merges.txt'].includes(n)));
  const one = (group) => (Object.keys(group).length === 1 ? Object.values(group)[0] : group);
  return { config: f['config.json'], weights: one(weights), tokenizer: one(tokenizer) };
}

// The relaxed-SIMD twin (node_model_folder_relaxed) fuses the linear op's multiply-adds, one rounding where the CLI
// rounds twice: held to 1e-4 of the CLI (docs/toolchain.md, "Relaxed SIMD"); the plain module to 1e-5.
const TOLERANCE = process.env.ATTN_EXPECT_RELAXED === '1' ? 1e-4 : 1e-5;
let worst = 0;
function assertClose(got, want, what, tol = TOLERANCE) {
  assert.equal(got.length, want.length, `${what}: length`);
  for (let i = 0; i < got.length; ++i) {
    worst = Math.max(worst, Math.abs(got[i] - want[i]) / (1 + Math.abs(want[i])));
    if (!(Math.abs(got[i] - want[i]) <= tol * (1 + Math.abs(want[i])))) assert.fail(`${what}[${i}]: ${got[i]} vs the CLI's ${want[i]}`);
  }
}

test('the folders\' module is its relaxed-SIMD twin exactly where the engine runs relaxed SIMD (node_model_folder_relaxed: with the flag)', async () => {
  assert.equal(hasRelaxedSimd(), process.env.ATTN_EXPECT_RELAXED === '1');
  const m = await a.loadModel(parts(llama));
  try {
    assert.equal(m.relaxedSimd, hasRelaxedSimd());
  } finally {
    m.dispose();
  }
});

for (const [name, folder] of [['llama (F32)', llama], ['gpt2 (BF16, two shards, untied)', gpt2], ['qwen2 (F16)', qwen2]]) {
  test(`${name}: loadModel({config, weights, tokenizer}) gives the CLI's ids, every stage within 1e-5, its step, next, sample and generation`, async () => {
    const m = await a.loadModel(parts(folder));
    try {
      assert.deepEqual(m.about, cliJson('info', '--model', folder));
      const tok = m.tokenize(TEXT);
      assert.deepEqual(tok, cliJson('tokenize', '--model', folder, '--text', TEXT));
      for (const mode of ['trace', 'step']) {
        const want = cliJson(mode, '--model', folder, '--text', TEXT);
        const got = m[mode](TEXT);
        assert.deepEqual(got.ids, want.ids);
        assert.deepEqual(got.tokens, want.tokens);
        assert.deepEqual(got.stages.map((s) => [s.id, s.layer, s.shape]), want.stages.map((s) => [s.id, s.layer, s.shape]));
        for (let i = 0; i < want.stages.length; ++i) assertClose(got.stages[i].data, want.stages[i].data, `${mode} ${want.stages[i].id} layer ${want.stages[i].layer}`);
      }
      const next = m.next(TEXT, 5);
      const cliNext = cliJson('next', '--model', folder, '--text', TEXT, '--k', '5');
      assert.deepEqual(next.map((c) => c.id), cliNext.map((c) => c.id));
      assertClose(next.map((c) => c.p), cliNext.map((c) => c.p), 'next p');
      const draw = { temperature: 0.9, topK: 40, topP: 0.95, seed: 7 };
      assert.deepEqual(m.sample(TEXT, { ...draw, k: 5 }).pick, cliJson('sample', '--model', folder, '--text', TEXT, '--k', '5', '--temperature', '0.9',
        '--top-k', '40', '--top-p', '0.95', '--seed', '7').pick);
      const made = m.generate('The cat', { ...draw, n: 6 });
      assert.equal(made.ids.length, 6);
      assert.equal(made.text, cli('generate', '--model', folder, '--prompt', 'The cat', '--n', '6', '--temperature', '0.9', '--top-k', '40', '--top-p', '0.95',
        '--seed', '7').replace(/\n$/, ''));
      // every stage the trace has is described, in English and Chinese
      const ids = [...new Set(m.trace('The cat').stages.map((s) => s.id))];
      const facts = m.stageFacts(ids);
      for (const id of ids) assert.ok(facts[id].title.en && facts[id].title.zh && facts[id].symbol, id);
      if (m.about.architecture === 'gpt2') {
        assert.match(facts.mlp_act.formula, /tanh/); // GPT-2's GELU, not the character model's erf form
        assert.throws(() => m.stageFacts(['q_rot']), /not a stage of a gpt2 model's trace/);
      } else assert.match(facts.q_rot.title.en, /rotated/);
    } finally {
      m.dispose();
    }
  });
}

test('a trace\'s stages stay readable after other calls until the next trace; {next: k} is next()\'s; dispose() gives up the unread', async () => {
  const m = await a.loadModel(parts(llama));
  const other = await a.loadModel(parts(qwen2));
  try {
    const want = cliJson('trace', '--model', llama, '--text', TEXT).stages;
    const t = m.trace(TEXT, { next: 5 });
    assert.deepEqual(t.next, m.next(TEXT, 5), 'the same pass\'s next tokens');
    // calls that are not traces leave the stages in the module: each read after them is still the stage's numbers
    m.generate('The cat', { n: 4, temperature: 0 });
    other.next(TEXT, 3);
    for (const k of [want.length - 1, 3, 0]) assertClose(t.stages[k].data, want[k].data, `read after other calls: ${want[k].id}`);
    // the next trace of any model of the module frees them: the unread are copied out first
    const later = t.stages.findIndex((s) => s.id === 'weights');
    other.trace('The cat');
    assertClose(t.stages[later].data, want[later].data, 'read after another model\'s trace');
    // given up: the unread are not copied, and reading one says so; the read stay
    const u = m.trace(TEXT);
    const read = u.stages[0].data;
    u.dispose();
    assert.deepEqual(u.stages[0].data, read);
    assert.throws(() => u.stages[5].data, /this trace was disposed of/);
    for (const [bad, sentence] of [[{ next: 0 }, /next is 0 but must be a whole number from 1/], ['x', /the trace's options must be an object such as \{next: 10\}/]]) {
      assert.throws(() => m.trace(TEXT, bad), (e) => e instanceof AttentionError && sentence.test(e.message), JSON.stringify(bad));
    }
    assert.equal(m.threads, 1);
  } finally {
    m.dispose();
    other.dispose();
  }
});

test('{files} with the folder\'s names, and a folder served over http, open the same model', async () => {
  const want = cliJson('trace', '--model', llama, '--text', 'The cat');
  const byFiles = await a.loadModel({ files: files(llama) });
  const last = (m) => m.trace('The cat').stages.at(-1).data;
  assertClose(last(byFiles), want.stages.at(-1).data, 'files: probs');
  byFiles.dispose();
  const server = http.createServer((req, res) => {
    const name = path.basename(decodeURIComponent(new URL(req.url, 'http://x').pathname));
    try {
      res.end(readFileSync(path.join(gpt2, name)));
    } catch {
      res.statusCode = 404;
      res.end();
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const progress = [];
    const m = await a.loadModel(`http://127.0.0.1:${server.address().port}/gpt2/`, { onProgress: (p) => progress.push(p) });
    assertClose(last(m), cliJson('trace', '--model', gpt2, '--text', 'The cat').stages.at(-1).data, 'url: probs');
    assert.ok(progress.some((p) => p.file?.endsWith('.safetensors')), 'progress names the weights');
    m.dispose();
  } finally {
    server.close();
  }
});

test('index.d.ts\'s FolderOperation spells the operations of the core\'s table (attn_call("operations"))', async () => {
  const m = await a.loadModel(parts(llama));
  const dts = readFileSync(path.join(repo, 'web/types/index.d.ts'), 'utf8');
  const typed = dts.match(/export type FolderOperation = ([^;]+);/)[1].match(/'([a-z_]+)'/g).map((x) => x.slice(1, -1));
  assert.deepEqual(typed, m.operations());
  m.dispose();
});

/** A copy of the llama folder's files with one changed. */
function withChanged(name, change) {
  const f = files(llama);
  f[name] = change(f[name]);
  return { files: f };
}
/** The safetensors header rewritten by edit(header) (kept the same length, padded with spaces). */
function editHeader(bytes, edit) {
  const n = Number(new DataView(bytes.buffer, bytes.byteOffset).getBigUint64(0, true));
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + n)));
  edit(header);
  const text = new TextEncoder().encode(JSON.stringify(header).padEnd(n, ' '));
  assert.ok(text.length <= n, 'the edit fits in the header');
  const out = bytes.slice();
  out.set(text, 8);
  return out;
}

test('hostile folders are refused in one sentence naming the file, the memory is given back, and an open model still works', async () => {
  const kept = await a.loadModel(parts(llama));
  const before = kept.trace('The cat').stages.at(-1).data;
  const cases = [
    ['lying offsets', withChanged('model.safetensors', (b) => editHeader(b, (h) => {
      const name = Object.keys(h).find((k) => k !== '__metadata__');
      h[name].data_offsets[1] += 1 << 30;
    })), /model\.safetensors/],
    ['a wrong shape', withChanged('model.safetensors', (b) => editHeader(b, (h) => {
      h['model.norm.weight'].shape = [h['model.norm.weight'].shape[0] + 1];
    })), /model\.safetensors|model\.norm\.weight/],
    ['another model\'s tokenizer', { files: { ...files(llama), 'tokenizer.json': files(gpt2)['vocab.json'] } }, /tokenizer\.json/],
    ['a config with another model_type', withChanged('config.json', (b) => new TextEncoder().encode(
      JSON.stringify({ ...JSON.parse(new TextDecoder().decode(b)), model_type: 'mamba' }))), /config\.json.*model_type|model_type.*config\.json/],
    ['no weights', { files: Object.fromEntries(Object.entries(files(llama)).filter(([n]) => n !== 'model.safetensors')) }, /model\.safetensors/],
    ['a cut file', withChanged('model.safetensors', (b) => b.subarray(0, b.length - 9)), /model\.safetensors/],
  ];
  let inUse = null;
  for (const round of [1, 2, 3]) { // the first two settle the module's kept answer and sentence buffers
    for (const [what, source, sentence] of cases) {
      await assert.rejects(a.loadModel(source), (error) => {
        assert.ok(error instanceof AttentionError, `${what}: an AttentionError (${error})`);
        assert.match(error.message, sentence, `${what}: ${error.message}`);
        assert.doesNotMatch(error.message, /\n/, `${what}: one sentence`);
        return true;
      });
    }
    // no growth: the allocator may settle a few bytes lower (its bins), never higher; and from one call to the next it
    // may alternate between two layouts of its free chunks (128 bytes apart, measured), so the lower of two readings
    const settled = Math.min(kept.memory().heapInUse, kept.memory().heapInUse);
    if (round === 3) assert.ok(settled <= inUse, `the refused loads gave back every byte of the module's memory (${settled} after, ${inUse} before)`);
    inUse = settled;
  }
  assertClose(kept.trace('The cat').stages.at(-1).data, before, 'the open model after the refusals');
  kept.dispose();
  assert.throws(() => kept.trace('The cat'), /disposed/);
  await assert.rejects(a.loadModel({ config: 1, weights: 2, tokenizer: 3 }), /config must be bytes/);
});

test.after(() => console.log(`the module's numbers against the CLI's: at most ${worst.toExponential(2)} of 1 + |value| apart (held to ${TOLERANCE})`));
