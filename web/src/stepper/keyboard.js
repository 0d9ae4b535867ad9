// The stepper's keys: ← → step through stages, , and . one cell back or on, space plays and pauses,
// and inside a matrix the arrows move between cells (one tab stop per matrix). Typing in the edit
// panel is left alone.
import { visionViews } from './vision_ready.js';

/** Handles a keydown on the element. */
export function onKey(el, e) {
  const target = e.composedPath()[0];
  const tag = target?.tagName;
  if (tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA') return;
  if (target?.classList?.contains('vcell') && e.key.startsWith('Arrow')) {
    visionViews.get().moveInTensor(el.area, target, e.key);
    e.preventDefault();
    return;
  }
  if (target?.classList?.contains('cell') && e.key.startsWith('Arrow')) {
    moveInGrid(el, target, e.key);
    e.preventDefault();
    return;
  }
  if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') {
    el.step(e.key === 'ArrowLeft' ? -1 : 1);
    e.preventDefault();
  } else if (e.key === ',' || e.key === '.') {
    el.stepCell(e.key === ',' ? -1 : 1);
    e.preventDefault();
  } else if (e.key === ' ' && tag !== 'BUTTON') {
    if (el.store.get().playing) el.pause();
    else el.play();
    e.preventDefault();
  }
}

const MOVES = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };

function moveInGrid(el, td, key) {
  const view = el.area.views.get(td.dataset.key);
  const [di, dj] = MOVES[key];
  const next = view.cells[Number(td.dataset.i) + di]?.[Number(td.dataset.j) + dj];
  if (!next) return;
  td.tabIndex = -1;
  next.tabIndex = 0;
  next.focus();
}
