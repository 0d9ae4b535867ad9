// The binary transfer of a spec object: its matrices and vectors go to the core as one Float32Array
// and the rest as a small JSON skeleton in which each of them reads {"$f32": [offset, rows, cols]}
// (a vector: [offset, n]); attn::packed_numbers in the core reads them back. Parsing a spec's numbers
// as text was most of a small a.trace() in wasm. Only what the text path would read to the same floats
// is packed — finite numbers within float's range, rectangular rows — so every refusal still comes from
// the core's reader of the text, with its sentence. One walk packs the numbers and writes the skeleton's
// text; every other value is written by JSON.stringify.

const FLOAT_MAX = 3.4028234663852886e38;

const isNumberRow = (row) => Array.isArray(row) || (ArrayBuffer.isView(row) && !(row instanceof DataView));
const fits = (v) => typeof v === 'number' && Math.abs(v) <= FLOAT_MAX; // NaN fails the comparison

/**
 * The packed fields of a spec kind as a tree of their paths, so that one walk of a spec visits only them:
 * a node is a list of [key, rank] (a leaf) and [key, node] entries. tensors: the core's field table
 * (a.schema(): {path, rank, packed}); rank 2 is a matrix, 1 a vector, 3 a list of matrices, each read on its
 * own (a vision feature map's channels, CBAM's two kernels). A field with packed false (a 0/1 mask, read as
 * written) stays text.
 */
export function fieldTree(tensors) {
  const root = [];
  for (const { path, rank, packed = true } of tensors) {
    if (!packed) continue;
    const keys = path.split('.');
    let node = root;
    for (const key of keys.slice(0, -1)) {
      let child = node.find(([k]) => k === key);
      if (!child) node.push((child = [key, []]));
      node = child[1];
    }
    node.push([keys.at(-1), rank]);
  }
  return root;
}

// The numbers are written here while the walk checks them, then copied out at their final length.
const SMALL = 4096;
let scratch = new Float32Array(SMALL);

/**
 * Writes a packable matrix (rank 2) or vector (rank 1) after the numbers so far and returns its reference's JSON;
 * null when the text path must read it (not rectangular, a value that is not a finite float, or over the
 * budget). −0 becomes 0, as JSON.stringify writes it: the same numbers as the text path, to the bit.
 */
function pack(value, rank, state) {
  if (!isNumberRow(value) || value.length === 0) return null;
  const rows = rank === 1 ? 1 : value.length;
  const cols = rank === 1 ? value.length : isNumberRow(value[0]) ? value[0].length : 0;
  const start = state.count, size = rows * cols;
  if (cols === 0) return null;
  if (start + size > state.max) return (state.over = true), null;
  if (start + size > scratch.length) {
    const grown = new Float32Array(Math.max(start + size, 2 * scratch.length));
    grown.set(scratch.subarray(0, start));
    scratch = grown;
  }
  let at = start;
  for (let r = 0; r < rows; r++) {
    const row = rank === 1 ? value : value[r];
    if (rank === 2 && (!isNumberRow(row) || row.length !== cols)) return null;
    for (let c = 0; c < cols; c++) {
      const v = row[c];
      if (!fits(v)) return null;
      scratch[at++] = v === 0 ? 0 : v;
    }
  }
  state.count = at;
  return `{"$f32":[${start},${rank === 1 ? cols : `${rows},${cols}`}]}`;
}

/**
 * The JSON text of object, as JSON.stringify would write it, with its packable fields (per node) written as
 * references; null when the whole spec must go as text (an object with toJSON, a "$f32" field, a value leaf()
 * refused). The keys are Object.keys's, as JSON.stringify's.
 */
function objectText(object, node, state, depth) {
  if (typeof object.toJSON === 'function') return null;
  let out = '';
  for (const key of Object.keys(object)) {
    if (key === '$f32' || !key.isWellFormed()) return null;
    const value = object[key];
    const rank = node.find(([k]) => k === key)?.[1];
    let text;
    if (rank === undefined) text = state.leaf(value, depth + 1);
    else if (typeof rank !== 'number') {
      const plain = value && typeof value === 'object' && !Array.isArray(value) && !ArrayBuffer.isView(value);
      text = plain ? objectText(value, rank, state, depth + 1) : state.leaf(value, depth + 1);
    } else if (rank === 3) text = Array.isArray(value) ? listText(value, state, depth + 1) : state.leaf(value, depth + 1);
    else text = pack(value, rank, state) ?? state.leaf(value, depth + 1);
    if (text === null) return null;
    if (text !== undefined) out += `${out ? ',' : ''}${JSON.stringify(key)}:${text}`; // undefined: JSON leaves the field out
  }
  return `{${out}}`;
}

/** A list of matrices (a vision feature map's channels, CBAM's kernels): each packed on its own, or as text. */
function listText(list, state, depth) {
  if (typeof list.toJSON === 'function') return null;
  let out = '';
  for (let i = 0; i < list.length; i++) {
    // one that cannot be packed stays text, for the core's sentence
    const text = pack(list[i], 2, state) ?? state.leaf(list[i], depth + 1);
    if (text === null) return null;
    out += `${i ? ',' : ''}${text ?? 'null'}`; // as JSON writes undefined in a list
  }
  return `[${out}]`;
}

/**
 * {text, numbers} for a spec object: its JSON text with each packable matrix and vector written
 * {"$f32": [offset, rows, cols]} and their floats in numbers. null when nothing is worth packing (or more than
 * maxNumbers would be), or when the whole spec must go as JSON text: leaf(value, depth) gives the JSON of
 * every other value, or null for one the text path must refuse with its sentence; treeOf(vision) gives the
 * fieldTree of the spec's kind. The spec is not changed.
 */
export function packSpec(spec, maxNumbers, leaf, treeOf) {
  const state = { count: 0, max: maxNumbers, over: false, leaf };
  const vision = spec.kind === 'vision'; // read once: which module traces it (a getter could answer twice)
  const text = objectText(spec, treeOf(vision), state, 0);
  if (text === null || !state.count || state.over) return null; // every reference holds a number at least
  const numbers = keep(state.count);
  if (scratch.length > 16 * SMALL) scratch = new Float32Array(SMALL); // a large spec's buffer is not kept
  return { text, numbers, vision };
}

// A trace keeps its spec's numbers (for trace.spec, read later). A small spec's go into a view of one shared
// buffer: a buffer of their own each time would be an allocation outside the JS heap on every trace.
const POOL = 16 * SMALL;
let pool = new Float32Array(POOL);
let poolUsed = 0;

/** The first count numbers of scratch, copied where they can stay. */
function keep(count) {
  if (count > POOL / 8) return scratch.slice(0, count);
  if (poolUsed + count > POOL) (pool = new Float32Array(POOL)), (poolUsed = 0); // the old one lives while its traces do
  const kept = pool.subarray(poolUsed, (poolUsed += count));
  kept.set(scratch.subarray(0, count));
  return kept;
}

/** The spec's JSON text back from a skeleton text and its numbers (the normalised spec of an older trace). */
export function unpackSpecText(skeletonText, numbers) {
  return JSON.stringify(JSON.parse(skeletonText), (key, value) => {
    if (!value || typeof value !== 'object' || !Array.isArray(value.$f32)) return value;
    const [offset, rows, cols] = value.$f32;
    if (cols === undefined) return Array.from(numbers.subarray(offset, offset + rows));
    return Array.from({ length: rows }, (_, i) => Array.from(numbers.subarray(offset + i * cols, offset + (i + 1) * cols)));
  });
}
