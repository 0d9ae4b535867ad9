// A small matrix as the path draws it beside others: cells coloured on a scale shared by every panel of a
// figure (so two panels can be compared by colour), the value written in each cell, labelled axes.
import { svg } from '../stepper/dom.js';
import { cell } from '../stepper/format.js';
import { scaleColor } from '../stepper/colors.js';

const CELL_W = 46;
const CELL_H = 26;
const LABEL_W = 64;
const LABEL_H = 22;

/** Black or white text on an [r, g, b] cell, whichever contrasts more. */
const ink = ([r, g, b]) => (0.2126 * r + 0.7152 * g + 0.0722 * b > 140 ? '#111' : '#fff');

/** The label as it fits its room: long ones shortened with an ellipsis (the full one is the cell's title). */
const fit = (label, room) => (label.length * 7 > room ? `${label.slice(0, Math.max(1, Math.floor(room / 7) - 1))}…` : label);

/**
 * An <svg> of one matrix: m {rows, cols, data}, rowLabels and colLabels (strings), scale {kind, top} shared
 * with the figure's other panels; each cell carries data-row, data-col and data-value (what tests read).
 */
export function heatmap(m, { rowLabels, colLabels, scale, title }) {
  const width = LABEL_W + m.cols * CELL_W;
  const height = LABEL_H + m.rows * CELL_H;
  const root = svg('svg', { viewBox: `0 0 ${width} ${height}`, width, height, role: 'img', 'aria-label': title, class: 'heatmap' });
  colLabels.forEach((label, j) => root.append(svg('text', { x: LABEL_W + j * CELL_W + CELL_W / 2, y: 15, 'text-anchor': 'middle', class: 'axis' }, fit(label, CELL_W))));
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
