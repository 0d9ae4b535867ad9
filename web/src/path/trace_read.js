// Reading a trace the core computed, as the path's figures and questions need it: a stage's matrix for one
// head, one row of it, the tokens on each axis. Reading only: nothing here computes attention.

/** A stage of the trace by id (an AttentionError-free lookup: a section names only stages its figure has). */
export function stageOf(trace, id) {
  const stage = trace.stages.find((s) => s.id === id);
  if (!stage) throw new Error(`the trace has no stage "${id}".`);
  return stage;
}

/** One head's matrix of a stage ({rows, cols, data}): heads × rows × cols stages give head h's block. */
export function matrix(trace, id, head = 0) {
  const { shape, data } = stageOf(trace, id);
  const [rows, cols] = shape.length === 1 ? [1, shape[0]] : shape.slice(-2);
  const heads = shape.length === 3 ? shape[0] : 1;
  if (head >= heads) throw new Error(`stage "${id}" has ${heads} heads, not ${head + 1}.`);
  return { rows, cols, heads, data: data.subarray(head * rows * cols, (head + 1) * rows * cols) };
}

/** Row i of a head's matrix, as a plain array. */
export function rowOf(trace, id, head, i) {
  const m = matrix(trace, id, head);
  return Array.from(m.data.subarray(i * m.cols, (i + 1) * m.cols));
}

/** The index of the largest value. */
export const argmax = (values) => values.reduce((best, v, k) => (v > values[best] ? k : best), 0);

/** The tokens along an axis ('query' or 'key'); a self-attention trace's keys are its queries. */
export function tokensOf(trace, axis) {
  const tokens = trace.spec.tokens ?? {};
  return (axis === 'key' ? tokens.key ?? tokens.query : tokens.query) ?? [];
}
