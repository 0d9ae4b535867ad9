// The plain-JavaScript baseline for the benchmark only: softmax(Q·Kᵀ/√d)·V with typed arrays
// and straightforward loops, the way one would write it without WebAssembly.
// (The page never computes attention in JS; this exists to be measured against.)
export function plainForward(out, q, k, v, scores, n, d) {
  const root = Math.sqrt(d);
  for (let i = 0; i < n; i++) {
    let max = -Infinity;
    for (let j = 0; j < n; j++) {
      let s = 0;
      for (let c = 0; c < d; c++) s += q[i * d + c] * k[j * d + c];
      s /= root;
      scores[i * n + j] = s;
      if (s > max) max = s;
    }
    let sum = 0;
    for (let j = 0; j < n; j++) {
      const e = Math.exp(scores[i * n + j] - max);
      scores[i * n + j] = e;
      sum += e;
    }
    for (let c = 0; c < d; c++) out[i * d + c] = 0;
    for (let j = 0; j < n; j++) {
      const w = scores[i * n + j] / sum;
      for (let c = 0; c < d; c++) out[i * d + c] += w * v[j * d + c];
    }
  }
}
