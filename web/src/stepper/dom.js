// A tiny element builder. Text always goes in as text nodes: nothing here parses HTML, so a
// token label like "<img onerror=…>" from a URL or an attribute is shown, never run.

/**
 * h('button', {className: 'play', on: {click}, attrs: {'aria-label': 'Play'}}, 'Play')
 * @param {string} tag
 * @param {object} [props] className, text, attrs, dataset, style, on, and plain properties
 * @param {...(Node|string|number|null|false)} children
 */
export function h(tag, props = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null) continue;
    if (key === 'attrs') for (const [a, v] of Object.entries(value)) { if (v !== false && v != null) el.setAttribute(a, v === true ? '' : String(v)); }
    else if (key === 'dataset') Object.assign(el.dataset, value);
    else if (key === 'style') el.style.cssText = value;
    else if (key === 'on') for (const [type, fn] of Object.entries(value)) el.addEventListener(type, fn);
    else if (key === 'text') el.textContent = String(value);
    else el[key] = value;
  }
  append(el, children);
  return el;
}

/** Appends children (nodes, or strings as text nodes); skips null, undefined and false. */
export function append(parent, children) {
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    parent.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return parent;
}

/** Removes every child. */
export function clear(el) {
  while (el.firstChild) el.firstChild.remove();
  return el;
}

/** A touch screen without hover: captions say "tap", not "hover". */
export const touchOnly = () => typeof matchMedia === 'function' && matchMedia('(hover: none)').matches;

const SVG = 'http://www.w3.org/2000/svg';

/** An SVG element with attributes; text children as text nodes. */
export function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [a, v] of Object.entries(attrs)) el.setAttribute(a, String(v));
  for (const child of children) if (child != null) el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  return el;
}
