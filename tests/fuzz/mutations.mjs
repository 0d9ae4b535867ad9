// Hostile specs, drawn from a seeded PRNG so every run throws the same ones. Each case is
// {category, name, text}: JSON text (or bytes that only look like it) for the CLI and a.trace().
import { random } from '../node/helpers.mjs';

/** Numbers that break naive readers: overflow, underflow, precision, sign, integers past 2^53. */
const SPECIAL_NUMBERS = ['1e39', '-1e400', '1e-46', '-0.0', '9007199254740993', '16777217', '2147483648',
  '-2147483649', '18446744073709551616', '1e308', '4.9e-324', '0.5', '2.00000001', '3', '0', '-1', '65', '4097'];

/** Values of every JSON type, to put where another type belongs. */
const WRONG_TYPES = ['null', 'true', '"text"', '{}', '[]', '[[]]', '[null]', '{"a": 1}', '"<img src=x onerror=alert(1)>"'];

/** Where a whole number or a choice sits, with its edges. */
const FIELD_EDGES = {
  heads: ['0', '-1', '1', '3', '64', '65', '1024', '2147483648', '1.5', '2.00000001', '"2"'],
  score: ['"dot"', '"scaled_dot"', '"additive"', '"bilinear"', '"cosine"', '""', '"DOT"'],
  mask: ['"none"', '"causal"', '{"window": 0}', '{"window": 1}', '{"window": 4096}', '{"window": 4097}',
    '{"window": 16777217}', '{"window": 1.5}', '{"matrix": [[1e-46]]}', '{"matrix": [[2]]}', '{"window": 1, "matrix": [[1]]}',
    '"diagonal"', '{}'],
  mask_value: ['-1e9', '0', '1e9', '-3.5e38', '-1e39', '1', '-0.0'],
  positional: ['"none"', '"sinusoidal"', '{"learned": [[1]]}', '{"learned": []}', '"rope"', '"rotary"', '{"rotary": 0}', '{"rotary": 1}',
    '{"rotary": 1e39}', '{"rotary": -1e400}', '{"rotary": 1e38}', '{"rotary": "10000"}', '{"rotary": 10000, "learned": [[1]]}'],
  kv_heads: ['0', '-1', '1', '2', '3', '64', '65', '1.5', '"1"', 'null'],
};

/** Every path to a value inside a parsed spec: [["x", 0, 1], ["heads"], ...]. */
function paths(value, prefix = []) {
  if (value === null || typeof value !== 'object') return [prefix];
  const keys = Array.isArray(value) ? value.keys() : Object.keys(value);
  const out = [prefix];
  for (const k of keys) out.push(...paths(value[k], [...prefix, k]));
  return out;
}

/** The spec with the value at path replaced by raw JSON text (so special numbers stay as written). */
function replaceAt(spec, path, rawJson) {
  const marker = '"@@REPLACE@@"';
  if (path.length === 0) return rawJson;
  const copy = structuredClone(spec);
  let node = copy;
  for (const k of path.slice(0, -1)) node = node[k];
  node[path[path.length - 1]] = '@@REPLACE@@';
  return JSON.stringify(copy).replace(marker, rawJson);
}

function deleteAt(spec, path) {
  const copy = structuredClone(spec);
  let node = copy;
  for (const k of path.slice(0, -1)) node = node[k];
  const last = path[path.length - 1];
  if (Array.isArray(node)) node.splice(last, 1);
  else delete node[last];
  return JSON.stringify(copy);
}

/** Tree mutations of one seed spec: wrong types, special numbers, deletions, field edges, extra fields. */
function treeMutations(spec, rand, count) {
  const all = paths(spec).filter((p) => p.length > 0);
  const pick = (list) => list[Math.floor(rand() * list.length)];
  const cases = [];
  for (let i = 0; i < count; i++) {
    const path = pick(all);
    const where = path.join('.');
    switch (i % 5) {
      case 0: cases.push({ category: 'wrong type', name: where, text: replaceAt(spec, path, pick(WRONG_TYPES)) }); break;
      case 1: cases.push({ category: 'special number', name: where, text: replaceAt(spec, path, pick(SPECIAL_NUMBERS)) }); break;
      case 2: cases.push({ category: 'deletion', name: where, text: deleteAt(spec, path) }); break;
      case 3: {
        const field = pick(Object.keys(FIELD_EDGES));
        cases.push({ category: 'field edge', name: field, text: replaceAt({ ...spec, [field]: 0 }, [field], pick(FIELD_EDGES[field])) });
        break;
      }
      default: {
        const extra = pick(['"head": 2', '"x": [[1]]', '"additive": {}', '"bilinear": {"w": [[1]]}', '"memory": null',
          '"tokens": {"query": ["a"]}', '"weights": {"wz": [[1]]}', '"kind": "vision"']);
        cases.push({ category: 'extra field', name: extra, text: JSON.stringify(spec).replace(/^\{/, `{${extra}, `) });
      }
    }
  }
  return cases;
}

/** Text mutations: truncation, a byte flipped, inserted or deleted, invalid UTF-8. */
function textMutations(text, rand, count) {
  const cases = [];
  const bytes = Buffer.from(text);
  for (let i = 0; i < count; i++) {
    const at = Math.floor(rand() * bytes.length);
    let out;
    switch (i % 4) {
      case 0: out = bytes.subarray(0, at); break;
      case 1: out = Buffer.concat([bytes.subarray(0, at), Buffer.from([Math.floor(rand() * 256)]), bytes.subarray(at + 1)]); break;
      case 2: out = Buffer.concat([bytes.subarray(0, at), Buffer.from(pick3(rand)), bytes.subarray(at)]); break;
      default: out = Buffer.concat([bytes.subarray(0, at), bytes.subarray(at + 1)]);
    }
    cases.push({ category: 'text mutation', name: `${['truncated', 'byte changed', 'bytes inserted', 'byte deleted'][i % 4]} at ${at}`, bytes: out });
  }
  return cases;
}

function pick3(rand) {
  const options = [[0xff, 0xfe], [0xc0, 0x80], [0xed, 0xa0, 0x80], [0x00], [0x22], [0x5c], [0x7b, 0x7d], [0x5b]];
  return options[Math.floor(rand() * options.length)];
}

/** Large and deep inputs, each small enough to generate quickly. */
function largeInputs() {
  const row = (n, v = '1') => `[${Array(n).fill(v).join(',')}]`;
  return [
    { category: 'large', name: '4097 rows', text: `{"x":[${Array(4097).fill('[1]').join(',')}]}` },
    { category: 'large', name: '5000 columns', text: `{"x":[${row(5000)}]}` },
    { category: 'large', name: 'nesting 10000 deep', text: `{"x":${'['.repeat(10000)}${']'.repeat(10000)}}` },
    { category: 'large', name: 'nesting 33 deep', text: `{"x":${'['.repeat(33)}1${']'.repeat(33)}}` },
    { category: 'large', name: '100,000 fields', text: `{"x":[[1]],${Array.from({ length: 100000 }, (_, i) => `"k${i}":1`).join(',')}}` },
    { category: 'large', name: '2 MB field name', text: `{"x":[[1]],"${'k'.repeat(2 << 20)}":1}` },
    { category: 'large', name: '2 MB label', text: `{"x":[[1]],"tokens":{"query":["${'a'.repeat(2 << 20)}"]}}` },
    { category: 'large', name: 'x of 3600 × 1', text: JSON.stringify({ x: Array(3600).fill([1]) }) },
    { category: 'large', name: 'heads 1024 at n 112', text: JSON.stringify({ x: Array(112).fill(Array(1024).fill(0.1)), heads: 1024 }) },
    { category: 'large', name: 'additive n 2048, d_a 1000',
      text: JSON.stringify({ x: Array(2048).fill([0.1]), score: 'additive', additive: { w1: [Array(1000).fill(0.1)], w2: [Array(1000).fill(0.1)], v: Array(1000).fill(0.1) } }) },
    { category: 'large', name: 'additive n 600, d_a 1000 (tanh budget)',
      text: JSON.stringify({ x: Array(600).fill([0.1]), score: 'additive', additive: { w1: [Array(1000).fill(0.1)], w2: [Array(1000).fill(0.1)], v: Array(1000).fill(0.1) } }) },
    { category: 'large', name: 'learned table of 5000 rows', text: JSON.stringify({ x: [[1]], positional: { learned: Array(5000).fill([1]) } }) },
    { category: 'large', name: '2.2 million values', text: `{"x":[${Array(540).fill(row(4096, '0')).join(',')}]}` },
  ];
}

/**
 * The whole corpus: for every seed spec (the worked examples' specs and their variants), tree and
 * text mutations, then the large inputs. perSeed bounds the count per seed and kind.
 */
export function hostileCorpus(seeds, perSeed, seed = 15) {
  const rand = random(seed);
  const cases = [];
  for (const { id, spec } of seeds) {
    for (const c of treeMutations(spec, rand, perSeed)) cases.push({ ...c, name: `${id}: ${c.name}` });
    for (const c of textMutations(JSON.stringify(spec), rand, Math.ceil(perSeed / 3))) cases.push({ ...c, name: `${id}: ${c.name}` });
  }
  return [...cases, ...largeInputs()];
}
