// A small matrix as the path draws it beside others: cells coloured on a scale shared by every panel of a
// figure (so two panels can be compared by colour), the value written in each cell, labelled axes.
import { svg } from '../stepper/dom.js';
import { cell } from '../stepper/format.js';
import { scaleColor } from '../stepper/colors.js';

const CELL_MIN_W = 54; // room for a 12 px 0.0000 (text at 12 px or more, as the whole page)
const CELL_H = 28;
const LABEL_W = 64;
const LABEL_H = 22;

/** Black or white text on an [r, g, b] cell, whichever contrasts more. */
const ink = ([r, g, b]) => (0.2126 * r + 0.7152 * g + 0.0722 * b > 140 ? '#111' : '#fff');

/** About how wide a 12 px label is: a CJK character takes a full em, a Latin one a little over half. */
const textWidth = (label) => [...String(label)].reduce((w, c) => w + (c.codePointAt(0) >= 0x2e80 ? 12 : 7.5), 0);

/** The label as it fits its room: long ones shortened with an ellipsis (the full one is the cell's title). */
function fit(label, room) {
  const chars = [...String(label)];
  while (chars.length > 1 && textWidth(chars.join('')) + 8 > room) chars.pop();
  return chars.length < [...String(label)].length ? `${chars.slice(0, -1).join('') || chars[0]}…` : label;
}

/**
 * An <svg> of one matrix: m {rows, cols, data}, rowLabels and colLabels (strings), scale {kind, top} shared
 * with the figure's other panels; each cell carries data-row, data-col and data-value (what tests read).
 */
export function heatmap(m, { rowLabels, colLabels, scale, title }) {
  // columns as wide as their longest label needs (within reason: a wider one scrolls rather than shrinks)
  const CELL_W = Math.min(104, Math.max(CELL_MIN_W, ...colLabels.map((l) => textWidth(l) + 10)));
  const width = LABEL_W + m.cols * CELL_W;
  const height = LABEL_H + m.rows * CELL_H;
  const root = svg('svg', { viewBox: `0 0 ${width} ${height}`, width, height, role: 'img', 'aria-label': title, class: 'heatmap' });
  colLabels.forEach((label, j) => root.append(svg('text', { x: LABEL_W + j * CELL_W + CELL_W / 2, y: 16, 'text-anchor': 'middle', class: 'axis' }, fit(label, CELL_W))));
  for (let i = 0; i < m.rows; i++) {
    const y = LABEL_H + i * CELL_H;
    root.append(svg('text', { x: LABEL_W - 6, y: y + CELL_H / 2 + 4, 'text-anchor': 'end', class: 'axis' }, fit(rowLabels[i] ?? String(i + 1), LABEL_W - 6)));
    for (let j = 0; j < m.cols; j++) {
      const v = m.data[i * m.cols + j];
      const colour = scaleColor(scale.kind, v, scale.top);
      const g = svg('g', { 'data-row': i, 'data-col': j, 'data-value': v });
      g.append(svg('title', {}, `${rowLabels[i] ?? i + 1} · ${colLabels[j] ?? j + 1}: ${cell(v)}`));
      g.append(svg('rect', { x: LABEL_W + j * CELL_W, y, width: CELL_W - 1, height: CELL_H - 1, fill: `rgb(${colour})` }));
      g.append(svg('text', { x: LABEL_W + j * CELL_W + CELL_W / 2, y: y + CELL_H / 2 + 4, 'text-anchor': 'middle', fill: ink(colour), class: 'value' }, cell(v)));
      root.append(g);
    }
  }
  return root;
}
