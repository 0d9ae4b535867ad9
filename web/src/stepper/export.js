// Getting a stage out of the page, for a post, a paper or slides: the stage's tensor as data
// (stageData, CSV, JSON), the picture as a vector figure (SVG, text kept as text) or an image (PNG
// at twice the device pixel ratio), and the arithmetic of every result cell as LaTeX. Every number
// is the trace's (the figure draws the same scene, colours and cell texts as the page; the LaTeX is
// the core's own sentence from attention.explain, typeset).
import { css } from './colors.js';
import { plain } from './format.js';
import { stageTitle } from './i18n.js';
import { cellLook, kindOf, scaleOf, shownSize } from './matrix_view.js';
import { shownStages } from './steps.js';
import { visionViews } from './vision_ready.js';
import { xmlSafe } from '../xml_text.js';

const SVG_NS = 'http://www.w3.org/2000/svg';
const FONT = 'system-ui, -apple-system, "Segoe UI", "Noto Sans", "Noto Sans CJK SC", sans-serif';
/** Result cells written out in the LaTeX export; a larger stage says how many it left out. */
export const LATEX_CELLS = 64;

/** The labels along an axis kind of the registry, for this trace ('single': the stage's symbol). */
function axisLabels(trace, info, kind) {
  return kind === 'single' ? [info.symbol] : trace.axes[kind];
}

/**
 * The current stage's tensor and what names it: {example, variant, stage, title, formula, shape,
 * head (0-based, per-head stages), rows, cols (axis labels), data (a copy, row-major like the trace)}.
 */
export function stageData(el) {
  const s = el.store.get();
  const stage = shownStages(s.trace)[s.stageIndex];
  if (s.trace.kind === 'vision') return visionData(s, stage);
  const info = el.attention.stages().find((x) => x.id === stage.id);
  return {
    example: s.exampleId, variant: s.variant, stage: stage.id, title: stageTitle(stage, s.lang), formula: stage.formula,
    shape: stage.shape.slice(), head: info.per_head ? s.head : null,
    rows: axisLabels(s.trace, info, info.rows).slice(), cols: axisLabels(s.trace, info, info.cols).slice(),
    data: Float32Array.from(stage.data),
  };
}

/** stageData of a vision stage, labelled as the page labels it: a C × H × W stage is one H × W matrix per channel. */
function visionData(s, stage) {
  const { rows, cols, channels } = visionViews.get().axes(stage);
  return {
    example: s.exampleId, variant: s.variant, stage: stage.id, title: stageTitle(stage, s.lang), formula: stage.formula,
    shape: stage.shape.slice(), head: null,
    rows: rows ? rows.slice() : [stage.symbol], cols: cols.slice(),
    ...(channels ? { channels: channels.slice() } : {}),
    data: Float32Array.from(stage.data),
  };
}

/**
 * A label as a CSV field: quoted when it holds a quote, comma or line break, and a label a spreadsheet
 * would run as a formula (starting =, +, -, @, tab or CR) gets a leading ' (OWASP's advice for CSV
 * injection), so a shared spec's token "=HYPERLINK(…)" stays text. Numbers are written by plain(), never here.
 */
const csvField = (label) => {
  const text = /^[=+\-@\t\r]/.test(String(label)) ? `'${label}` : String(label);
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

/** The tensor as CSV: a header of column labels, one line per row (with a head column for per-head stages). */
export function toCSV(d) {
  const [heads, rows, cols] = d.shape.length === 3 ? d.shape : [1, ...d.shape];
  const perHead = d.shape.length === 3;
  // the first column names the head (sequence) or the channel (a vision feature map)
  const lines = [[...(perHead ? [d.channels ? 'channel' : 'head'] : []), '', ...d.cols].map(csvField).join(',')];
  for (let hh = 0; hh < heads; hh++) {
    for (let i = 0; i < rows; i++) {
      const values = Array.from(d.data.subarray((hh * rows + i) * cols, (hh * rows + i + 1) * cols), plain);
      lines.push([...(perHead ? [csvField(d.channels?.[hh] ?? String(hh + 1))] : []), csvField(d.rows[i] ?? String(i + 1)), ...values].join(','));
    }
  }
  return `${lines.join('\n')}\n`;
}

/** The tensor as JSON: nested arrays in the trace's shape, each number the shortest that reads back as its float32. */
export function toJSON(d) {
  const nest = (offset, dims) => (dims.length === 1
    ? Array.from(d.data.subarray(offset, offset + dims[0]), (v) => Number(plain(v)))
    : Array.from({ length: dims[0] }, (_, k) => nest(offset + k * dims.slice(1).reduce((p, q) => p * q, 1), dims.slice(1))));
  const { data, ...about } = d;
  // one field a line, each innermost row of numbers on one line
  const text = JSON.stringify({ ...about, values: nest(0, d.shape) }, null, 1);
  return `${text.replace(/\[[-0-9.e,\s]*\]/g, (row) => row.replace(/\s+/g, ''))}\n`;
}

/** The figure and LaTeX exports draw the sequence stages' scenes; a vision stage has its data exports only. */
function notForVision(s) {
  if (s.trace.kind === 'vision') throw new Error('SVG, PNG and LaTeX export are for the attention stages; a vision stage exports as CSV or JSON (stageData()).');
}

// [SECTION] LaTeX

const SUBSCRIPTS = { '₀': '0', '₁': '1', '₂': '2', '₃': '3', '₄': '4', '₅': '5', '₆': '6', '₇': '7', '₈': '8', '₉': '9', 'ₖ': 'k' };
const FUNCTIONS = new Set(['exp', 'cos', 'sin', 'max', 'tanh']);
const TEXT_ESCAPES = { '\\': '\\textbackslash{}', '{': '\\{', '}': '\\}', '&': '\\&', '%': '\\%', $: '\\$', '#': '\\#', _: '\\_', '~': '\\textasciitilde{}', '^': '\\textasciicircum{}' };

/** One line of the core's arithmetic typeset as LaTeX math (words as \text, symbols as commands). */
export function latexLine(text) {
  // the tokens that name rows and columns ([猫, sat], q_猫, s_token_1) are the reader's text: upright,
  // escaped, and kept aside so the symbol rules below leave them alone
  const kept = [];
  const keep = (label, group = false) => {
    const latex = `\\text{${label.replace(/[\\{}&%$#_~^]/g, (c) => TEXT_ESCAPES[c])}}`;
    return `\u0001${kept.push(group ? `{${latex}}` : latex) - 1}\u0002`;
  };
  let t = text.replace(/\[([^[\]]+)\]/g, (m, inner) => `[${inner.split(', ').map((p) => (/^(?:[0-9]+|k|[dqk][0-9]+)$/.test(p) ? p : keep(p))).join(', ')}]`);
  t = t.replace(/(^|[^A-Za-z])([qkms])_([^\s[\]·,=()÷×+−]+)/g, (m, pre, letter, label) => `${pre}${letter}_${keep(label, true)}`);
  t = t.replace(/[\\{}&%$#~^]/g, (c) => ({ '\\': '\\backslash ', '{': '\\{', '}': '\\}', '&': '\\&', '%': '\\%', $: '\\$', '#': '\\#', '~': '\\sim ', '^': '^' })[c]);
  t = t.replace(/[₀-₉ₖ]+/g, (run) => `_{${[...run].map((c) => SUBSCRIPTS[c]).join('')}}`);
  t = t.replace(/\^\(([^)]*)\)/g, '^{($1)}');
  t = t.replace(/√\s*([0-9.]+|[A-Za-z](?:_[A-Za-z0-9]+)?)/g, '\\sqrt{$1}');
  // words (and names like mask_value) upright as text, keeping the spaces around them
  t = t.replace(/[A-Za-z]{2,}(?:[ _][A-Za-z]{2,})*/g, (w, at, all) => {
    if (FUNCTIONS.has(w)) return `\\${w}`;
    const before = all[at - 1] === ' ' ? ' ' : '', after = all[at + w.length] === ' ' ? ' ' : '';
    return `\\text{${before}${w.replace(/_/g, '\\_')}${after}}`;
  });
  t = t.replace(/Σ/g, '\\sum').replace(/α/g, '\\alpha ').replace(/÷/g, '\\div ').replace(/×/g, '\\times ')
    .replace(/·/g, '\\cdot ').replace(/−/g, '-').replace(/ᵀ/g, '^{\\top}').replace(/…/g, '\\ldots ').replace(/→/g, '\\to ');
  t = t.replace(/\u0001(\d+)\u0002/g, (m, k) => kept[Number(k)]);
  const eq = t.indexOf('=');
  return eq >= 0 ? `${t.slice(0, eq)}&${t.slice(eq)}` : `&${t}`;
}

/** Every result cell's arithmetic of the current stage (and head), as an align* block (a promise: the core's worker writes it). */
export async function toLaTeX(el) {
  const s = el.store.get();
  notForVision(s);
  const stage = shownStages(s.trace)[s.stageIndex];
  const { rows, cols } = el.area.scene.resultMatrix;
  const count = Math.min(rows * cols, LATEX_CELLS);
  const cells = Array.from({ length: count }, (_, k) => ({ head: s.head, i: Math.floor(k / cols), j: k % cols }));
  const lines = (await Promise.all(cells.map((c) => el.attention.explain(s.trace, stage.id, c)))).map(latexLine);
  const head = `% ${stageTitle(stage, 'en')} (${stage.id})${s.trace.spec.heads > 1 ? `, head ${s.head + 1}` : ''}; from attention-playground`;
  const more = rows * cols > count ? `\n% the first ${count} of ${rows * cols} cells` : '';
  return `${head}${more}\n\\begin{align*}\n${lines.join(' \\\\\n')}\n\\end{align*}\n`;
}

// [SECTION] the figure: SVG and PNG

function node(tag, attrs = {}, text) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  if (text !== undefined) el.textContent = String(text);
  return el;
}

const CELL_W = 56, CELL_H = 24, GAP = 28, TOP = 52;
/** Rough text width for layout (the figure keeps its text as text; a reader's fonts may differ a little). */
const textWidth = (t, size) => [...String(t)].reduce((w, c) => w + (c.charCodeAt(0) > 0x2e80 ? size : size * 0.6), 0);

/** One matrix of the scene as an SVG group at (x, y); returns its width and height. */
function matrixGroup(m, x, y) {
  const { rows, cols } = shownSize(m.rows, m.cols);
  const rowLabels = m.rowLabels ?? Array.from({ length: m.rows }, (_, i) => String(i + 1));
  const colLabels = m.colLabels ?? Array.from({ length: m.cols }, (_, j) => String(j + 1));
  const labelW = Math.max(16, ...rowLabels.slice(0, rows).map((l) => textWidth(l, 11))) + 6;
  const g = node('g', { transform: `translate(${x},${y})`, 'data-matrix': m.key });
  g.append(node('text', { x: labelW, y: 12, 'font-size': 12, 'font-weight': 600, fill: m.role === 'result' ? '#8250df' : '#1b1f24' }, `${m.label}  ${m.rows} × ${m.cols}`));
  const kind = kindOf(m);
  const scale = scaleOf(m, rows, cols);
  for (let j = 0; j < cols; j++) {
    g.append(node('text', { x: labelW + j * CELL_W + CELL_W / 2, y: 30, 'font-size': 11, 'text-anchor': 'middle', fill: '#57606a' }, colLabels[j] ?? ''));
  }
  for (let i = 0; i < rows; i++) {
    const cy = 36 + i * CELL_H;
    g.append(node('text', { x: labelW - 6, y: cy + CELL_H / 2 + 4, 'font-size': 11, 'text-anchor': 'end', fill: '#57606a' }, rowLabels[i] ?? ''));
    for (let j = 0; j < cols; j++) {
      const look = cellLook(m, i, j, scale, kind);
      g.append(node('rect', { x: labelW + j * CELL_W, y: cy, width: CELL_W - 1, height: CELL_H - 1, fill: css(look.bg) }));
      g.append(node('text', {
        x: labelW + j * CELL_W + CELL_W / 2, y: cy + CELL_H / 2 + 4, 'font-size': 11, 'text-anchor': 'middle', fill: look.ink,
        'font-family': 'ui-monospace, Menlo, Consolas, monospace',
      }, look.text));
    }
  }
  return { g, width: labelW + cols * CELL_W, height: 36 + rows * CELL_H };
}

/** The stage as a standalone SVG element: title and formula, then its operands → result (or its lines). */
export function figure(el) {
  const s = el.store.get();
  notForVision(s);
  const stage = shownStages(s.trace)[s.stageIndex];
  const svg = node('svg', { xmlns: SVG_NS, 'font-family': FONT });
  const heads = s.trace.spec.heads > 1 && el.area.scene.perHead && !el.area.lines ? ` (head ${s.head + 1})` : '';
  svg.append(node('text', { x: 12, y: 22, 'font-size': 16, 'font-weight': 600, fill: '#1b1f24' }, `${stageTitle(stage, s.lang)}${heads}`));
  svg.append(node('text', { x: 12, y: 40, 'font-size': 12, fill: '#57606a', 'font-family': 'ui-monospace, Menlo, Consolas, monospace' }, stage.formula));
  let x = 12, height = 0;
  if (el.area.lines) {
    const lines = el.area.lines.figure(FONT);
    lines.setAttribute('transform', `translate(12,${TOP})`);
    svg.append(lines);
    x += Number(lines.getAttribute('width')) + 12; // the same margin right as left: the keys' labels end at the lines' width
    height = Number(lines.getAttribute('height'));
  } else {
    el.area.scene.matrices.forEach((m, k) => {
      if (k > 0 && m.role === 'result') {
        svg.append(node('text', { x: x + 2, y: TOP + 36 + 14, 'font-size': 16, fill: '#57606a' }, '→'));
        x += GAP;
      }
      const part = matrixGroup(m, x, TOP);
      svg.append(part.g);
      x += part.width + GAP;
      height = Math.max(height, part.height);
    });
  }
  const width = Math.max(x, 12 + textWidth(stage.formula, 12) + 12, 240);
  svg.setAttribute('width', width);
  svg.setAttribute('height', TOP + height + 12);
  svg.setAttribute('viewBox', `0 0 ${width} ${TOP + height + 12}`);
  svg.prepend(node('rect', { width: '100%', height: '100%', fill: '#fff' }));
  return svg;
}

/**
 * The figure as SVG text (a file a reader can open, edit or place in a paper). A label's characters that XML
 * cannot hold (a token "\u0001") are made visible (xmlSafe), so the file always parses, and so does the PNG's image.
 */
export function toSVG(el) {
  return `<?xml version="1.0" encoding="UTF-8"?>\n${xmlSafe(new XMLSerializer().serializeToString(figure(el)))}\n`;
}

/** The figure as a PNG at twice the device pixel ratio. */
export async function toPNG(el) {
  const svg = figure(el);
  const w = Number(svg.getAttribute('width')), hgt = Number(svg.getAttribute('height'));
  const scale = 2 * (globalThis.devicePixelRatio || 1);
  const url = URL.createObjectURL(new Blob([toSVG(el)], { type: 'image/svg+xml' }));
  try {
    const img = new Image();
    img.src = url;
    await img.decode();
    const canvas = document.createElement('canvas');
    canvas.width = Math.ceil(w * scale);
    canvas.height = Math.ceil(hgt * scale);
    const g = canvas.getContext('2d');
    g.scale(scale, scale);
    g.drawImage(img, 0, 0, w, hgt);
    return await new Promise((resolve, reject) => canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('the browser could not make a PNG of the figure.'))), 'image/png'));
  } finally {
    URL.revokeObjectURL(url);
  }
}

/** A file name for an export of the current stage: attention-<example>-<stage>[-head-N].<ext>. */
export function fileName(el, ext) {
  const s = el.store.get();
  const stage = shownStages(s.trace)[s.stageIndex];
  const head = s.trace.spec.heads > 1 && el.area.scene?.perHead && !el.area.lines ? `-head-${s.head + 1}` : '';
  return `attention-${s.exampleId || 'spec'}-${stage.id}${head}.${ext}`;
}

/** Hands a blob or text to the reader as a download. */
export function download(name, content, type) {
  const blob = content instanceof Blob ? content : new Blob([content], { type });
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10000);
}

