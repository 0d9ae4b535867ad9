"""The attn CLI as a user meets it: good commands print, bad input gets one sentence on
stderr, exit code 2 and nothing on stdout, never an abort.

usage: /usr/bin/python3 test_cli.py path/to/attn
"""
import json
import re
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
import unittest

ATTN = None


def attn(*args, stdin=None):
    return subprocess.run([ATTN, *args], input=stdin.encode() if isinstance(stdin, str) else stdin,
                          capture_output=True, timeout=120)


class Refusals(unittest.TestCase):
    def refused(self, spec_text, names, args=("trace", "-")):
        done = attn(*args, stdin=spec_text)
        err = done.stderr.decode()
        self.assertEqual(done.returncode, 2, f"exit code for {spec_text[:80]!r}: stderr {err!r}")
        self.assertEqual(done.stdout, b"", "nothing on stdout when refusing")
        self.assertTrue(err.startswith("attn: "), err)
        self.assertIn(names, err)
        return err

    def test_vision_spec_errors(self):
        cases = {
            "even ECA kernel": ('{"kind": "vision", "block": "eca", "feature": [[[1]]], "eca": {"w": [1, 2]}}', "eca.w is 2 wide: the kernel size must be odd"),
            "negative variance": ('{"kind": "vision", "block": "ca", "feature": [[[1]]], "ca": {"w1": [[1]], "wh": [[1]], "ww": [[1]], '
                                  '"bn": {"gamma": [1], "beta": [0], "mean": [0], "var": [-2]}}}', "ca.bn.var[0] is −2: a variance cannot be negative"),
            "another block's field": ('{"kind": "vision", "block": "se", "feature": [[[1]]], "se": {"w1": [[1]], "w2": [[1]]}, "cbam": {}}',
                                      'cbam belongs to block "cbam", but block is "se"'),
            "a sequence field": ('{"kind": "vision", "block": "eca", "feature": [[[1]]], "eca": {"w": [1]}, "x": [[1]]}', "x belongs to the sequence spec"),
            "vision field without kind": ('{"x": [[1]], "block": "se"}', 'block belongs to a vision spec: add "kind": "vision"'),
            "wrong shape": ('{"kind": "vision", "block": "se", "feature": [[[1]], [[2]]], "se": {"w1": [[1, 1]], "w2": [[1, 1]]}}', "se.w1 has 1 row but needs 2"),
        }
        for name, (text, says) in cases.items():
            with self.subTest(name):
                self.refused(text, says)
        self.refused('{"kind": "vision", "block": "eca", "feature": [[[1]]], "eca": {"w": [1, 2]}}', "eca.w is 2 wide", args=("explain", "-", "gate"))

    def test_spec_errors(self):
        cases = {
            "ragged rows": ('{"x": [[1, 2], [3]]}', "row 2 of x has 1 values but row 1 has 2"),
            "shape mismatch": ('{"x": [[1, 2]], "weights": {"wq": [[1, 2, 3]]}}', "weights.wq is 1 × 3 but must be 2 × 2"),
            "memory mismatch": ('{"x": [[1, 2]], "memory": [[1]]}', "memory rows have 1 values"),
            "NaN": ('{"x": [[NaN, 1]]}', "not valid JSON"),
            "Infinity": ('{"x": [[Infinity]]}', "not valid JSON"),
            "overflows float": ('{"x": [[1e39]]}', "x[0][0] (row 1, column 1) is 1e+39, outside the float range"),
            "overflows double": ('{"x": [[-1e400]]}', "number overflow"),
            "empty x": ('{"x": []}', "x is empty"),
            "no x": ('{}', 'no "x"'),
            "heads do not divide": ('{"x": [[1, 2, 3]], "heads": 2}', "not divisible"),
            "heads zero": ('{"x": [[1, 2]], "heads": 0}', "heads is 0; at least 1."),
            "heads negative": ('{"x": [[1, 2]], "heads": -1}', "heads is -1"),
            "unknown score": ('{"x": [[1, 2]], "score": "cosine"}', 'score "cosine" is unknown'),
            "unknown mask": ('{"x": [[1, 2]], "mask": "diagonal"}', 'mask "diagonal" is unknown'),
            "window below 1": ('{"x": [[1, 2]], "mask": {"window": 0}}', "mask.window is 0; at least 1."),
            "not JSON": ('x = [[1]]', "not valid JSON"),
            "empty input": ('', "not valid JSON"),
            "additive without params": ('{"x": [[1, 2]], "score": "additive"}', "additive.w1 is missing"),
        }
        for what, (text, names) in cases.items():
            with self.subTest(what):
                err = self.refused(text, names)
                self.assertEqual(err.count("\n"), 1, f"one sentence, one line: {err!r}")

    def test_too_large_is_refused_before_allocating(self):
        # 4097 positions: over the documented limit of 4096
        rows = json.dumps({"x": [[0.5]] * 4097})
        self.refused(rows, "x has more than 4096 entries, over the limit of 4096 (positions, rows or columns).")
        # 2048 positions × 8 heads: 5 stages × 8 × 2048² floats = 640 MiB, over the 64 MiB limit
        before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        self.refused(json.dumps({"x": [[0.1] * 8] * 2048, "heads": 8}), "over the limit of 64 MiB")
        peak_kib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        self.assertLess(max(before, peak_kib), 200 * 1024, "the refusal must come before the n² stages are allocated")

    def test_usage_errors(self):
        for args, names in [((), "usage"), (("frobnicate",), 'unknown command "frobnicate"'),
                            (("trace",), "trace takes one argument"),
                            (("trace", "/nonexistent/spec.json"), 'cannot read the spec file "/nonexistent/spec.json"'),
                            (("example",), "example needs an id"),
                            (("example", "nope"), 'example "nope" is unknown'),
                            (("example", "bank", "--variant", "sea"), 'no variant "sea"'),
                            (("example", "bank", "--lang", "fr"), "--lang must be en or zh"),
                            (("bench", "--n", "0"), "--n takes sizes"),
                            (("bench", "--d", ""), "--d takes sizes from 1 to"),  # aborted (std::out_of_range) before
                            (("bench", "--n", ","), "--n takes sizes")]:
            with self.subTest(args=args):
                done = attn(*args)
                self.assertEqual(done.returncode, 2, done.stderr)
                self.assertEqual(done.stdout, b"")
                self.assertIn(names, done.stderr.decode())


class Largest(unittest.TestCase):
    """The largest specs the documented limits accept finish in bounded time and memory, their
    JSON output included (docs/limits.md: seconds and well under 512 MiB on a 2-core machine)."""

    def run_measured(self, spec_text):
        with tempfile.TemporaryFile() as out:
            started = time.monotonic()
            child = subprocess.Popen([ATTN, "trace", "-"], stdin=subprocess.PIPE, stdout=out, stderr=subprocess.PIPE)
            child.stdin.write(spec_text.encode())
            child.stdin.close()
            _, status, usage = os.wait4(child.pid, 0)  # this child's own peak memory, not all children's
            seconds = time.monotonic() - started
            child.returncode = os.waitstatus_to_exitcode(status)
            err = child.stderr.read()
            child.stderr.close()
            out.seek(0, os.SEEK_END)
            return child.returncode, seconds, usage.ru_maxrss / 1024, out.tell(), err

    def test_largest_accepted_specs(self):
        rng = random.Random(15)
        value = lambda: round(rng.uniform(-1, 1), 3)
        cases = {
            # 9·n·d + 5·n² floats just under the 64 MiB trace budget
            "trace budget (n 1800, d 1)": {"x": [[value()] for _ in range(1800)]},
            # 2^21 values at most: x 700 × 1024 and a 1024 × 1024 W_q, 1.7e9 multiply-adds
            "values and work (700 × 1024, wq)": {"x": [[value() for _ in range(1024)] for _ in range(700)],
                                                 "weights": {"wq": [[round(value() / 32, 4) for _ in range(1024)] for _ in range(1024)]}},
            # 180² · 1024 tanh, just under the 2^25 budget
            "tanh budget (n 180, d_a 1024)": {"x": [[value()] for _ in range(180)], "score": "additive",
                                              "additive": {"w1": [[value() for _ in range(1024)]],
                                                           "w2": [[value() for _ in range(1024)]],
                                                           "v": [value() for _ in range(1024)]}},
        }
        for what, spec in cases.items():
            with self.subTest(what):
                code, seconds, peak_mib, out_bytes, err = self.run_measured(json.dumps(spec))
                print(f"\n  {what}: {seconds:.2f} s, peak {peak_mib:.0f} MiB, {out_bytes / 2**20:.0f} MiB of JSON", end="")
                self.assertEqual(code, 0, err)
                self.assertLess(peak_mib, 512)
                self.assertLess(seconds, 30, "a hang, not a speed goal: the benchmark measures speed")


class Commands(unittest.TestCase):
    def test_trace_from_file_and_stdin(self):
        spec = {"x": [[1, 0, 1, 0], [0, 1, 0, 1], [1, 1, 0, 0]]}
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
            json.dump(spec, f)
        try:
            from_file = attn("trace", f.name)
        finally:
            os.unlink(f.name)
        from_stdin = attn("trace", "-", stdin=json.dumps(spec))
        self.assertEqual(from_file.returncode, 0, from_file.stderr)
        self.assertEqual(from_file.stdout, from_stdin.stdout)
        trace = json.loads(from_file.stdout)
        weights = next(s for s in trace["stages"] if s["id"] == "weights")
        self.assertEqual(weights["shape"], [1, 3, 3])
        self.assertEqual([round(w, 4) for w in weights["data"][:3]], [0.5065, 0.1863, 0.3072])
        self.assertEqual(trace["spec"]["score"], "scaled_dot")

    def test_examples_list(self):
        ids = attn("examples").stdout.decode().splitlines()
        titled = attn("examples", "--long").stdout.decode().splitlines()
        self.assertTrue(titled[2].startswith("translation  Cross-attention in translation"))
        self.assertEqual([line.split()[0] for line in titled], ids)
        self.assertEqual(ids, ["numpy-3x4", "basic-attention", "translation", "long-range", "bank", "coreference",
                               "context-window", "score-functions", "multi-head", "masking", "positional-encoding", "complexity", "online-softmax",
                               "se-block", "eca-block", "cbam-block", "coordinate-attention"])

    def test_example_table_and_json(self):
        table = attn("example", "translation").stdout.decode()
        self.assertIn("== weights", table)
        self.assertIn("猫", table)
        self.assertIn("0.8874", table)  # 猫 → cat
        zh = attn("example", "bank", "--variant", "finance", "--lang", "zh").stdout.decode()
        self.assertIn("注意力权重", zh)
        self.assertIn("存款", zh)
        j = json.loads(attn("example", "numpy-3x4", "--json").stdout)
        self.assertEqual(j["example"]["id"], "numpy-3x4")
        self.assertIn("zh", j["example"]["summary"])
        self.assertEqual([s["id"] for s in j["stages"]][:4], ["x", "q", "k", "v"])

    def test_vision_trace_example_and_explain(self):
        spec = '{"kind": "vision", "block": "eca", "feature": [[[1]], [[2]], [[3]]], "eca": {"w": [1, 10, 100]}}'
        t = json.loads(attn("trace", "-", stdin=spec).stdout)
        self.assertEqual(t["kind"], "vision")
        self.assertEqual([s["id"] for s in t["stages"]], ["feature", "pool_avg", "conv1d", "gate", "output"])
        self.assertEqual(next(s for s in t["stages"] if s["id"] == "conv1d")["data"], [210, 321, 32])
        lines = [json.loads(l) for l in attn("explain", "-", "conv1d", stdin=spec).stdout.decode().splitlines()]
        self.assertEqual(lines[0], {"index": 0, "text": "a[1] = Σ_t w_t·z[c+t] = 1×0 + 10×1 + 100×2 = 210"})
        table = attn("example", "se-block").stdout.decode()
        self.assertIn("== gate: Channel gate", table)
        self.assertIn("cat shape", table)
        j = json.loads(attn("example", "coordinate-attention", "--json").stdout)
        self.assertEqual(j["example"]["id"], "coordinate-attention")
        self.assertIn("bn", [s["id"] for s in j["stages"]])

    def test_work_bounds_and_small_refusals(self):
        """Issue 24, round 3: grad, train and explain refuse work past their limits in under a second, before
        computing; task ids, folders and NUL bytes get their own sentences."""
        n = 1830  # a 30 KB grad spec the trace's budget accepts took 6 s and 595 MB in attn grad
        grad = json.dumps({"x": [[(i % 7) / 7] for i in range(n)], "target": [[0.5] for _ in range(n)]})
        big = json.dumps({"x": [[(i % 5) / 5] for i in range(1800)]})
        task = json.loads(attn("task", "alignment").stdout)
        task["train"]["steps"] = 1000000
        with tempfile.TemporaryDirectory() as tmp:
            cases = [(grad, ("grad", "-"), "over the gradient's limit"),
                     (json.dumps(task), ("train", "-"), "over the limit of 4294 million one call may train for: ask for at most"),
                     (big, ("explain", "-", "weights"), "explaining 3240000 cells would write about"),
                     ("{}", ("grad", tmp), f'cannot read the spec file "{tmp}": it is a folder.'),
                     ('{"x": [[1, 2]]}\0', ("trace", "-"), "holds a NUL byte at byte 16"),
                     ("", ("task", "é" * 3000), "is unknown: use one of alignment, positions-pe, positions-no-pe, scaling-sqrt-dk, scaling-none.")]
            for stdin, args, says in cases:
                with self.subTest(command=args[0]):
                    start = time.monotonic()
                    err = Refusals.refused(self, stdin, says, args=args)
                    self.assertLess(time.monotonic() - start, 1.0, args)
                    self.assertEqual(err.count("\n"), 1, err)
                    self.assertLess(len(err), 400, "a user's text is quoted short")
        task["train"]["steps"] = 5
        done = attn("train", "-", stdin=json.dumps(task))
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual(len(done.stdout.decode().strip().split("\n")), 6)

    def test_explain_head_flag(self):
        """attn explain --head: a whole number from 1, named when wrong; a head the spec lacks says so."""
        spec = '{"x": [[1, 0], [0, 1]], "heads": 1}'
        for head, says in [("abc", '--head is "abc" but must be a whole number from 1 to 64.'),
                           ("0", '--head is "0"'), ("-1", '--head is "-1"'), ("1.5", '--head is "1.5"'),
                           (" 2", '--head is " 2"'), ("2", "head 2 is out of range: stage weights has 1 head.")]:
            with self.subTest(head=head):
                err = Refusals.refused(self, spec, says, args=("explain", "-", "weights", "--head", head))
                self.assertEqual(err.count("\n"), 1, err)
        done = attn("explain", "-", "weights", "--head", "1", stdin=spec)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn("α[q1, k1]", done.stdout.decode())  # cells named by position where the spec has no tokens

    def test_language_model_refusals(self):
        """attn lm: every bad argument or hostile weight file is one sentence, exit 2, nothing on stdout."""
        models = os.path.join(os.path.dirname(os.path.dirname(ATTN)), "models")
        en = os.path.join(models, "en.safetensors")
        with tempfile.TemporaryDirectory() as tmp:
            lying = os.path.join(tmp, "lying.safetensors")
            with open(lying, "wb") as f:  # a header length of 4 GiB in a 20-byte file
                f.write((4 << 30).to_bytes(8, "little") + b"{}" + bytes(10))
            cases = [
                (("lm", "trace", "--model", en, "--text", "x" * 65), "the model reads at most 64"),
                (("lm", "trace", "--model", en, "--text", ""), "empty"),
                (("lm", "trace", "--model", en), "give the text with --text"),
                (("lm", "trace", "--text", "ab"), "give the model with --model"),
                (("lm", "trace", "--model", lying, "--text", "ab"), "header length is 4294967296 bytes"),
                (("lm", "trace", "--model", tmp, "--text", "ab"), "it is a folder"),
                (("lm", "trace", "--model", os.path.join(tmp, "none"), "--text", "ab"), "cannot read the weight file"),
                (("lm", "next", "--model", en, "--text", "ab", "--k", "-1"), "--k is \"-1\""),
                (("lm", "next", "--model", en, "--text", "ab", "--k", "abc"), "--k is \"abc\""),
                (("lm", "generate", "--model", en, "--prompt", "ab", "--temperature", "nan"), "--temperature is \"nan\""),
                (("lm", "generate", "--model", en, "--prompt", "ab", "--temperature", "-0.5"), "temperature must be a number from 0"),
                (("lm", "generate", "--model", en, "--prompt", "ab", "--seed", "1e3"), "--seed is \"1e3\""),
                (("lm", "generate", "--model", en, "--prompt", "ab", "--n", "0"), "--n is \"0\""),
                (("lm", "heads", "--model", en, "--bogus", "1"), "does not know the argument"),
                (("lm", "layer-grad", "--model", en, "--text", "a", "--layer", "1"), "needs a text of at least 2 characters"),
                (("lm", "layer-grad", "--model", en, "--text", "ab", "--layer", "3"), "--layer is \"3\""),
                (("lm", "train", "--recipe", "fr", "--out", os.path.join(tmp, "x")), "no model recipe \"fr\""),
                (("lm", "eval", "--model", en, "--text-file", tmp), "cannot read the text file"),
                (("lm", "frobnicate"), "lm needs one of"),
            ]
            for args, says in cases:
                done = attn(*args)
                err = done.stderr.decode()
                self.assertEqual(done.returncode, 2, f"{args}: {err!r}")
                self.assertEqual(done.stdout, b"", args)
                self.assertIn(says, err, args)
                self.assertEqual(err.count("\n"), 1, f"one sentence: {err!r}")
            ok = attn("lm", "next", "--model", en, "--text", "The cat sat on the", "--k", "3")
            self.assertEqual(ok.returncode, 0)
            self.assertEqual(len(json.loads(ok.stdout)), 3)

    def test_bench_runs_small(self):
        done = attn("bench", "--n", "16", "--d", "8")
        self.assertEqual(done.returncode, 0, done.stderr)
        out = done.stdout.decode()
        self.assertIn("\nn = 16\n", out)
        # every contender a line with its time and GFLOP/s: both materialising twins, the streaming scalar twin
        # and the streaming kernel at every SIMD level this CPU has (4 lanes at least)
        for name in ("materialising simd", "materialising scalar", "streaming scalar", "streaming sse (4 lanes)"):
            self.assertRegex(out, re.escape(name) + r"\s+[\d.]+ ms\s+[\d.]+ GFLOP/s")
        rows = json.loads(attn("bench", "--n", "16", "--d", "8", "--json").stdout)
        self.assertEqual(rows[0]["n"], 16)
        self.assertGreater(rows[0]["streaming_s"], 0)


if __name__ == "__main__":
    ATTN = os.path.abspath(sys.argv.pop(1))
    unittest.main(verbosity=1)
