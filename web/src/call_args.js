// The arguments of the calls that take no spec (a.attention's arrays and sizes, explain's cell) checked in
// JavaScript, where each refusal names the argument as the caller wrote it; the core checks again.
import { wholeNumber } from './args.js';
import { AttentionError } from './attention_error.js';

/** The largest cell index or head an explain call passes to the core (its arguments are 32-bit ints). */
export const MAX_CELL = 2 ** 31 - 1;

/** [head, i, j] of an explain call (0-based), each a whole number in range or a sentence naming it. */
export function cellArgs(call, { head, i, j }) {
  return [['head', head, 63], ['i', i, MAX_CELL], ['j', j, MAX_CELL]].map(([name, x, max]) => wholeNumber(x, `${call}: ${name}`, 0, max, AttentionError));
}

/** What a value is, in a refusal: "an Array", "a Float64Array", "null", "a number". */
const kind = (x) => (x === null ? 'null' : Array.isArray(x) ? 'an Array' : ArrayBuffer.isView(x) ? `a ${x.constructor.name}` : `a ${typeof x}`);

/** One of q, k, v: a Float32Array with at least one row of d values. */
function checkArray(name, a) {
  if (!(a instanceof Float32Array)) throw new AttentionError(`${name} must be a Float32Array (rows of d values, row-major), not ${kind(a)}.`);
  if (a.length === 0) throw new AttentionError(`${name} is empty: it needs at least one row of d values.`);
}

/** One of q, k, v: whole rows of d. */
function checkRows(name, a, d) {
  if (a.length % d !== 0) throw new AttentionError(`${name} has ${a.length} values: not a whole number of rows of d = ${d}.`);
}

/**
 * The fast path's arguments checked, each refusal one sentence naming the argument (out: undefined when
 * absent). Positional, and no arrays made: at n = 16 these checks were a seventh of the call.
 */
export function checkAttentionArgs(q, k, v, d, heads, causal, out, limits) {
  checkArray('q', q);
  checkArray('k', k);
  checkArray('v', v);
  wholeNumber(d, 'd', 1, limits.maxDModel, AttentionError);
  wholeNumber(heads, 'heads', 1, limits.maxHeads, AttentionError);
  if (d % heads !== 0) throw new AttentionError(`d is ${d} but heads is ${heads}: d must be a multiple of heads.`);
  if (typeof causal !== 'boolean') throw new AttentionError(`causal is ${kind(causal)} but must be true or false.`);
  checkRows('q', q, d);
  checkRows('k', k, d);
  checkRows('v', v, d);
  if (k.length !== v.length) throw new AttentionError(`k has ${k.length / d} rows but v has ${v.length / d}: keys and values come in pairs.`);
  if (out !== undefined && !(out instanceof Float32Array && out.length === q.length)) {
    const what = out instanceof Float32Array ? `one of ${out.length} values` : kind(out);
    throw new AttentionError(`out must be a Float32Array of ${q.length} values (n_q × d, as q), not ${what}.`);
  }
  const nQ = q.length / d, nK = k.length / d;
  // Sizes in doubles, before anything is allocated: wasm's malloc takes 32 bits, and a byte count past 2³²
  // would wrap to a small block that the copies below overrun (the heap would be corrupt for good).
  const bytes = (2 * q.length + k.length + v.length) * 4;
  if (bytes > limits.maxAttentionBytes) {
    throw new AttentionError(`q, k, v and the output need ${Math.ceil(bytes / 2 ** 20)} MiB, over the ${limits.maxAttentionBytes / 2 ** 20} MiB one attention() call may hold.`);
  }
  // The work: two products of d multiply-adds and one exp (about 16 multiply-adds' time) per score
  const work = nQ * nK * (2 * d + 16) / (causal ? 2 : 1);
  if (work > limits.maxAttentionWork) {
    throw new AttentionError(`${nQ} × ${nK} scores at d = ${d} are about ${work.toExponential(1)} operations, over the 2^${Math.log2(limits.maxAttentionWork)} one attention() call may do (a few seconds).`);
  }
  // finiteness: checked by the core (api.js, attention)
}
