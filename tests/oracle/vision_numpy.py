"""An independent implementation of the vision blocks of docs/spec.md, in float64 numpy, written
from the papers' definitions and PyTorch's layer semantics (Conv1d/Conv2d are cross-correlations
with zero padding; BatchNorm at inference uses the stored statistics), not from the C++ code.

trace(spec) returns {stage id: array} for the spec's block.
"""
import numpy as np


def sigmoid(v):
    return 1.0 / (1.0 + np.exp(-v))


def relu(v):
    return np.maximum(v, 0.0)


def h_swish(v):
    return v * np.clip(v + 3.0, 0.0, 6.0) / 6.0


def dense(z, w, b):
    """z·W + b with W (in × out)."""
    w = np.asarray(w, dtype=np.float64)
    return z @ w + (np.asarray(b, dtype=np.float64) if b is not None else 0.0)


def conv1d_same(z, taps):
    """PyTorch Conv1d(1, 1, k, padding=(k-1)//2, bias=False) over the channel axis."""
    k = len(taps)
    p = (k - 1) // 2
    padded = np.concatenate([np.zeros(p), z, np.zeros(p)])
    return np.array([sum(taps[t] * padded[c + t] for t in range(k)) for c in range(len(z))])


def conv2d_same(maps, kernel, bias):
    """PyTorch Conv2d(2, 1, K, padding=(K-1)//2) with one output channel: maps (2, H, W), kernel (2, K, K)."""
    kernel = np.asarray(kernel, dtype=np.float64)
    _, h, w = maps.shape
    k = kernel.shape[1]
    p = (k - 1) // 2
    padded = np.pad(maps, ((0, 0), (p, p), (p, p)))
    out = np.full((h, w), float(bias))
    for i in range(h):
        for j in range(w):
            out[i, j] += np.sum(padded[:, i:i + k, j:j + k] * kernel)
    return out


def trace(spec):
    x = np.asarray(spec["feature"], dtype=np.float64)
    c, h, w = x.shape
    block = spec["block"]
    p = spec[block]
    out = {"feature": x}
    if block in ("se", "eca"):
        z = x.mean(axis=(1, 2))
        out["pool_avg"] = z
        if block == "se":
            out["fc1"] = dense(z, p["w1"], p.get("b1"))
            out["relu"] = relu(out["fc1"])
            out["fc2"] = dense(out["relu"], p["w2"], p.get("b2"))
            out["gate"] = sigmoid(out["fc2"])
        else:
            out["conv1d"] = conv1d_same(z, p["w"])
            out["gate"] = sigmoid(out["conv1d"])
        out["output"] = x * out["gate"][:, None, None]
    elif block == "cbam":
        def mlp(v):
            return dense(relu(dense(v, p["w1"], p.get("b1"))), p["w2"], p.get("b2"))
        out["pool_avg"] = x.mean(axis=(1, 2))
        out["pool_max"] = x.max(axis=(1, 2))
        out["mlp_avg"] = mlp(out["pool_avg"])
        out["mlp_max"] = mlp(out["pool_max"])
        out["channel_gate"] = sigmoid(out["mlp_avg"] + out["mlp_max"])
        refined = x * out["channel_gate"][:, None, None]
        out["channel_refined"] = refined
        out["spatial_avg"] = refined.mean(axis=0)
        out["spatial_max"] = refined.max(axis=0)
        out["spatial_conv"] = conv2d_same(np.stack([out["spatial_avg"], out["spatial_max"]]), p["spatial"], p.get("spatial_bias", 0.0))
        out["spatial_gate"] = sigmoid(out["spatial_conv"])
        out["output"] = refined * out["spatial_gate"][None, :, :]
    else:  # ca: positions = the H rows then the W columns, each a channel vector
        pool_h = x.mean(axis=2)          # (C, H)
        pool_w = x.mean(axis=1)          # (C, W)
        out["pool_h"], out["pool_w"] = pool_h, pool_w
        u = np.concatenate([pool_h, pool_w], axis=1).T   # (H+W, C)
        f = dense(u, p["w1"], p.get("b1")).T             # (m, H+W)
        out["conv1"] = f
        if "bn" in p:
            bn = p["bn"]
            scale = np.asarray(bn["gamma"]) / np.sqrt(np.asarray(bn["var"]) + bn.get("eps", 1e-5))
            f = (f - np.asarray(bn["mean"])[:, None]) * scale[:, None] + np.asarray(bn["beta"])[:, None]
            out["bn"] = f
        act = h_swish(f)
        out["act"] = act
        out["gate_h"] = sigmoid(dense(act[:, :h].T, p["wh"], p.get("bh"))).T   # (C, H)
        out["gate_w"] = sigmoid(dense(act[:, h:].T, p["ww"], p.get("bw"))).T   # (C, W)
        out["output"] = x * out["gate_h"][:, :, None] * out["gate_w"][:, None, :]
    return out
