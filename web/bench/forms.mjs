// What the single-thread bench (forward.mjs, in Node) and the threaded bench (threads.mjs, imported by its
// pages from the served repository) share, so that both time the same inputs and each peer in one form:
// no Node or browser API here.

/** count values in [−1, 1) from a fixed linear congruential stream (the same inputs in every run and page). */
export function randomData(count, seed) {
  const out = new Float32Array(count);
  let s = seed;
  for (let i = 0; i < count; i++) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    out[i] = (s / 4294967296) * 2 - 1;
  }
  return out;
}

/**
 * TF.js as its experts write it: Q scaled by 1/√d first (n·d multiplies, not n²), then
 * matMul(q, transpose(k)), which runs XNNPACK's plain GEMM. inverse is tf.scalar(1 / √d).
 */
export const tfFast = (tf, tq, tk, tv, inverse) => tf.tidy(() => tf.matMul(tf.softmax(tf.matMul(tf.mul(tq, inverse), tf.transpose(tk))), tv));

/** The largest |a[i] − b[i]|. */
export function maxDiff(a, b) {
  let worst = 0;
  for (let i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs(a[i] - b[i]));
  return worst;
}
