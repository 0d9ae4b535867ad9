"""Cross-check of the vision blocks: random specs (every block, odd and even sizes, ECA's k and
CBAM's K from 1 to 7, CA with and without BatchNorm, biases given or not) and the four worked
examples, through `attn trace` and through the numpy oracle (vision_numpy.py); every stage compared.

usage: /usr/bin/python3 vision_crosscheck.py path/to/attn [--specs N] [--seed S]
Fails (exit 1) when a stage differs by more than 1e-5 (relative for values above 1).
"""
import argparse
import json
import os
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from vision_numpy import trace as oracle_trace  # noqa: E402

TOLERANCE = 1e-5


def rounded(rng, shape, scale=1.0):
    return np.round(rng.uniform(-scale, scale, size=shape), 3).tolist()


def dense_params(rng, spec_part, w, b, rows, cols):
    spec_part[w] = rounded(rng, (rows, cols))
    if rng.random() < 0.6:
        spec_part[b] = rounded(rng, (cols,))


def random_spec(rng):
    c, h, w, m = (int(rng.integers(1, 10)) for _ in range(4))
    block = ["se", "eca", "cbam", "ca"][int(rng.integers(0, 4))]
    spec = {"kind": "vision", "block": block, "feature": rounded(rng, (c, h, w), 2.0)}
    p = {}
    if block in ("se", "cbam"):
        dense_params(rng, p, "w1", "b1", c, m)
        dense_params(rng, p, "w2", "b2", m, c)
    if block == "eca":
        p["w"] = rounded(rng, (int(rng.choice([1, 3, 5, 7])),))
    if block == "cbam":
        k = int(rng.choice([1, 3, 5, 7]))
        p["spatial"] = rounded(rng, (2, k, k))
        if rng.random() < 0.5:
            p["spatial_bias"] = round(float(rng.uniform(-1, 1)), 3)
    if block == "ca":
        dense_params(rng, p, "w1", "b1", c, m)
        dense_params(rng, p, "wh", "bh", m, c)
        dense_params(rng, p, "ww", "bw", m, c)
        if rng.random() < 0.5:
            p["bn"] = {"gamma": rounded(rng, (m,)), "beta": rounded(rng, (m,)), "mean": rounded(rng, (m,)),
                       "var": np.round(rng.uniform(0.1, 2, size=m), 3).tolist()}
    spec[block] = p
    return spec


def compare(name, spec, got):
    want = oracle_trace(spec)
    ids = [s["id"] for s in got["stages"]]
    if ids != list(want):
        return f"{name}: stages {ids}, oracle {list(want)}"
    for s in got["stages"]:
        a = np.asarray(s["data"], dtype=np.float64).reshape(s["shape"])
        b = want[s["id"]]
        if a.shape != b.shape:
            return f"{name}: stage {s['id']} has shape {a.shape}, oracle {b.shape}"
        diff = np.abs(a - b) / np.maximum(1.0, np.abs(b))
        if diff.max() > TOLERANCE:
            k = int(diff.argmax())
            return f"{name}: stage {s['id']} differs by {diff.max():.3g} at {np.unravel_index(k, a.shape)}: {a.flat[k]} vs {b.flat[k]}\n{json.dumps(spec)}"
    return None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("attn")
    parser.add_argument("--specs", type=int, default=200)
    parser.add_argument("--seed", type=int, default=2)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    failures, compared, by_block = [], 0, {}
    for i in range(args.specs):
        spec = random_spec(rng)
        run = subprocess.run([args.attn, "trace", "-"], input=json.dumps(spec).encode(), capture_output=True)
        if run.returncode != 0:
            failures.append(f"spec {i}: attn refused it: {run.stderr.decode()}")
            continue
        problem = compare(f"spec {i} ({spec['block']})", spec, json.loads(run.stdout))
        if problem:
            failures.append(problem)
        compared += 1
        by_block[spec["block"]] = by_block.get(spec["block"], 0) + 1
    for example in ["se-block", "eca-block", "cbam-block", "coordinate-attention"]:
        got = json.loads(subprocess.run([args.attn, "example", example, "--json"], capture_output=True, check=True).stdout)
        problem = compare(example, got["spec"], got)
        if problem:
            failures.append(problem)
        compared += 1
    for f in failures[:5]:
        print(f)
    print(f"vision cross-check: {compared} specs ({', '.join(f'{k} {v}' for k, v in sorted(by_block.items()))} and the 4 examples), "
          f"{len(failures)} failing")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
