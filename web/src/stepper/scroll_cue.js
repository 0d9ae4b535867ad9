// A box that scrolls sideways says so: when its content is wider than the box (a matrix on a phone), the
// edge it continues past fades out (data-more="right", "left" or "both"; the fade is the stylesheet's), so a
// cut-off column reads as "there is more" rather than as the end of the matrix.

/** Keeps el's data-more in step with its overflow as it resizes and scrolls. */
export function cueOverflow(el) {
  if (typeof ResizeObserver === 'undefined') return el;
  const update = () => {
    const more = el.scrollWidth - el.clientWidth;
    const left = el.scrollLeft > 1, right = more - el.scrollLeft > 1;
    const state = left && right ? 'both' : left ? 'left' : right ? 'right' : '';
    if ((el.dataset.more ?? '') !== state) {
      if (state) el.dataset.more = state;
      else delete el.dataset.more;
    }
  };
  new ResizeObserver(update).observe(el);
  el.addEventListener('scroll', update, { passive: true });
  return el;
}

/** The stylesheet's fades (shared by the stepper's shadow root and the path's page). */
export const SCROLL_CUE_CSS = `
[data-more="right"] { -webkit-mask-image: linear-gradient(to right, #000 calc(100% - 36px), transparent); mask-image: linear-gradient(to right, #000 calc(100% - 36px), transparent); }
[data-more="left"] { -webkit-mask-image: linear-gradient(to left, #000 calc(100% - 36px), transparent); mask-image: linear-gradient(to left, #000 calc(100% - 36px), transparent); }
[data-more="both"] { -webkit-mask-image: linear-gradient(to right, transparent, #000 36px, #000 calc(100% - 36px), transparent); mask-image: linear-gradient(to right, transparent, #000 36px, #000 calc(100% - 36px), transparent); }
`;
