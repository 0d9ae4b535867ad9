// The binary transfer of a spec object: its matrices and vectors go to the core as one Float32Array
// and the rest as a small JSON skeleton in which each of them reads {"$f32": [offset, rows, cols]}
// (a vector: [offset, n]); attn::packed_numbers in the core reads them back. Parsing a spec's numbers
// as text was most of a small a.trace() in wasm. Only what the text path would read to the same floats
// is packed — finite numbers within float's range, rectangular rows — so every refusal still comes from
// the core's reader of the text, with its sentence.

const FLOAT_MAX = 3.4028234663852886e38;
/**
 * The fields that hold matrices (2) or vectors (1), by path: the core's read_matrix / read_vector fields;
 * 3 is a list of matrices, each read on its own (a vision feature map's channels, CBAM's two kernels).
 */
const FIELDS = [
  [['x'], 2], [['memory'], 2],
  ...['wq', 'wk', 'wv', 'wo'].map((w) => [['weights', w], 2]), ...['bq', 'bk', 'bv', 'bo'].map((b) => [['weights', b], 1]),
  [['additive', 'w1'], 2], [['additive', 'w2'], 2], [['additive', 'v'], 1], [['bilinear', 'w'], 2], [['positional', 'learned'], 2],
];
const VISION_FIELDS = [
  [['feature'], 3], [['cbam', 'spatial'], 3], [['eca', 'w'], 1],
  ...['se', 'cbam', 'ca'].flatMap((block) => [[[block, 'w1'], 2], [[block, 'b1'], 1]]),
  ...['se', 'cbam'].flatMap((block) => [[[block, 'w2'], 2], [[block, 'b2'], 1]]),
  [['ca', 'wh'], 2], [['ca', 'bh'], 1], [['ca', 'ww'], 2], [['ca', 'bw'], 1],
  ...['gamma', 'beta', 'mean', 'var'].map((f) => [['ca', 'bn', f], 1]),
];

const isNumberRow = (row) => Array.isArray(row) || (ArrayBuffer.isView(row) && !(row instanceof DataView));
const fits = (v) => typeof v === 'number' && Math.abs(v) <= FLOAT_MAX; // NaN fails the comparison

/**
 * The fields as a tree of their paths, one walk of the spec visits only them: a node is a list of
 * [key, rank] (a leaf) and [key, node] entries.
 */
function fieldTree(fields) {
  const root = [];
  for (const [path, rank] of fields) {
    let node = root;
    for (const key of path.slice(0, -1)) {
      let child = node.find(([k]) => k === key);
      if (!child) node.push((child = [key, []]));
      node = child[1];
    }
    node.push([path.at(-1), rank]);
  }
  return root;
}

/**
 * A packed field's place in the skeleton, {"$f32": [offset, rows, cols]} in its JSON. Its own class so
 * that checking the skeleton before it is written (api.js) can pass over the references it made itself.
 */
export class PackedReference {
  constructor(shape) {
    this.$f32 = shape;
  }
}
const SEQUENCE_TREE = fieldTree(FIELDS);
const VISION_TREE = fieldTree(VISION_FIELDS);

// The numbers are written here while the walk checks them, then copied out at their final length.
const SMALL = 4096;
let scratch = new Float32Array(SMALL);

/**
 * Writes a packable matrix (rank 2) or vector (rank 1) after the numbers so far and returns its reference;
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
  state.references++;
  return new PackedReference(rank === 1 ? [start, cols] : [start, rows, cols]);
}

/** object with its packable fields (per node) replaced by references: a copy along the way, or object itself. */
function packObject(object, node, state) {
  let copy = null;
  for (const [key, rank] of node) {
    if (!Object.hasOwn(object, key)) continue;
    const value = object[key];
    let packed = value;
    if (typeof rank !== 'number') {
      if (value && typeof value === 'object' && !Array.isArray(value)) packed = packObject(value, rank, state);
    } else if (rank === 3) {
      // a list of matrices: each on its own (one that cannot be packed stays text, for the core's sentence)
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) {
          const reference = pack(value[i], 2, state);
          if (reference) (packed === value ? (packed = [...value]) : packed)[i] = reference;
        }
      }
    } else {
      packed = pack(value, rank, state) ?? value;
    }
    if (packed !== value) (copy ??= { ...object })[key] = packed;
  }
  return copy ?? object;
}

/**
 * {skeleton, numbers, references} for a spec object, or null when nothing is worth packing (or more than
 * maxNumbers would be). skeleton is an object for specText(); the spec is not changed.
 */
export function packSpec(spec, maxNumbers) {
  const state = { count: 0, references: 0, max: maxNumbers, over: false };
  const skeleton = packObject(spec, spec.kind === 'vision' ? VISION_TREE : SEQUENCE_TREE, state);
  if (!state.references || state.over) return null;
  const numbers = scratch.slice(0, state.count);
  if (scratch.length > 16 * SMALL) scratch = new Float32Array(SMALL); // a large spec's buffer is not kept
  return { skeleton, numbers, references: state.references };
}

/** How many "$f32" a JSON text holds: a skeleton's own references, unless the spec wrote some itself. */
export function referencesIn(text) {
  let count = 0;
  for (let at = text.indexOf('"$f32"'); at >= 0; at = text.indexOf('"$f32"', at + 6)) count++;
  return count;
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
