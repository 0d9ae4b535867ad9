// How numbers are shown to people: in cells (4 decimals), exactly on request, and in example texts.
// The page's tests import these, so what they compare is what a reader sees.

const MINUS = '−';

/**
 * Row or column k's name as a caption writes it: its label, with its place (the#5) when the label occurs
 * more than once on its axis — the rule of the core's captions (cell_names in core/src/explain/explain.cpp).
 */
export function labelAt(labels, k) {
  const label = labels?.[k];
  if (label === undefined) return String(k + 1);
  return labels.indexOf(label) !== labels.lastIndexOf(label) ? `${label}#${k + 1}` : label;
}

/** A cell's text: integers as they are, 4 decimals otherwise, −1e9 style for huge or tiny values. */
export function cell(v) {
  if (!Number.isFinite(v)) return String(v);
  const a = Math.abs(v);
  let s;
  if (a >= 1e5) s = v.toExponential(a === 10 ** Math.round(Math.log10(a)) ? 0 : 2).replace('e+', 'e');
  else if (Number.isInteger(v)) s = String(v);
  else if (a < 5e-5) s = v.toExponential(1);
  else s = fixed4(v);
  return s.replace(/^-/, MINUS);
}

/**
 * v with 4 decimals as C's printf("%.4f") writes it (the core's format_cell): a value exactly
 * halfway (0.28125) goes to the even last digit (0.2812), where toFixed would round up. For a
 * float32 v, v·10⁴ is exact in a double, so the tie test is exact too.
 */
function fixed4(v) {
  const t = v * 1e4;
  const f = Math.floor(t);
  if (t - f !== 0.5) return v.toFixed(4);
  return ((f % 2 === 0 ? f : f + 1) / 1e4).toFixed(4);
}

/** A float32 value with every digit it needs to be read back exactly (as the core's format_exact writes it). */
export function exact(v) {
  return plain(v).replace(/^-/, MINUS);
}

/** exact() for files (CSV, JSON, LaTeX): the shortest text that reads back as the same float32, ASCII minus. */
export function plain(v) {
  if (!Number.isFinite(v)) return String(v);
  for (let p = 1; p <= 9; p++) {
    const shortest = Number(v.toPrecision(p));
    if (Math.fround(shortest) === Math.fround(v)) return String(shortest).replace('e+', 'e');
  }
  return String(v);
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
