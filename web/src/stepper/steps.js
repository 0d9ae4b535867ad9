// The narrative as data: for every stage id, the matrices a reader sees (operands, then the
// result), the order its cells appear in, and which operand cells each result cell comes from.
// Nothing here computes attention: every value shown is read from the core's trace (the operands
// are the trace's own earlier stages and the spec's weights), and the arithmetic written out for
// a cell is the core's too (attention.explain).
//
// [SECTION] matrices: views of trace stages and spec fields
// [SECTION] scenes: one per stage id
import { scaleOf, shownSize } from './matrix_view.js';

const range = (n) => Array.from({ length: n }, (_, i) => i);
/** Beyond this many result cells a stage animates row by row (a quarter second a step, 8 s at most). */
const MAX_CELL_STEPS = 32;

/**
 * The stages a reader steps through: the trace's, except that with one head the merge is folded
 * into the context step (concat would only copy it; the context scene says so).
 */
export function shownStages(trace) {
  if (trace.kind === 'vision') return trace.stages;
  return trace.spec.heads > 1 ? trace.stages : trace.stages.filter((s) => s.id !== 'concat');
}

/** The shown stage that shows stage id: itself, or the shown stage it is folded into (concat → context). */
export function shownStageFor(trace, id) {
  const shown = new Set(shownStages(trace).map((s) => s.id));
  const ids = trace.stages.map((s) => s.id);
  for (let k = ids.indexOf(id); k >= 0; k--) if (shown.has(ids[k])) return ids[k];
  return undefined;
}

/**
 * Everything the scenes need to know about one trace. Axis labels come from the trace (the core
 * labels them for the CLI and the lab too) and matrix names from the core's stage registry.
 * @param {object} trace a trace from the package
 * @param {readonly object[]} registry attention.stages()
 * @param {string[]} [names] the example's names for its hand-made dimensions (translation: animal, sitting, …),
 *   the columns' labels while the spec still has that many (else the core's d1, d2, …)
 */
export function makeContext(trace, registry, names = null) {
  const byId = new Map(trace.stages.map((s) => [s.id, s]));
  const info = new Map(registry.map((s) => [s.id, s]));
  const spec = trace.spec;
  const [nQ, d] = byId.get('x').shape;
  const nK = byId.get('k').shape[1];
  const heads = spec.heads;
  const dh = d / heads;
  // K and V may have fewer heads than Q (kv_heads): query head h reads key/value head ⌊h / (heads / kvHeads)⌋
  const kvHeads = byId.get('k').shape[0];
  const cross = byId.has('memory');
  const { axes } = trace;
  const dims = names?.length === d ? names : axes.feature;
  return {
    trace, spec, byId, info, nQ, nK, d, heads, dh, cross, kvHeads,
    kvOf: (h) => Math.floor(h / (heads / kvHeads)),
    qTokens: axes.query, kTokens: axes.key, positions: axes.position, dims,
    headDims: (h) => (dims === axes.feature ? axes.head_feature : dims.slice(h * dh, (h + 1) * dh)), // head h's columns
    tiles: axes.tile, tileDims: axes.tile_feature, block: spec.online_softmax?.block ?? 0,
    symbol: (id) => info.get(id).symbol,
    single: (id) => [info.get(id).symbol],
  };
}

// [SECTION] matrices: views of trace stages and spec fields

/** A 2-D stage of the trace. */
function stage2(ctx, id, label, rowLabels, colLabels, role = 'operand') {
  const s = ctx.byId.get(id);
  const [rows, cols] = s.shape;
  return { key: id, label, rows, cols, rowLabels, colLabels, role, heat: ctx.info.get(id).scale, value: (i, j) => s.data[i * cols + j] };
}

/** Head h of a 3-D stage (heads × rows × cols). */
function head(ctx, id, h, label, rowLabels, colLabels, role = 'operand') {
  const s = ctx.byId.get(id);
  const [, rows, cols] = s.shape;
  const base = h * rows * cols;
  return { key: id, label, rows, cols, rowLabels, colLabels, role, heat: ctx.info.get(id).scale, value: (i, j) => s.data[base + i * cols + j] };
}

/** Head h of a 3-D stage, transposed (for Kᵀ). */
function headT(ctx, id, h, label, rowLabels, colLabels) {
  const s = ctx.byId.get(id);
  const [, rows, cols] = s.shape;
  const base = h * rows * cols;
  return { key: `${id}T`, label, rows: cols, cols: rows, rowLabels, colLabels, role: 'operand', heat: ctx.info.get(id).scale, value: (i, j) => s.data[base + j * cols + i] };
}

/** A (heads × n × d_h) stage shown whole, n × d, with its heads as column bands. */
function merged(ctx, id, label, rowLabels, role = 'result') {
  const s = ctx.byId.get(id);
  const [heads, rows, cols] = s.shape;
  return {
    key: `${id}_merged`, label, rows, cols: heads * cols, rowLabels, colLabels: ctx.dims.slice(0, heads * cols), role, bands: heads > 1 ? ctx.dh : 0,
    heat: ctx.info.get(id).scale,
    value: (i, j) => s.data[(Math.floor(j / cols) * rows + i) * cols + (j % cols)],
  };
}

/**
 * Matrices a reader compares (each head's context beside their concatenation; the online result
 * beside the plain one) on one colour range: the largest |value| among all of them (m.top).
 */
function sharedRange(matrices) {
  const top = Math.max(0, ...matrices.map((m) => { const { rows, cols } = shownSize(m.rows, m.cols); return scaleOf(m, rows, cols); }));
  for (const m of matrices) m.top = top;
  return matrices;
}

/** A matrix of the spec (weights, inputs), editable through its path. */
function specMatrix(ctx, path, label, rowLabels, colLabels) {
  const m = path.reduce((o, k) => o?.[k], ctx.spec);
  if (!m) return null;
  return { key: path.join('.'), label, rows: m.length, cols: m[0].length, rowLabels, colLabels, role: 'operand', edit: path, value: (i, j) => m[i][j] };
}

/** A vector of the spec (a bias) as one row. */
function specVector(ctx, path, label, colLabels) {
  const v = path.reduce((o, k) => o?.[k], ctx.spec);
  if (!v) return null;
  return { key: path.join('.'), label, rows: 1, cols: v.length, rowLabels: [''], colLabels, role: 'operand', edit: path, vector: true, value: (i, j) => v[j] };
}

// [SECTION] scenes: one per stage id

function projectionScene(ctx, id, wKey, bKey, inputId, letter) {
  const rowsIn = inputId === 'memory' ? ctx.kTokens : ctx.qTokens;
  const input = stage2(ctx, inputId, ctx.symbol(inputId), rowsIn, ctx.dims);
  const result = merged(ctx, id, ctx.symbol(id), rowsIn);
  const outDims = result.colLabels; // d_model columns, or K's and V's d_kv with shared key/value heads
  const w = specMatrix(ctx, ['weights', wKey], `W_${letter}`, ctx.dims, outDims);
  const b = specVector(ctx, ['weights', bKey], `b_${letter}`, outDims);
  const matrices = [input, w, b, result].filter(Boolean);
  const heads = ctx.byId.get(id).shape[0];
  if (heads > 1) {
    for (let hh = 0; hh < heads; hh++) {
      matrices.push({ ...head(ctx, id, hh, `${ctx.symbol(id)}${hh + 1}`, rowsIn, ctx.headDims(hh), 'split'), key: `${id}_h${hh}` });
    }
  }
  return {
    matrices,
    result: result.key,
    allHeads: true, // every head is on show: no head selector
    highlights(i, j) {
      const hl = [{ key: input.key, row: i }];
      hl.push(w ? { key: w.key, col: j } : { key: input.key, cell: [i, j] });
      if (b) hl.push({ key: b.key, col: j });
      if (heads > 1) hl.push({ key: `${id}_h${Math.floor(j / ctx.dh)}`, cell: [i, j % ctx.dh] });
      return hl;
    },
  };
}

/** Rotary positions: head h's rows before and after the turn; a cell comes from itself and its partner column j ± d_h/2. */
function rotationScene(ctx, id, inputId, h, rowLabels) {
  const g = id === 'k_rot' ? ctx.kvOf(h) : h; // the key/value head query head h reads
  const shared = id === 'k_rot' && ctx.kvHeads < ctx.heads;
  const input = head(ctx, inputId, g, `${ctx.symbol(inputId)}${shared ? g + 1 : ''}`, rowLabels, ctx.headDims(g));
  const result = head(ctx, id, g, `${ctx.symbol(id)}${shared ? g + 1 : ''}`, rowLabels, ctx.headDims(g), 'result');
  const half = ctx.dh / 2;
  return {
    matrices: [input, result],
    result: result.key,
    highlights: (i, j) => [{ key: input.key, cell: [i, j] }, { key: input.key, cell: [i, j < half ? j + half : j - half] }],
  };
}

const scenes = {
  pe(ctx) {
    const pe = stage2(ctx, 'pe', ctx.symbol('pe'), ctx.positions, ctx.dims, 'result');
    const learned = typeof ctx.spec.positional === 'object';
    return {
      matrices: [pe],
      result: pe.key,
      sinusoid: !learned,
      highlights: () => [],
    };
  },

  x(ctx) { return inputScene(ctx, 'x', ['x'], ctx.qTokens); },
  memory(ctx) { return inputScene(ctx, 'memory', ['memory'], ctx.kTokens); },
  q(ctx) { return projectionScene(ctx, 'q', 'wq', 'bq', 'x', 'q'); },
  k(ctx) { return projectionScene(ctx, 'k', 'wk', 'bk', ctx.cross ? 'memory' : 'x', 'k'); },
  v(ctx) { return projectionScene(ctx, 'v', 'wv', 'bv', ctx.cross ? 'memory' : 'x', 'v'); },
  q_rot(ctx, h) { return rotationScene(ctx, 'q_rot', 'q', h, ctx.qTokens); },
  k_rot(ctx, h) { return rotationScene(ctx, 'k_rot', 'k', h, ctx.kTokens); },

  scores(ctx, h) {
    const [qId, kId] = ctx.byId.get('scores').operands; // q and k, or q_rot and k_rot
    const g = ctx.kvOf(h);
    const q = head(ctx, qId, h, ctx.symbol(qId), ctx.qTokens, ctx.headDims(h));
    const e = head(ctx, 'scores', h, ctx.symbol('scores'), ctx.qTokens, ctx.kTokens, 'result');
    const kind = ctx.spec.score;
    if (kind === 'additive') {
      const k = head(ctx, kId, g, ctx.symbol(kId), ctx.kTokens, ctx.headDims(h));
      const w1 = specMatrix(ctx, ['additive', 'w1'], 'W1', ctx.headDims(h), null);
      const w2 = specMatrix(ctx, ['additive', 'w2'], 'W2', ctx.headDims(h), null);
      const v = specVector(ctx, ['additive', 'v'], 'v', null);
      return {
        matrices: [q, k, w1, w2, v, e].filter(Boolean),
        result: e.key,
        highlights: (i, j) => [{ key: q.key, row: i }, { key: k.key, row: j }, { key: w1.key }, { key: w2.key }, { key: v.key }],
      };
    }
    const kt = headT(ctx, kId, g, `${ctx.symbol(kId)}ᵀ`, ctx.headDims(h), ctx.kTokens);
    if (kind === 'bilinear') {
      const w = specMatrix(ctx, ['bilinear', 'w'], 'W', ctx.headDims(h), ctx.headDims(h));
      return {
        matrices: [q, w, kt, e],
        result: e.key,
        highlights: (i, j) => [{ key: q.key, row: i }, { key: w.key }, { key: kt.key, col: j }],
      };
    }
    return {
      matrices: [q, kt, e],
      result: e.key,
      highlights: (i, j) => [{ key: q.key, row: i }, { key: kt.key, col: j }],
    };
  },

  scaled(ctx, h) {
    const e = head(ctx, 'scores', h, ctx.symbol('scores'), ctx.qTokens, ctx.kTokens);
    const s = head(ctx, 'scaled', h, ctx.symbol('scaled'), ctx.qTokens, ctx.kTokens, 'result');
    return {
      matrices: [e, s],
      result: s.key,
      highlights: (i, j) => [{ key: e.key, cell: [i, j] }],
    };
  },

  masked(ctx, h) {
    const [beforeId] = ctx.byId.get('masked').operands;
    const before = head(ctx, beforeId, h, ctx.symbol(beforeId), ctx.qTokens, ctx.kTokens);
    const keep = ctx.trace.mask;
    const mask = { key: 'mask', label: 'mask', rows: ctx.nQ, cols: ctx.nK, rowLabels: ctx.qTokens, colLabels: ctx.kTokens, role: 'operand', binary: true, value: (i, j) => keep.data[i * ctx.nK + j] };
    const m = head(ctx, 'masked', h, ctx.symbol('masked'), ctx.qTokens, ctx.kTokens, 'result');
    m.maskOf = mask.value;
    return {
      matrices: [mask, before, m],
      result: m.key,
      highlights: (i, j) => [{ key: mask.key, cell: [i, j] }, { key: before.key, cell: [i, j] }],
    };
  },

  row_max(ctx, h) {
    const [inId] = ctx.byId.get('row_max').operands;
    const e = head(ctx, inId, h, ctx.symbol(inId), ctx.qTokens, ctx.kTokens);
    const m = head(ctx, 'row_max', h, ctx.symbol('row_max'), ctx.qTokens, ctx.single('row_max'), 'result');
    return {
      matrices: [e, m],
      result: m.key,
      order: 'rows',
      highlights: (i) => {
        const row = range(ctx.nK).map((j) => e.value(i, j));
        return [{ key: e.key, row: i }, { key: e.key, cell: [i, row.indexOf(Math.max(...row))] }];
      },
    };
  },

  exp(ctx, h) {
    const [inId] = ctx.byId.get('exp').operands;
    const e = head(ctx, inId, h, ctx.symbol(inId), ctx.qTokens, ctx.kTokens);
    const m = head(ctx, 'row_max', h, ctx.symbol('row_max'), ctx.qTokens, ctx.single('row_max'));
    const x = head(ctx, 'exp', h, ctx.symbol('exp'), ctx.qTokens, ctx.kTokens, 'result');
    return {
      matrices: [e, m, x],
      result: x.key,
      highlights: (i, j) => [{ key: e.key, cell: [i, j] }, { key: m.key, cell: [i, 0] }],
    };
  },

  row_sum(ctx, h) {
    const x = head(ctx, 'exp', h, ctx.symbol('exp'), ctx.qTokens, ctx.kTokens);
    const s = head(ctx, 'row_sum', h, ctx.symbol('row_sum'), ctx.qTokens, ctx.single('row_sum'), 'result');
    return {
      matrices: [x, s],
      result: s.key,
      order: 'rows',
      highlights: (i, j) => [{ key: x.key, row: i }],
    };
  },

  weights(ctx, h) {
    const x = head(ctx, 'exp', h, ctx.symbol('exp'), ctx.qTokens, ctx.kTokens);
    const s = head(ctx, 'row_sum', h, ctx.symbol('row_sum'), ctx.qTokens, ctx.single('row_sum'));
    const w = head(ctx, 'weights', h, ctx.symbol('weights'), ctx.qTokens, ctx.kTokens, 'result');
    return {
      matrices: [x, s, w],
      result: w.key,
      highlights: (i, j) => [{ key: x.key, cell: [i, j] }, { key: s.key, cell: [i, 0] }],
    };
  },

  context(ctx, h) {
    const w = head(ctx, 'weights', h, ctx.symbol('weights'), ctx.qTokens, ctx.kTokens);
    const v = head(ctx, 'v', ctx.kvOf(h), ctx.symbol('v'), ctx.kTokens, ctx.headDims(h));
    const c = head(ctx, 'context', h, ctx.symbol('context'), ctx.qTokens, ctx.headDims(h), 'result');
    return {
      matrices: [w, v, c],
      result: c.key,
      highlights: (i, j) => [{ key: w.key, row: i }, { key: v.key, col: j }],
    };
  },

  // the online softmax: the state after each tile of ctx.block keys (columns t1, t2, …)
  online_max(ctx, h) {
    const e = onlineScores(ctx, h);
    const m = head(ctx, 'online_max', h, ctx.symbol('online_max'), ctx.qTokens, ctx.tiles, 'result');
    return {
      matrices: [e, m],
      result: m.key,
      highlights: (i, t) => [...tileCells(ctx, e.key, i, t), t > 0 && { key: m.key, cell: [i, t - 1] }].filter(Boolean),
    };
  },

  online_rescale(ctx, h) {
    const m = head(ctx, 'online_max', h, ctx.symbol('online_max'), ctx.qTokens, ctx.tiles);
    const r = head(ctx, 'online_rescale', h, ctx.symbol('online_rescale'), ctx.qTokens, ctx.tiles, 'result');
    return {
      matrices: [m, r],
      result: r.key,
      highlights: (i, t) => [t > 0 && { key: m.key, cell: [i, t - 1] }, { key: m.key, cell: [i, t] }].filter(Boolean),
    };
  },

  online_sum(ctx, h) {
    const e = onlineScores(ctx, h);
    const m = head(ctx, 'online_max', h, ctx.symbol('online_max'), ctx.qTokens, ctx.tiles);
    const r = head(ctx, 'online_rescale', h, ctx.symbol('online_rescale'), ctx.qTokens, ctx.tiles);
    const l = head(ctx, 'online_sum', h, ctx.symbol('online_sum'), ctx.qTokens, ctx.tiles, 'result');
    return {
      matrices: [e, m, r, l],
      result: l.key,
      highlights: (i, t) => [
        ...tileCells(ctx, e.key, i, t), { key: m.key, cell: [i, t] }, { key: r.key, cell: [i, t] },
        t > 0 && { key: l.key, cell: [i, t - 1] },
      ].filter(Boolean),
    };
  },

  online_acc(ctx, h) {
    const e = onlineScores(ctx, h);
    const v = head(ctx, 'v', ctx.kvOf(h), ctx.symbol('v'), ctx.kTokens, ctx.headDims(h));
    const m = head(ctx, 'online_max', h, ctx.symbol('online_max'), ctx.qTokens, ctx.tiles);
    const r = head(ctx, 'online_rescale', h, ctx.symbol('online_rescale'), ctx.qTokens, ctx.tiles);
    const a = head(ctx, 'online_acc', h, ctx.symbol('online_acc'), ctx.qTokens, ctx.tileDims, 'result');
    a.bands = ctx.dh;
    return {
      matrices: [e, v, m, r, a],
      result: a.key,
      highlights: (i, col) => {
        const t = Math.floor(col / ctx.dh), c = col % ctx.dh;
        const keys = tileKeys(ctx, t).map((j) => ({ key: v.key, cell: [j, c] }));
        return [
          ...tileCells(ctx, e.key, i, t), ...keys, { key: m.key, cell: [i, t] }, { key: r.key, cell: [i, t] },
          t > 0 && { key: a.key, cell: [i, col - ctx.dh] },
        ].filter(Boolean);
      },
    };
  },

  online_output(ctx, h) {
    const last = ctx.tiles.length - 1;
    const a = head(ctx, 'online_acc', h, ctx.symbol('online_acc'), ctx.qTokens, ctx.tileDims);
    a.bands = ctx.dh;
    const l = head(ctx, 'online_sum', h, ctx.symbol('online_sum'), ctx.qTokens, ctx.tiles);
    const o = head(ctx, 'online_output', h, ctx.symbol('online_output'), ctx.qTokens, ctx.headDims(h), 'result');
    const c = head(ctx, 'context', h, ctx.symbol('context'), ctx.qTokens, ctx.headDims(h)); // to compare: the same numbers
    sharedRange([o, c]);
    return {
      matrices: [a, l, o, c],
      result: o.key,
      highlights: (i, j) => [{ key: a.key, cell: [i, last * ctx.dh + j] }, { key: l.key, cell: [i, last] }, { key: c.key, cell: [i, j] }],
    };
  },

  concat(ctx) {
    const parts = range(ctx.heads).map((hh) => ({ ...head(ctx, 'context', hh, `${ctx.symbol('context')}${ctx.heads > 1 ? hh + 1 : ''}`, ctx.qTokens, ctx.headDims(hh)), key: `context_h${hh}` }));
    const c = stage2(ctx, 'concat', ctx.symbol('concat'), ctx.qTokens, ctx.dims, 'result');
    c.bands = ctx.heads > 1 ? ctx.dh : 0;
    return {
      matrices: sharedRange([...parts, c]),
      result: c.key,
      highlights: (i, j) => [{ key: `context_h${Math.floor(j / ctx.dh)}`, cell: [i, j % ctx.dh] }],
    };
  },

  output(ctx) {
    const c = stage2(ctx, 'concat', ctx.symbol('concat'), ctx.qTokens, ctx.dims);
    const w = specMatrix(ctx, ['weights', 'wo'], 'W_o', ctx.dims, ctx.dims);
    const b = specVector(ctx, ['weights', 'bo'], 'b_o', ctx.dims);
    const o = stage2(ctx, 'output', ctx.symbol('output'), ctx.qTokens, ctx.dims, 'result');
    return {
      matrices: [c, w, b, o].filter(Boolean),
      result: o.key,
      highlights: (i, j) => [{ key: c.key, row: i }, { key: w.key, col: j }, b && { key: b.key, col: j }].filter(Boolean),
    };
  },
};

/** The softmax's input as the online softmax reads it, its tiles of keys as column bands. */
function onlineScores(ctx, h) {
  const [id] = ctx.byId.get('online_max').operands;
  const e = head(ctx, id, h, ctx.symbol(id), ctx.qTokens, ctx.kTokens);
  e.bands = ctx.block;
  if (id === 'masked') e.maskOf = (i, j) => ctx.trace.mask.data[i * ctx.nK + j];
  return e;
}

/** The key indices of tile t. */
function tileKeys(ctx, t) {
  return range(ctx.nK).filter((j) => Math.floor(j / ctx.block) === t);
}

/** Row i's cells of tile t in matrix `key`. */
function tileCells(ctx, key, i, t) {
  return tileKeys(ctx, t).map((j) => ({ key, cell: [i, j] }));
}

function inputScene(ctx, id, path, rowLabels) {
  const label = ctx.symbol(id);
  const result = stage2(ctx, id, label, rowLabels, ctx.dims, 'result');
  const raw = specMatrix(ctx, path, `${label}₀`, rowLabels, ctx.dims);
  if (!ctx.byId.has('pe')) {
    result.edit = path;
    return {
      matrices: [result],
      result: result.key,
      highlights: () => [],
    };
  }
  const pe = stage2(ctx, 'pe', ctx.symbol('pe'), rowLabels, ctx.dims);
  return {
    matrices: [raw, pe, result],
    result: result.key,
    highlights: (i, j) => [{ key: raw.key, cell: [i, j] }, { key: pe.key, cell: [i, j] }],
  };
}

/**
 * The scene of one stage for head h: {matrices, result, order, perHead, highlights(i, j), sinusoid?};
 * highlights(i, j) names the operand cells a result cell is computed from (its arithmetic, in words,
 * comes from the core: attention.explain).
 * @param {ReturnType<typeof makeContext>} ctx
 */
export function sceneFor(ctx, id, h = 0) {
  const scene = scenes[id](ctx, Math.min(h, ctx.heads - 1));
  scene.resultMatrix = scene.matrices.find((m) => m.key === scene.result);
  scene.order ??= 'cells';
  // many cells: reveal a row at a time, so the stage still plays within its 8 s
  if (scene.order === 'cells' && scene.resultMatrix.rows * scene.resultMatrix.cols > MAX_CELL_STEPS) scene.order = 'rows';
  scene.perHead = ctx.info.get(id).per_head && !scene.allHeads; // the head selector applies
  const { rows, cols } = scene.resultMatrix;
  scene.steps = scene.order === 'rows' ? shownSize(rows, cols).rows : rows * cols; // the drawn rows only
  return scene;
}
