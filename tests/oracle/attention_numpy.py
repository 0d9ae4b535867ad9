"""An independent implementation of docs/spec.md's spec -> trace contract in numpy (float64).

Written from the articles' own code (seed 002's scaled_dot_product_attention, seed 000's
BasicAttention / MultiHeadAttention / PositionalEncoding), not from the C++ core, so the
cross-check compares two implementations that only share the contract.
"""
import numpy as np


def _m(a):
    return np.asarray(a, dtype=np.float64)


def positional(spec, n, d):
    p = spec.get("positional", "none")
    if p == "none":
        return None
    if p == "sinusoidal":
        # seed 000 PositionalEncoding: div_term = exp(arange(0, d, 2) * (-log(10000) / d))
        pe = np.zeros((n, d))
        position = np.arange(n, dtype=np.float64)[:, None]
        div_term = np.exp(np.arange(0, d, 2, dtype=np.float64) * (-np.log(10000.0) / d))
        pe[:, 0::2] = np.sin(position * div_term)
        pe[:, 1::2] = np.cos(position * div_term)[:, : d // 2]
        return pe
    return _m(p["learned"])[:n]


def keep_mask(spec, n_q, n_k):
    m = spec.get("mask", "none")
    i = np.arange(n_q)[:, None]
    j = np.arange(n_k)[None, :]
    if m == "none":
        return np.ones((n_q, n_k), dtype=bool)
    if m == "causal":
        return j <= i
    if "window" in m:
        return (j <= i) & (j > i - m["window"])
    return _m(m["matrix"]) != 0


def trace(spec):
    """Returns {stage id: ndarray} with the shapes of docs/spec.md; absent stages are missing."""
    x = _m(spec["x"])
    mem = _m(spec["memory"]) if spec.get("memory") is not None else None
    n_q, d = x.shape
    n_k = mem.shape[0] if mem is not None else n_q
    h = spec.get("heads", 1)
    d_h = d // h
    w = spec.get("weights", {})
    out = {}

    pe = positional(spec, max(n_q, n_k), d)
    if pe is not None:
        out["pe"] = pe
        x = x + pe[:n_q]
        if mem is not None:
            mem = mem + pe[:n_k]
    out["x"] = x
    if mem is not None:
        out["memory"] = mem
    src = mem if mem is not None else x

    def proj(inp, wk, bk):
        y = inp @ _m(w[wk]) if wk in w else inp.copy()
        return y + _m(w[bk]) if bk in w else y

    def split(t):  # seed 000 split_heads: view(n, h, d_h).transpose
        return t.reshape(t.shape[0], h, d_h).transpose(1, 0, 2)

    q, k, v = split(proj(x, "wq", "bq")), split(proj(src, "wk", "bk")), split(proj(src, "wv", "bv"))
    out.update(q=q, k=k, v=v)

    score = spec.get("score", "scaled_dot")
    if score in ("dot", "scaled_dot"):
        e = q @ k.transpose(0, 2, 1)
    elif score == "bilinear":
        e = q @ _m(spec["bilinear"]["w"]) @ k.transpose(0, 2, 1)
    else:
        a = spec["additive"]
        hq = q @ _m(a["w1"])  # (h, n_q, d_a)
        hk = k @ _m(a["w2"])  # (h, n_k, d_a)
        e = np.tanh(hq[:, :, None, :] + hk[:, None, :, :]) @ _m(a["v"])
    out["scores"] = e
    if score == "scaled_dot":
        e = e / np.sqrt(d_h)
        out["scaled"] = e
    if spec.get("mask", "none") != "none":
        keep = keep_mask(spec, n_q, n_k)[None]
        out["masked"] = np.where(keep, e, spec.get("mask_value", -1e9))
        # the softmax sees only the kept keys of a row that has one (a masked key never wins, even
        # against a kept score below mask_value); a row with none is all mask_value: uniform, as in seed 000
        sees_a_key = keep.any(axis=-1, keepdims=True)
        e = np.where(keep | ~sees_a_key, out["masked"], -np.inf)
    # seed 002: exp(scores - scores.max(axis=-1, keepdims=True)) / sum
    m = e.max(axis=-1, keepdims=True)
    ex = np.exp(e - m)
    s = ex.sum(axis=-1, keepdims=True)
    wts = ex / s
    out.update(row_max=m, exp=ex, row_sum=s, weights=wts)
    ctx = wts @ v
    out["context"] = ctx
    concat = ctx.transpose(1, 0, 2).reshape(n_q, d)
    out["concat"] = concat
    if "wo" in w:
        o = concat @ _m(w["wo"])
        out["output"] = o + _m(w["bo"]) if "bo" in w else o
    return out
