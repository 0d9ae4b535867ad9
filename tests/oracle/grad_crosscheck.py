"""Cross-check of the gradients: `attn grad` against central differences of the numpy oracle's loss.

usage: /usr/bin/python3 grad_crosscheck.py path/to/attn [--specs N] [--seed S]

The numpy oracle (attention_numpy.py, float64, written from the articles' code and not from the core)
computes the forward pass; here the loss of docs/spec.md ("mse" against a target, or "cross_entropy"
against labels) is taken on its last stage and differentiated numerically in every parameter the
spec has (W and b of every projection, the additive and bilinear score parameters, the learned
positional table) and in x and memory. Random specs of crosscheck.py's kinds (every score, every
mask, heads, cross-attention, PE), kept small so that every value can be nudged. Fails (exit 1)
when a gradient differs by more than 2e-4 + 1e-3·|numeric|.
"""
import argparse
import copy
import json
import os
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from attention_numpy import trace as oracle_trace  # noqa: E402
from crosscheck import coverage, random_spec  # noqa: E402

STEP = 1e-6


def loss(spec):
    t = oracle_trace(spec)
    y = t["output"] if "output" in t else t["concat"]
    if spec.get("loss", "mse") == "mse":
        return float(np.mean((y - np.asarray(spec["target"], dtype=np.float64)) ** 2))
    z = y - y.max(axis=1, keepdims=True)
    log_softmax = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
    return float(-np.mean(log_softmax[np.arange(len(y)), spec["labels"]]))


def parameters(spec):
    """(name, path into the spec) of every value the gradient covers, as `attn grad` names them."""
    out = [("x", ("x",))]
    if "memory" in spec:
        out.append(("memory", ("memory",)))
    for name in spec.get("weights", {}):
        out.append((name, ("weights", name)))
    if spec.get("score") == "additive":
        out += [(f"additive.{p}", ("additive", p)) for p in ("w1", "w2", "v")]
    if spec.get("score") == "bilinear":
        out.append(("bilinear.w", ("bilinear", "w")))
    if isinstance(spec.get("positional"), dict):
        out.append(("learned", ("positional", "learned")))
    return out


def get(tree, path):
    for key in path:
        tree = tree[key]
    return tree


def grad_of(grads, name):
    if "." in name:
        outer, inner = name.split(".")
        return grads[outer][inner]
    return grads[name]


def numeric(spec, path):
    """Central differences of the oracle's loss in every element of the array at path."""
    values = np.asarray(get(spec, path), dtype=np.float64)
    out = np.zeros_like(values)
    for index in np.ndindex(values.shape):
        nudged = []
        for sign in (1, -1):
            s = copy.deepcopy(spec)
            v = np.asarray(get(s, path), dtype=np.float64)
            v[index] += sign * STEP
            parent = get(s, path[:-1])
            parent[path[-1]] = v.tolist()
            nudged.append(loss(s))
        out[index] = (nudged[0] - nudged[1]) / (2 * STEP)
    return out


def small_specs(rng, count):
    """crosscheck.py's random specs, kept to d ≤ 8 and n ≤ 6, each with a loss."""
    specs, i = [], 0
    while len(specs) < count:
        spec = random_spec(rng, i)
        i += 1
        n_q, d = np.asarray(spec["x"]).shape
        n_k = len(spec.get("memory", spec["x"]))
        if d > 8 or n_q > 6 or n_k > 6:
            continue
        last = d  # every last stage is n_q × d_model
        if len(specs) % 2:
            spec["loss"] = "cross_entropy"
            spec["labels"] = [int(v) for v in rng.integers(0, last, size=n_q)]
        else:
            spec["target"] = np.round(rng.uniform(-1, 1, size=(n_q, last)), 3).tolist()
        specs.append(spec)
    return specs


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("attn")
    ap.add_argument("--specs", type=int, default=64)
    ap.add_argument("--seed", type=int, default=20261130)
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)
    checked = failed = 0
    worst = 0.0
    seen = {"score": set(), "mask": set(), "loss": set(), "cross": set(), "pe": set()}
    for k, spec in enumerate(small_specs(rng, args.specs)):
        seen["score"].add(spec["score"])
        seen["mask"].add(json.dumps(spec.get("mask", "none"))[:8])
        seen["loss"].add(spec.get("loss", "mse"))
        seen["cross"].add("memory" in spec)
        seen["pe"].add(json.dumps(spec.get("positional", "none"))[:8])
        done = subprocess.run([args.attn, "grad", "-"], input=json.dumps(spec).encode(), capture_output=True, timeout=60)
        if done.returncode != 0:
            failed += 1
            print(f"FAIL spec {k}: attn grad exited {done.returncode}: {done.stderr.decode().strip()}", file=sys.stderr)
            continue
        got = json.loads(done.stdout)
        if abs(got["loss"] - loss(spec)) > 1e-5 * max(1.0, abs(loss(spec))):
            failed += 1
            print(f"FAIL spec {k}: loss {got['loss']} vs numpy {loss(spec)}", file=sys.stderr)
        for name, path in parameters(spec):
            analytic = np.asarray(grad_of(got["grads"], name), dtype=np.float64)
            expected = numeric(spec, path)
            if analytic.shape != expected.shape:
                failed += 1
                print(f"FAIL spec {k}: {name} has shape {analytic.shape}, expected {expected.shape}", file=sys.stderr)
                continue
            diff = np.abs(analytic - expected)
            worst = max(worst, float(diff.max(initial=0.0)))
            bad = diff > 2e-4 + 1e-3 * np.abs(expected)
            checked += expected.size
            if bad.any():
                failed += 1
                at = tuple(int(v) for v in np.argwhere(bad)[0])
                print(f"FAIL spec {k}: d loss / d {name}{list(at)} = {analytic[at]} (attn) vs {expected[at]} (numpy)\n"
                      f"  spec: {json.dumps(spec)[:1500]}", file=sys.stderr)
    covered, missed = coverage(seen, {"score": 4, "mask": 4, "loss": 2, "cross": 2, "pe": 3})
    print(f"grad crosscheck: {args.specs} random specs, {checked} gradients against numpy central differences, "
          f"max |attn - numpy| = {worst:.3g}; {covered}")
    if args.specs >= 32 and missed:
        print("grad crosscheck: the random specs did not cover every case", file=sys.stderr)
        failed += 1
    print(f"{'passed' if not failed else f'{failed} failures'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
