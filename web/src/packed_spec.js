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

/** [rows, cols] of a packable matrix, [n] of a packable vector; null when the text path must read it. */
function shapeOf(value, rank) {
  if (!isNumberRow(value) || value.length === 0) return null;
  if (rank === 1) {
    for (let i = 0; i < value.length; i++) if (!fits(value[i])) return null;
    return [value.length];
  }
  const cols = isNumberRow(value[0]) ? value[0].length : 0;
  if (cols === 0) return null;
  for (const row of value) {
    if (!isNumberRow(row) || row.length !== cols) return null;
    for (let c = 0; c < cols; c++) if (!fits(row[c])) return null;
  }
  return [value.length, cols];
}

/**
 * {skeleton, numbers} for a spec object, or null when nothing is worth packing (or the spec itself holds
 * "$f32", which only the module may write). skeleton is an object for specText(); the spec is not changed.
 */
export function packSpec(spec, maxNumbers) {
  const found = [];
  let total = 0;
  for (const [path, rank] of spec.kind === 'vision' ? VISION_FIELDS : FIELDS) {
    let parent = spec;
    for (const key of path.slice(0, -1)) parent = parent && typeof parent === 'object' && !Array.isArray(parent) ? parent[key] : undefined;
    if (!parent || typeof parent !== 'object' || Array.isArray(parent) || !Object.hasOwn(parent, path.at(-1))) continue;
    const value = parent[path.at(-1)];
    // a list of matrices: each on its own (one that cannot be packed stays text, for the core's sentence)
    const parts = rank !== 3 ? [{ value, index: -1 }] : Array.isArray(value) ? value.map((m, index) => ({ value: m, index })) : [];
    for (const part of parts) {
      const shape = shapeOf(part.value, Math.min(rank, 2));
      if (!shape) continue;
      found.push({ path, index: part.index, shape, value: part.value });
      total += shape.reduce((x, y) => x * y, 1);
    }
  }
  if (!found.length || total > maxNumbers) return null;
  const numbers = new Float32Array(total);
  const skeleton = { ...spec };
  const copiedLists = new Set();
  let offset = 0;
  for (const { path, index, shape, value } of found) {
    let parent = skeleton;
    for (const key of path.slice(0, -1)) parent = parent[key] = { ...parent[key] }; // copies along the path only
    const key = path.at(-1), reference = { $f32: [offset, ...shape] };
    if (index < 0) parent[key] = reference;
    else {
      if (!copiedLists.has(parent[key])) copiedLists.add((parent[key] = [...parent[key]]));
      parent[key][index] = reference;
    }
    // −0 becomes 0, as JSON.stringify writes it: the same numbers as the text path, to the bit
    for (const row of shape.length === 1 ? [value] : value) for (let c = 0; c < row.length; c++) numbers[offset++] = row[c] === 0 ? 0 : row[c];
  }
  return { skeleton, numbers, references: found.length };
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
