// The heatmaps' colours. Values that are never negative use viridis, reversed so a strong weight is
// dark: perceptually uniform and readable with colour-blindness. Signed values use a blue–white–red diverging scale
// centred on 0 (ColorBrewer's RdBu family, also colour-blind safe). The text on a cell is black or
// white, whichever contrasts more (at least 4.5:1 on every colour of both scales).

// viridis at 0, 1/8, …, 1 (matplotlib's table, sampled)
export const VIRIDIS = [[68, 1, 84], [71, 45, 123], [59, 82, 139], [44, 114, 142], [33, 145, 140], [40, 174, 128], [94, 201, 98], [173, 220, 48], [253, 231, 37]];
// RdBu from −1 to 1: dark blue, light blue, near white, light red, dark red
const DIVERGING = [[33, 102, 172], [146, 197, 222], [247, 247, 247], [244, 165, 130], [178, 24, 43]];

function interpolate(stops, t) {
  const x = Math.max(0, Math.min(1, t)) * (stops.length - 1);
  const k = Math.min(stops.length - 2, Math.floor(x));
  const f = x - k;
  return stops[k].map((c, i) => Math.round(c + (stops[k + 1][i] - c) * f));
}

/** A weight's colour: t = 0 light yellow … 1 dark purple. */
export function weightColor(t) {
  return interpolate(VIRIDIS, 1 - t);
}

/** A signed value's colour: t in −1 … 1 (value / the matrix's largest |value|), white at 0. */
export function signedColor(t) {
  return interpolate(DIVERGING, (t + 1) / 2);
}

// A stage's colour scale is a fact of the stage (the core's registry: scale): signed values diverge
// around 0 over ±the largest |value|, white at 0; positive values (exp, row sums) run from 0 to the
// largest on viridis; probabilities (weights, gates) from 0 to a fixed 1 on the page, in the lab and in
// train mode alike, so near-uniform weights of 0.17 look pale rather than strong.

/** The top a scale maps: a probability's own 1, else the largest |value| drawn (or a range shared with others). */
const topOf = (kind, top) => (kind === 'probability' ? 1 : top);

/** Where v sits along its scale's colour bar, 0 … 1. */
export function scalePosition(kind, v, top) {
  const most = topOf(kind, top);
  const t = most > 0 ? Math.max(-1, Math.min(1, v / most)) : 0;
  return kind === 'signed' ? (t + 1) / 2 : Math.max(0, t);
}

/** The colour bar's stops, low to high: viridis for a sequential scale, RdBu for a signed one. */
const stopsOf = (kind) => (kind === 'signed' ? DIVERGING : REVERSED_VIRIDIS);
const REVERSED_VIRIDIS = [...VIRIDIS].reverse();

/** The colour of v on a stage's scale. */
export function scaleColor(kind, v, top) {
  return colorAt(kind, scalePosition(kind, v, top));
}

/** The two ends a scale's legend shows. */
export function scaleRange(kind, top) {
  return kind === 'signed' ? [-top, top] : [0, topOf(kind, top)];
}

/** The colour at position t (0 … 1) along a scale's bar: for tables of colours made once. */
export function colorAt(kind, t) {
  return interpolate(stopsOf(kind), t);
}

export const MASKED = [110, 118, 129]; // grey, hatched in CSS: no weight, not a value
export const KEPT = [218, 242, 224];

export const css = (rgb) => `rgb(${rgb.join(',')})`;

function luminance(rgb) {
  const [r, g, b] = rgb.map((c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG contrast ratio of two colours. */
export function contrast(a, b) {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/** Black or white text, whichever reads better on rgb. */
export function inkFor(rgb) {
  return contrast(rgb, [0, 0, 0]) >= contrast(rgb, [255, 255, 255]) ? '#000' : '#fff';
}

/** A CSS gradient of a scale, for its legend (left: low, right: high). */
export function gradient(kind) {
  return `linear-gradient(to right, ${stopsOf(kind).map(css).join(', ')})`;
}

// One colour per head in the lines view: the Okabe–Ito palette (distinct with colour-blindness),
// its yellow left out (too faint on white); more heads than colours repeat them.
const HEAD_COLORS = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9', '#000000'];

/** The lines view's colour of head hh (0-based). */
export function headColor(hh) {
  return HEAD_COLORS[hh % HEAD_COLORS.length];
}
