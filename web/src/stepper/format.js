// How numbers are shown: in cells (short) and in the arithmetic of a hovered cell (exact enough).
// The page's tests import these, so what they compare is what a reader sees.

const MINUS = '−';

/** A cell's text: integers as they are, 4 decimals otherwise, −1e9 style for huge or tiny values. */
export function cell(v) {
  if (!Number.isFinite(v)) return String(v);
  const a = Math.abs(v);
  let s;
  if (a >= 1e5) s = v.toExponential(a === 10 ** Math.round(Math.log10(a)) ? 0 : 2).replace('e+', 'e');
  else if (Number.isInteger(v)) s = String(v);
  else if (a < 5e-5) s = v.toExponential(1);
  else s = v.toFixed(4);
  return s.replace(/^-/, MINUS);
}

/** A value inside a formula: up to 6 significant digits, no trailing zeros. */
export function num(v) {
  if (!Number.isFinite(v)) return String(v);
  const a = Math.abs(v);
  let s;
  if (a !== 0 && (a >= 1e6 || a < 1e-4)) s = v.toExponential(3).replace(/\.?0+e/, 'e').replace('e+', 'e');
  else s = String(Number(v.toPrecision(6)));
  return s.replace(/^-/, MINUS);
}

/** "a×b + c×d + …": at most `limit` terms, then an ellipsis with how many were left out. */
export function sumOfProducts(pairs, limit = 8) {
  const shown = pairs.slice(0, limit).map(([a, b]) => `${num(a)}×${num(b)}`);
  if (pairs.length > limit) shown.push(`… (${pairs.length - limit} more)`);
  return shown.join(' + ');
}

/** "a + b + …" with the same limit. */
export function sum(values, limit = 8) {
  const shown = values.slice(0, limit).map(num);
  if (values.length > limit) shown.push(`… (${values.length - limit} more)`);
  return shown.join(' + ');
}

/**
 * text with every "{stage[i][j]}" (1-based row and column, head `head`) replaced by that value of
 * the trace, formatted as a cell; "—" where the trace has no such cell. Example texts quote their
 * numbers this way, so after an edit they quote the new ones (the core's attn::fill_numbers does
 * the same for the CLI).
 */
export function fillNumbers(text, trace, head = 0) {
  return text.replace(/\{([a-z_]+)\[(\d+)\]\[(\d+)\]\}/g, (_, id, i, j) => {
    const stage = trace.stages.find((s) => s.id === id);
    if (!stage) return '—';
    const [rows, cols] = stage.shape.slice(-2);
    const heads = stage.shape.length === 3 ? stage.shape[0] : 1;
    const r = Number(i), c = Number(j);
    if (r < 1 || c < 1 || r > rows || c > cols || head >= heads) return '—';
    return cell(stage.data[(head * rows + r - 1) * cols + c - 1]);
  });
}
