// A caption the core writes (a cell's arithmetic, a gradient's chain rule) comes from its Web Worker a
// moment later. Each is asked for once per trace and kept; until it arrives the caption box keeps
// what it said and is marked aria-busy, and the answer redraws it if the reader still points there.

const texts = new WeakMap(); // trace (or gradient result) -> Map(cell key -> text, or the promise of it)

/**
 * The text for key of owner (a trace), or null while it is on its way: ask() makes the promise of it,
 * and arrived() is called when it has come (then asking again gives the text).
 */
export function coreText(owner, key, ask, arrived) {
  let known = texts.get(owner);
  if (!known) texts.set(owner, (known = new Map()));
  const kept = known.get(key);
  if (typeof kept === 'string') return kept;
  if (kept === undefined) {
    known.set(key, ask().then((text) => text, (error) => String(error?.message ?? error))
      .then((text) => {
        known.set(key, text);
        arrived();
      }));
  }
  return null;
}

/** Writes a caption, or (text null: the core's answer is on its way) marks the box busy and keeps its text. */
export function writeCaption(box, text) {
  if (text === null) {
    box.setAttribute('aria-busy', 'true');
    return;
  }
  box.removeAttribute('aria-busy');
  box.textContent = text;
}

/**
 * The hovered cell's caption wins, but one the pointer has left (hovered.left) yields to the animation
 * while the stage plays; once it is whole, the last cell pointed at keeps the caption — on the way to
 * the caption's "every term" toggle the pointer crosses other elements, and the arithmetic it went for
 * stays. Returns the pointed-at cell to caption, or null for the animation's own.
 */
export function pointedAt(hovered, progress) {
  return hovered && !(hovered.left && progress < 1) ? hovered : null;
}

/** Marks the pointed-at cell (area.hovered) as left when the pointer leaves box, and redraws. */
export function keepWhenLeft(box, area, redraw) {
  box.addEventListener('pointerleave', () => {
    if (!area.hovered) return;
    area.hovered.left = true;
    redraw();
  });
}
