"""Cross-check: the guided path's figures (`attn figure ...`) against an independent numpy implementation.

usage: /usr/bin/python3 figures_numpy.py path/to/attn

Written from docs/figures.md only: the generator (splitmix64, Box-Muller) drawn here in numpy, the RNN's
Jacobians by forward-mode tangents (the core goes backwards through time), self-attention's from the explicit
softmax Jacobian diag(a) - a a^T, softmax's gradient norm from that matrix, and the table's counts from
their formulas. Fails (exit 1) when a number differs by more than 1e-6 relative, printing the request, the
field, both values and the largest difference; also checks that bad requests exit 2 with one sentence.
"""
import json
import math
import subprocess
import sys

import numpy as np

TOLERANCE = 1e-6
GOLDEN = np.uint64(0x9E3779B97F4A7C15)


def splitmix64(seed, count, start=0):
    """Draws start .. start + count - 1 of splitmix64(seed): draw i mixes the state seed + (i + 1) * golden."""
    with np.errstate(over="ignore"):
        z = np.uint64(seed) + np.arange(start + 1, start + count + 1, dtype=np.uint64) * GOLDEN
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        return z ^ (z >> np.uint64(31))


def normals(seed, count):
    """The first count normals of the stream: pairs (z0, z1) from uniforms u1, u2 (u1 = 0 taken as 2^-53)."""
    pairs = (count + 1) // 2
    u = (splitmix64(seed, 2 * pairs) >> np.uint64(11)).astype(np.float64) * 2.0**-53
    u1, u2 = u[0::2], u[1::2]
    u1 = np.where(u1 == 0, 2.0**-53, u1)
    r = np.sqrt(-2 * np.log(u1))
    z = np.empty(2 * pairs)
    z[0::2] = r * np.cos(2 * np.pi * u2)
    z[1::2] = r * np.sin(2 * np.pi * u2)
    return z[:count]


# [SECTION] the three figures, from their definitions


def rnn_limits(request):
    x = np.array(request["x"], dtype=np.float64)
    n, d = x.shape
    hidden, seed, gain = request.get("hidden", 8), request.get("seed", 1), request.get("gain", 0.9)
    z = normals(seed, d * hidden + hidden * hidden)
    w_x = z[: d * hidden].reshape(d, hidden) * gain / math.sqrt(d)
    w_h = z[d * hidden :].reshape(hidden, hidden) * gain / math.sqrt(hidden)
    # forward mode: T[s] = dh_t/dx_s (hidden x d) carried along t for every s at once
    h = np.zeros(hidden)
    tangents = np.zeros((n, hidden, d))
    for t in range(n):
        h = np.tanh(x[t] @ w_x + h @ w_h)
        carried = np.einsum("mk,smc->skc", w_h, tangents)  # d(h_{t-1} W_h)/dx_s
        carried[t] += w_x.T  # d(x_t W_x)/dx_t
        tangents = (1 - h * h)[None, :, None] * carried
    influence_rnn = [float(np.linalg.norm(tangents[s])) for s in range(n)]
    # self-attention's last row, Q = K = V = x, scaled by 1/sqrt(d)
    q = n - 1
    s = x @ x[q] / math.sqrt(d)
    a = np.exp(s - s.max())
    a /= a.sum()
    softmax_jacobian = np.diag(a) - np.outer(a, a)  # da/ds
    influence_attention = []
    for t in range(n):
        ds = np.zeros((n, d))  # ds_k/dx_t[b]
        ds[t] += x[q] / math.sqrt(d)
        if t == q:
            ds += x / math.sqrt(d)
        da = softmax_jacobian @ ds  # (n, d): da_j/dx_t[b]
        jac = x.T @ da  # (d, d): sum_j x_j[a] da_j/dx_t[b]
        jac += a[t] * np.eye(d)
        influence_attention.append(float(np.linalg.norm(jac)))
    return {
        "influence_rnn": influence_rnn,
        "influence_attention": influence_attention,
        "distance": [n - 1 - t for t in range(n)],
        "steps": {"rnn": n, "attention": 1},
        "n": n,
        "d": d,
        "hidden": hidden,
        "seed": seed,
        "gain": gain,
    }


def why_sqrt_dk(request):
    d_ks = request.get("d_k", [4, 8, 16, 32, 64, 128, 256, 512])
    n_keys, trials, seed = request.get("n_keys", 16), request.get("trials", 200), request.get("seed", 1)
    stream = normals(seed, trials * (n_keys + 1) * sum(d_ks))
    out = {"unscaled": {"max_weight": [], "grad_norm": [], "score_std": []}}
    out["scaled"] = {key: [] for key in out["unscaled"]}
    at = 0
    for d_k in d_ks:
        block = stream[at : at + trials * (n_keys + 1) * d_k].reshape(trials, n_keys + 1, d_k)
        at += block.size
        q, k = block[:, 0, :], block[:, 1:, :]
        scores = np.einsum("tc,tjc->tj", q, k)
        for which, s in (("unscaled", scores), ("scaled", scores / math.sqrt(d_k))):
            a = np.exp(s - s.max(axis=1, keepdims=True))
            a /= a.sum(axis=1, keepdims=True)
            jac = a[:, :, None] * np.eye(n_keys)[None] - a[:, :, None] * a[:, None, :]
            out[which]["max_weight"].append(float(a.max(axis=1).mean()))
            out[which]["grad_norm"].append(float(np.sqrt((jac * jac).sum(axis=(1, 2))).mean()))
            out[which]["score_std"].append(float(s.std(axis=1).mean()))
    return {"d_k": d_ks, "unscaled": out["unscaled"], "scaled": out["scaled"], "n_keys": n_keys, "trials": trials, "seed": seed}


def table_counts(request):
    ns, d, kernel = request.get("n", [8, 16, 32, 64, 128, 256]), request.get("d", 32), request.get("kernel", 3)
    rows = []
    for n in ns:
        layers = math.ceil((n - 1) / (kernel - 1))
        rows.append({
            "n": n,
            "path_length": {"rnn": n - 1, "cnn": layers, "attention": 1},
            "sequential_steps": {"rnn": n, "cnn": layers, "attention": 1},
            "multiply_adds": {"rnn": n * (d * d + d * d), "cnn": n * kernel * d * d, "attention": 2 * n * n * d},
            "memory_floats": {"rnn": d, "cnn": n * d, "attention": n * n},
        })
    return {"n": ns, "d": d, "kernel": kernel, "rows": rows}


# [SECTION] comparing


def run(attn, name, request):
    done = subprocess.run([attn, "figure", name, "-"], input=json.dumps(request).encode(), capture_output=True)
    if done.returncode != 0:
        raise SystemExit(f"attn figure {name} exited {done.returncode}: {done.stderr.decode()}")
    return json.loads(done.stdout)


def compare(ours, theirs, where, problems):
    """Every number within TOLERANCE relative (integers exactly), every key and length the same."""
    if isinstance(theirs, dict):
        if list(ours) != list(theirs):
            problems.append(f"{where}: fields {list(ours)} vs {list(theirs)}")
            return
        for key in theirs:
            compare(ours[key], theirs[key], f"{where}.{key}", problems)
    elif isinstance(theirs, list):
        if len(ours) != len(theirs):
            problems.append(f"{where}: {len(ours)} entries vs {len(theirs)}")
            return
        worst, first = 0.0, None
        for i, (a, b) in enumerate(zip(ours, theirs)):
            if isinstance(b, (dict, list)):
                compare(a, b, f"{where}[{i}]", problems)
                continue
            diff = abs(a - b) / max(abs(b), 1e-300)
            worst = max(worst, diff)
            if diff > TOLERANCE and first is None:
                first = (i, a, b)
        if first:
            problems.append(f"{where}[{first[0]}]: core {first[1]!r} vs numpy {first[2]!r}; largest relative difference {worst:.3g}")
    elif isinstance(theirs, float):
        if abs(ours - theirs) > TOLERANCE * abs(theirs):
            problems.append(f"{where}: core {ours!r} vs numpy {theirs!r}")
    elif ours != theirs:
        problems.append(f"{where}: core {ours!r} vs numpy {theirs!r}")


def main():
    attn = sys.argv[1]
    problems = []
    rng = np.random.default_rng(2024)
    rnn_requests = [{"x": np.round(rng.normal(size=(12, 4)), 4).tolist()}]
    for n, d, hidden, gain in [(2, 1, 1, 0.5), (7, 3, 5, 1.4), (64, 8, 64, 0.9), (30, 64, 3, 4.0), (40, 2, 16, 16)]:
        rnn_requests.append({"x": rng.normal(size=(n, d)).tolist(), "hidden": hidden, "seed": int(rng.integers(0, 2**31)), "gain": gain})
    for request in rnn_requests:
        compare(run(attn, "rnn-limits", request), rnn_limits(request), f"rnn-limits {np.shape(request['x'])}", problems)
    # odd sizes: a normal left over carries from one trial, and one d_k, to the next
    for request in [{}, {"d_k": [1, 3, 1024, 7], "n_keys": 5, "trials": 13, "seed": 0},
                    {"d_k": [9], "n_keys": 256, "trials": 10, "seed": 2147483647}]:
        compare(run(attn, "why-sqrt-dk", request), why_sqrt_dk(request), f"why-sqrt-dk {json.dumps(request)}", problems)
    for request in [{}, {"n": [2, 3, 1024], "d": 1, "kernel": 9}, {"n": [100, 5], "d": 17, "kernel": 5}]:
        ours = run(attn, "cnn-rnn-attention", request)
        for row in ours["rows"]:
            times = row.pop("microseconds")
            if sorted(times) != ["attention", "cnn", "rnn"] or not all(math.isfinite(t) and t > 0 for t in times.values()):
                problems.append(f"cnn-rnn-attention {json.dumps(request)} n={row['n']}: microseconds {times}")
        compare(ours, table_counts(request), f"cnn-rnn-attention {json.dumps(request)}", problems)
    # the generator's first draws, as docs/figures.md pins them
    first = [int(v) for v in splitmix64(1234567, 3)]
    if first != [6457827717110365317, 3203168211198807973, 9817491932198370423]:
        problems.append(f"numpy's splitmix64(1234567) starts {first}: the oracle itself is wrong")
    # refusals: exit 2, one sentence on stderr, nothing on stdout
    for name, request in [("why-sqrt-dk", {"d_k": [0]}), ("rnn-limits", {}), ("cnn-rnn-attention", {"kernel": 6}), ("nope", {})]:
        done = subprocess.run([attn, "figure", name, "-"], input=json.dumps(request).encode(), capture_output=True)
        said = done.stderr.decode()
        if done.returncode != 2 or done.stdout or said.count("\n") != 1 or not said.startswith("attn: "):
            problems.append(f"attn figure {name} {json.dumps(request)}: exit {done.returncode}, stdout {done.stdout[:80]!r}, stderr {said!r}")
    for problem in problems:
        print("FAIL", problem)
    if problems:
        return 1
    print(f"figures: {len(rnn_requests)} rnn-limits, 3 why-sqrt-dk and 3 cnn-rnn-attention requests agree with numpy within {TOLERANCE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
