"""Cross-check: random specs through `attn trace` and through the numpy oracle, every stage compared.

usage: /usr/bin/python3 crosscheck.py path/to/attn [--specs N] [--seed S] [--keep DIR]

Covers all four score functions, every mask kind, heads 1-8, self- and cross-attention,
with and without positional encoding (sinusoidal and learned), with and without each
projection and bias. Fails (exit 1) when any stage differs by more than 1e-5, printing
the spec, the stage, the first differing value and the largest difference.
"""
import argparse
import json
import os
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from attention_numpy import trace as oracle_trace  # noqa: E402

TOLERANCE = 1e-5


def rounded(rng, shape, scale=1.0):
    return np.round(rng.uniform(-scale, scale, size=shape), 3).tolist()


def random_spec(rng, i):
    heads = int(rng.integers(1, 9))
    d_h = int(rng.integers(1, 5))
    d = heads * d_h
    n_q = int(rng.integers(1, 10))
    cross = bool(rng.integers(0, 2))
    n_k = int(rng.integers(1, 10)) if cross else n_q
    spec = {"x": rounded(rng, (n_q, d))}
    if cross:
        spec["memory"] = rounded(rng, (n_k, d))
    weights = {}
    for p in "qkvo":
        if rng.random() < 0.7:
            weights["w" + p] = rounded(rng, (d, d), 1.5 / np.sqrt(d))
        if rng.random() < 0.4 and (p != "o" or "wo" in weights):
            weights["b" + p] = rounded(rng, (d,), 0.5)
    if weights:
        spec["weights"] = weights
    # cycle through the four scores so each gets a quarter of the specs
    score = ["dot", "scaled_dot", "additive", "bilinear"][i % 4]
    spec["score"] = score
    if score == "additive":  # parameters only with the score that uses them (the core refuses others)
        d_a = int(rng.integers(1, 6))
        spec["additive"] = {"w1": rounded(rng, (d_h, d_a)), "w2": rounded(rng, (d_h, d_a)), "v": rounded(rng, (d_a,))}
    if score == "bilinear":
        spec["bilinear"] = {"w": rounded(rng, (d_h, d_h), 1.0 / np.sqrt(d_h))}
    spec["heads"] = heads
    mask = (i // 4) % 4
    if mask == 1:
        spec["mask"] = "causal"
    elif mask == 2:
        spec["mask"] = {"window": int(rng.integers(1, 4))}
    elif mask == 3:
        spec["mask"] = {"matrix": rng.integers(0, 2, size=(n_q, n_k)).tolist()}
    if mask and rng.random() < 0.5:
        # -1.0 sits among the kept scores: a masked key must still never win against one below it
        spec["mask_value"] = float(rng.choice([-1e9, -1e4, -30.0, -1.0]))
    pe = (i // 16) % 3
    if pe == 1:
        spec["positional"] = "sinusoidal"
    elif pe == 2:
        spec["positional"] = {"learned": rounded(rng, (max(n_q, n_k) + int(rng.integers(0, 3)), d))}
    return spec


def run_attn(attn, spec):
    done = subprocess.run([attn, "trace", "-"], input=json.dumps(spec).encode(), capture_output=True, timeout=60)
    if done.returncode != 0:
        raise AssertionError(f"attn trace exited {done.returncode}: {done.stderr.decode().strip()}")
    return json.loads(done.stdout)


def registry_order(attn):
    """The stage ids in trace order, as the core's registry has them (`attn stages`)."""
    return [s["id"] for s in json.loads(subprocess.run([attn, "stages"], capture_output=True, check=True).stdout)]


def compare(spec, got, order):
    """Returns (stages compared, largest difference); raises AssertionError with the details on a mismatch."""
    want = oracle_trace(spec)
    ids = [s["id"] for s in got["stages"]]
    expected_ids = [s for s in order if s in want]
    if ids != expected_ids:
        raise AssertionError(f"stages {ids} but the oracle has {expected_ids}")
    worst = 0.0
    for stage in got["stages"]:
        ref = want[stage["id"]]
        if list(ref.shape) != stage["shape"]:
            raise AssertionError(f"stage {stage['id']}: shape {stage['shape']} but the oracle has {list(ref.shape)}")
        data = np.asarray(stage["data"], dtype=np.float64)
        diff = np.abs(data - ref.reshape(-1))
        worst = max(worst, float(diff.max()))
        if not np.all(diff <= TOLERANCE):
            k = int(np.argmax(diff > TOLERANCE))
            raise AssertionError(
                f"stage {stage['id']}: first difference at [{k}]: attn {data[k]!r} vs numpy {ref.reshape(-1)[k]!r}; "
                f"max |diff| {diff.max():.3g} at [{int(np.argmax(diff))}] (tolerance {TOLERANCE})")
    return len(ids), worst


COVERAGE_WORDS = {"score": "scores", "mask": "mask kinds", "heads": "head counts", "loss": "losses",
                  "cross": "of self/cross", "pe": "positional kinds"}


def coverage(seen, expected):
    """("covered 4 scores, …", missed): how many of each kind the random specs met (seen: kind -> set),
    and whether any kind fell short of its count in expected (kind -> count, in the order to print)."""
    counts = {kind: len(seen[kind]) for kind in expected}
    words = ", ".join(f"{counts[kind]} {COVERAGE_WORDS[kind]}" for kind in expected)
    return f"covered {words}", counts != expected


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("attn")
    ap.add_argument("--specs", type=int, default=240)
    ap.add_argument("--seed", type=int, default=20261129)
    ap.add_argument("--keep", help="write each spec here, for a failure to be replayed")
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)
    order = registry_order(args.attn)
    stages = failed = 0
    worst = 0.0
    seen = {"score": set(), "mask": set(), "heads": set(), "cross": set(), "pe": set()}
    for i in range(args.specs):
        spec = random_spec(rng, i)
        seen["score"].add(spec["score"])
        seen["mask"].add(json.dumps(spec.get("mask", "none"))[:8])
        seen["heads"].add(spec["heads"])
        seen["cross"].add("memory" in spec)
        seen["pe"].add(json.dumps(spec.get("positional", "none"))[:8])
        if args.keep:
            os.makedirs(args.keep, exist_ok=True)
            with open(os.path.join(args.keep, f"spec{i:04d}.json"), "w") as f:
                json.dump(spec, f)
        try:
            n, w = compare(spec, run_attn(args.attn, spec), order)
            stages += n
            worst = max(worst, w)
        except AssertionError as e:
            failed += 1
            if failed <= 5:
                print(f"FAIL spec {i}: {e}\n  spec: {json.dumps(spec)[:2000]}", file=sys.stderr)
    covered, missed = coverage(seen, {"score": 4, "mask": 4, "heads": 8, "cross": 2, "pe": 3})
    print(f"crosscheck: {args.specs} random specs, {stages} stages compared, max |attn - numpy| = {worst:.3g}; {covered}")
    if missed and args.specs >= 200:
        print("crosscheck: the random specs did not cover every case", file=sys.stderr)
        failed += 1
    print(f"{args.specs - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
