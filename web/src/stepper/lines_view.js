// The lines view of the weights α: queries in one column, keys in the other, one line per
// (query, key) whose width and opacity grow with α_ij — who looks at whom, at a glance (the picture
// BertViz made popular, here drawn from the core's trace, edits included). Each head has its own
// picture, side by side (drawn over each other, one head's heavy lines hid the other's), its own colour
// and a toggle; hovering or focusing a token keeps only its lines, in every head, and puts their α beside
// the tokens at the other end. Every line is an SVG path carrying data-query and data-key (the token
// labels), data-head (1-based) and data-weight (α as the trace holds it), so tests and a blog's CSS
// can address them. The tokens are buttons (keyboard and screen readers reach them; the caption
// reads the focused token's weights out); the picture itself is decoration (aria-hidden).
import { headColor } from './colors.js';
import { clear, h, svg } from './dom.js';
import { cell } from './format.js';

/** Beyond this many tokens on a side a lines picture is a grey blur: the matrix view stays. */
export const LINES_MAX_TOKENS = 64;
/** px per token: thumb-sized (44) on a touch screen. */
const rowHeight = () => (typeof matchMedia === 'function' && matchMedia('(pointer: coarse)').matches ? 44 : 30);
const WIDTH = 240; // the SVG's own width; it stretches with the space it gets
/** A line's stroke width for weight a (0…1): hairline to 8 px. */
const strokeWidth = (a) => 0.6 + 7.4 * a;
/** A line's opacity for weight a: faint to solid, so heavy lines read first. */
const opacity = (a) => 0.1 + 0.9 * a;
/** Weights listed in the caption for one token and head. */
const CAPTION_ENTRIES = 8;

let measuring = null; // a canvas's 2D context, to measure labels with (false where there is none)
/**
 * A label's width at 14 px in font: measured by the browser (with a tenth more, for a reader whose fonts are a
 * little wider), never under a rough estimate (a CJK character 1 em, others 0.6). The estimate alone cut the
 * last key's label ("mat", "chased") at the figure's edge.
 */
function labelWidth(text, font) {
  const rough = [...text].reduce((w, c) => w + (c.charCodeAt(0) > 0x2e80 ? 14 : 8.4), 0);
  measuring ??= globalThis.document?.createElement('canvas').getContext('2d') ?? false;
  if (!measuring) return rough;
  measuring.font = `14px ${font}`;
  return Math.max(rough, 1.1 * measuring.measureText(text).width);
}

/** Whether a trace's weights can be drawn as lines (few enough tokens on each side). */
export function linesPossible(ctx) {
  return ctx.nQ <= LINES_MAX_TOKENS && ctx.nK <= LINES_MAX_TOKENS;
}

/**
 * Whether the weights stage is drawn as lines: as the reader (or a link, or the attribute) asked,
 * else as the example prefers (its document's weights_view; the sentence examples say "lines").
 */
export function showsLines(ctx, stageId, view, doc) {
  if (stageId !== 'weights' || !linesPossible(ctx)) return false;
  return (view ?? doc?.weights_view ?? 'matrix') === 'lines';
}

/**
 * The picture for a context (ctx of steps.js) and the element's words. Returns
 * {el, reveal(rows), caption(), focus} — reveal shows the lines of the first `rows` queries
 * (the animation); caption() is the focused token's weights as a sentence, or null.
 */
export function linesView(ctx, w, onChange) {
  const weights = ctx.byId.get('weights');
  const [heads, nQ, nK] = weights.shape;
  const alpha = (hh, i, j) => weights.data[(hh * nQ + i) * nK + j];
  const ROW = rowHeight();
  const height = Math.max(nQ, nK) * ROW;
  const yOf = (k, count) => (height - count * ROW) / 2 + k * ROW + ROW / 2;
  const state = { focus: null, visible: new Set(Array.from({ length: heads }, (_, k) => k)), revealed: nQ };

  const tokenButton = (side, k, label, hh) => h('button', {
    type: 'button', className: `token ${side}`, dataset: { side, index: String(k), head: String(hh + 1) }, style: `height:${ROW}px`,
    attrs: { 'aria-label': `${heads > 1 ? `${w.head} ${hh + 1}, ` : ''}${side === 'query' ? w.queryTokens : w.keyTokens} ${k + 1}: ${label}` },
  }, h('span', { className: 'word', text: label }), h('span', { className: 'alphas', attrs: { 'aria-hidden': 'true' } }));
  const column = (side, labels, hh) => h('div', {
    className: `tokens ${side === 'query' ? 'queries' : 'keys'}`, style: `padding-top:${(height - labels.length * ROW) / 2}px`,
  }, labels.map((label, k) => tokenButton(side, k, label, hh)));

  const paths = [];
  const panels = Array.from({ length: heads }, (_, hh) => {
    const picture = svg('svg', {
      viewBox: `0 0 ${WIDTH} ${height}`, width: WIDTH, height, preserveAspectRatio: 'none', 'aria-hidden': 'true', class: 'lines-svg',
    });
    const mine = [];
    for (let i = 0; i < nQ; i++) {
      for (let j = 0; j < nK; j++) {
        const a = alpha(hh, i, j);
        const y0 = yOf(i, nQ), y1 = yOf(j, nK);
        const path = svg('path', {
          d: `M0 ${y0} C${WIDTH / 2} ${y0} ${WIDTH / 2} ${y1} ${WIDTH} ${y1}`,
          fill: 'none', stroke: headColor(hh), 'stroke-width': strokeWidth(a), 'stroke-opacity': opacity(a),
          'stroke-linecap': 'round', class: a > 0 ? 'line' : 'line zero',
          'data-query': ctx.qTokens[i], 'data-key': ctx.kTokens[j], 'data-head': hh + 1, 'data-weight': a, 'data-i': i, 'data-j': j,
        });
        mine.push({ path, hh, i, j, a });
      }
    }
    // light lines first, so the heavy ones are drawn over them (on the page and in the exported figure)
    mine.sort((x, y) => x.a - y.a);
    for (const p of mine) picture.append(p.path);
    paths.push(...mine);
    const queries = column('query', ctx.qTokens, hh), keys = column('key', ctx.kTokens, hh);
    const el = h('div', { className: 'lines-head', dataset: { head: String(hh + 1) } },
      h('div', { className: 'lines-heading' }, h('span', { text: w.linesQueries }),
        heads > 1 ? h('span', { className: 'head-name' }, h('span', { className: 'swatch', style: `background:${headColor(hh)}` }), `${w.head} ${hh + 1}`) : null,
        h('span', { text: w.linesKeys })),
      h('div', { className: 'lines-body' }, queries, picture, keys));
    return { el, hh, tokens: [...queries.children, ...keys.children], paths: mine };
  });

  const toggles = heads > 1 ? h('div', { className: 'head-toggles', attrs: { role: 'group', 'aria-label': w.headsShown } },
    Array.from({ length: heads }, (_, hh) => h('button', {
      type: 'button', className: 'head-toggle', dataset: { head: String(hh + 1) }, attrs: { 'aria-pressed': 'true' },
      on: { click: (e) => {
        if (state.visible.has(hh)) state.visible.delete(hh); else state.visible.add(hh);
        e.currentTarget.setAttribute('aria-pressed', String(state.visible.has(hh)));
        apply();
        onChange();
      } },
    }, h('span', { className: 'swatch', style: `background:${headColor(hh)}` }), `${w.head} ${hh + 1}`))) : null;

  const body = h('div', { className: 'lines-heads' }, panels.map((p) => p.el));
  const root = h('div', { className: `lines${heads > 1 ? ' many' : ''}`, attrs: { role: 'group', 'aria-label': w.linesTitle } }, toggles, body);

  const setFocus = (focus) => {
    const same = focus?.side === state.focus?.side && focus?.index === state.focus?.index;
    if (same) return;
    state.focus = focus;
    apply();
    onChange();
  };
  const tokenOf = (e) => e.target.closest?.('button.token');
  body.addEventListener('pointerover', (e) => { const t = tokenOf(e); if (t) setFocus({ side: t.dataset.side, index: Number(t.dataset.index) }); });
  body.addEventListener('focusin', (e) => { const t = tokenOf(e); if (t) setFocus({ side: t.dataset.side, index: Number(t.dataset.index) }); });
  /** The token with keyboard focus, if any: leaving with the pointer goes back to it. */
  const focusedToken = () => {
    const t = root.getRootNode().activeElement;
    return t?.classList?.contains('token') ? { side: t.dataset.side, index: Number(t.dataset.index) } : null;
  };
  body.addEventListener('pointerleave', () => setFocus(focusedToken()));
  body.addEventListener('focusout', (e) => { if (!body.contains(e.relatedTarget)) setFocus(null); });

  /** The token whose lines are kept: the focused or hovered one, else the query being animated. */
  const spotlight = () => state.focus ?? (state.revealed < nQ || state.animating ? { side: 'query', index: state.revealed - 1 } : null);

  function apply() {
    const spot = spotlight();
    const touches = (p) => !spot || (spot.side === 'query' ? p.i === spot.index : p.j === spot.index);
    for (const p of paths) {
      p.path.classList.toggle('off', !state.visible.has(p.hh) || p.i >= state.revealed);
      p.path.classList.toggle('dim', !touches(p));
    }
    for (const { el, hh, tokens } of panels) {
      el.hidden = !state.visible.has(hh);
      for (const b of tokens) { // each head's badges: its own α
        const side = b.dataset.side, k = Number(b.dataset.index);
        b.classList.toggle('spot', !!spot && spot.side === side && spot.index === k);
        const badges = clear(b.querySelector('.alphas'));
        if (!spot || spot.side === side || (spot.side === 'query' && spot.index >= state.revealed)) continue;
        const a = spot.side === 'query' ? alpha(hh, spot.index, k) : alpha(hh, k, spot.index);
        badges.append(h('span', { className: 'alpha', style: `color:${headColor(hh)}`, text: cell(a) }));
      }
    }
  }

  /** The spotlit token's weights, heaviest first, per visible head: what the caption reads out. */
  function caption() {
    const spot = spotlight();
    if (!spot || spot.index < 0) return null;
    const fromQuery = spot.side === 'query';
    const token = (fromQuery ? ctx.qTokens : ctx.kTokens)[spot.index];
    const others = fromQuery ? ctx.kTokens : ctx.qTokens;
    const parts = [...state.visible].sort((x, y) => x - y).map((hh) => {
      const list = others.map((label, k) => [label, fromQuery ? alpha(hh, spot.index, k) : alpha(hh, k, spot.index)])
        .sort((x, y) => y[1] - x[1]).slice(0, CAPTION_ENTRIES).map(([label, a]) => `${label} ${cell(a)}`).join(' · ');
      return heads > 1 ? `${w.head} ${hh + 1}: ${list}` : list;
    });
    return `${fromQuery ? w.linesFrom(token) : w.linesTo(token)} ${parts.join('; ')}`;
  }

  /** The picture as a standalone SVG (for export): token labels as text, each shown head's lines side by side, no spotlight. */
  /** The picture for an export (export.js), its labels in `font` at 14 px: each label's room measured, so none is cut. */
  function figure(font = 'sans-serif') {
    const charW = (t) => labelWidth(t, font);
    const qW = Math.max(...ctx.qTokens.map(charW)) + 10, kW = Math.max(...ctx.kTokens.map(charW)) + 10;
    const shown = panels.filter((p) => state.visible.has(p.hh)), one = qW + WIDTH + kW, gap = 24;
    const width = Math.max(1, shown.length) * (one + gap) - gap;
    const out = svg('svg', { width, height, viewBox: `0 0 ${width} ${height}` });
    shown.forEach(({ paths: mine }, k) => {
      const x0 = k * (one + gap);
      const g = svg('g', { transform: `translate(${x0 + qW},0)` });
      for (const p of mine) {
        if (!(p.a > 0)) continue;
        const copy = p.path.cloneNode();
        copy.removeAttribute('class');
        g.append(copy);
      }
      out.append(g);
      ctx.qTokens.forEach((t, i) => out.append(svg('text', { x: x0 + qW - 8, y: yOf(i, nQ) + 5, 'text-anchor': 'end', 'font-size': 14, fill: '#1b1f24' }, t)));
      ctx.kTokens.forEach((t, j) => out.append(svg('text', { x: x0 + qW + WIDTH + 8, y: yOf(j, nK) + 5, 'font-size': 14, fill: '#1b1f24' }, t)));
    });
    return out;
  }

  apply();
  return {
    el: root,
    caption,
    figure,
    /** Shows the lines of the first `rows` queries; `animating` spotlights the newest one. */
    reveal(rows, animating) {
      if (rows === state.revealed && animating === state.animating) return;
      state.revealed = rows;
      state.animating = animating;
      apply();
    },
  };
}
