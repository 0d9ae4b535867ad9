"""The attn CLI as a user meets it: good commands print, bad input gets one sentence on
stderr, exit code 2 and nothing on stdout, never an abort.

usage: /usr/bin/python3 test_cli.py path/to/attn
"""
import json
import re
import os
import random
import resource
import struct
import subprocess
import sys
import tempfile
import time
import unittest

ATTN = None


def attn(*args, stdin=None):
    return subprocess.run([ATTN, *args], input=stdin.encode() if isinstance(stdin, str) else stdin,
                          capture_output=True, timeout=120)


def lm_tensor_table(cfg, vocab_size):
    """docs/model.md's tensors of a config, in the file's order: (name, shape)."""
    d, dm = cfg["d_model"], cfg["d_mlp"]
    table = [("wte", (vocab_size, d))]
    if cfg["positional"] == "learned":
        table.append(("wpe", (cfg["n_ctx"], d)))
    for layer in range(cfg["n_layer"]):
        h = f"h.{layer}."
        table += [(h + "ln_1.weight", (d,)), (h + "ln_1.bias", (d,))]
        for w in "qkvo":
            table += [(h + f"attn.w{w}", (d, d)), (h + f"attn.b{w}", (d,))]
        if dm:
            table += [(h + "ln_2.weight", (d,)), (h + "ln_2.bias", (d,)), (h + "mlp.w1", (d, dm)), (h + "mlp.b1", (dm,)),
                      (h + "mlp.w2", (dm, d)), (h + "mlp.b2", (d,))]
    return table + [("ln_f.weight", (d,)), ("ln_f.bias", (d,))]


def lm_config(n_layer, n_head, d_model, d_mlp, n_ctx):
    return {"n_layer": n_layer, "n_head": n_head, "d_model": d_model, "d_mlp": d_mlp, "n_ctx": n_ctx, "positional": "learned",
            "ln_eps": 1e-5}


def write_weights(path, cfg, vocab_size, fill=None, dtype="F16", corpus=(), probe="", edit=None):
    """A weight file written by hand (docs/model.md): fill(name, count) gives a tensor's floats, or None for zeros
    (ones for LayerNorm weights); edit(header_text) may change the header, e.g. to give a key twice."""
    # printable ASCII, the CJK block, then CJK extension B: never a surrogate
    vocab = ["<unk>"] + [chr(32 + i) if i < 95 else chr(0x4E00 + i - 95) if i < 95 + 20992 else chr(0x20000 + i) for i in range(vocab_size - 1)]
    header, blobs, at = {}, [], 0
    for name, shape in lm_tensor_table(cfg, vocab_size):
        count = 1
        for n in shape:
            count *= n
        values = fill(name, count) if fill else None
        if values is None and name.endswith(".weight") and len(shape) == 1:
            values = [1.0] * count
        code = "f" if dtype == "F32" else "e"
        blob = struct.pack(f"<{count}{code}", *values) if values is not None else bytes(count * (4 if dtype == "F32" else 2))
        header[name] = {"dtype": dtype, "shape": list(shape), "data_offsets": [at, at + len(blob)]}
        blobs.append(blob)
        at += len(blob)
    header["__metadata__"] = {"config": json.dumps(cfg), "vocab": json.dumps(vocab), "corpus": json.dumps(list(corpus)), "probe": probe}
    text = json.dumps(header)
    if edit:
        text = edit(text)
    with open(path, "wb") as f:
        f.write(len(text.encode()).to_bytes(8, "little") + text.encode())
        for blob in blobs:
            f.write(blob)
    return path


def run_measured(args, timeout=60):
    """attn ARGS: its exit code, stdout, stderr, seconds and its own peak memory in MiB (killed after timeout s)."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        started = time.monotonic()
        child = subprocess.Popen([ATTN, *args], stdin=subprocess.DEVNULL, stdout=out, stderr=err)
        while True:  # wait4: this child's own peak memory, not all children's
            pid, status, usage = os.wait4(child.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() - started > timeout:
                child.kill()
            time.sleep(0.005)
        seconds = time.monotonic() - started
        child.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return child.returncode, out.read(), err.read().decode(), seconds, usage.ru_maxrss / 1024


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
                            (("bench", "--n", ","), "--n takes sizes"),
                            (("--version", "now"), "--version takes no arguments")]:
            with self.subTest(args=args):
                done = attn(*args)
                self.assertEqual(done.returncode, 2, done.stderr)
                self.assertEqual(done.stdout, b"")
                self.assertIn(names, done.stderr.decode())


    def test_version(self):
        # the version of the core, the npm package and the CMake project: one number
        here = os.path.dirname(os.path.abspath(__file__))
        with open(os.path.join(here, "..", "..", "web", "package.json"), encoding="utf-8") as f:
            npm = json.load(f)["version"]
        with open(os.path.join(here, "..", "..", "core", "include", "attn", "version.hpp"), encoding="utf-8") as f:
            header = re.search(r'#define ATTN_VERSION_STRING "([0-9.]+)"', f.read()).group(1)
        for flag in ("--version", "-V"):
            done = attn(flag)
            self.assertEqual((done.returncode, done.stdout.decode(), done.stderr), (0, f"attn {npm}\n", b""))
        self.assertEqual(header, npm)


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
                (("lm", "trace", "--model", en, "--text", "x" * 129), "the model reads at most 128"),
                (("lm", "trace", "--model", en, "--text", ""), "empty"),
                (("lm", "trace", "--model", en), "give the text with --text"),
                (("lm", "trace", "--text", "ab"), "give the model with --model"),
                (("lm", "trace", "--model", lying, "--text", "ab"), "header length is 4294967296 bytes"),
                (("lm", "trace", "--model", tmp, "--text", "ab"), "has no config.json"),
                (("lm", "trace", "--model", os.path.join(tmp, "none"), "--text", "ab"), "cannot read the weight file"),
                (("lm", "next", "--model", en, "--text", "ab", "--k", "-1"), "--k is \"-1\""),
                (("lm", "next", "--model", en, "--text", "ab", "--k", "abc"), "--k is \"abc\""),
                (("lm", "generate", "--model", en, "--prompt", "ab", "--temperature", "nan"), "--temperature is \"nan\""),
                (("lm", "generate", "--model", en, "--prompt", "ab", "--temperature", "-0.5"), "temperature is -0.5 but must be 0 (greedy) or from 0.001 to 100."),
                (("lm", "generate", "--model", en, "--prompt", "ab", "--seed", "1e3"), "--seed is \"1e3\""),
                (("lm", "generate", "--model", en, "--prompt", "ab", "--n", "0"), "--n is \"0\""),
                (("lm", "heads", "--model", en, "--bogus", "1"), "does not know the argument"),
                (("lm", "layer-grad", "--model", en, "--text", "a", "--layer", "1"), "needs a text of at least 2 characters"),
                (("lm", "layer-grad", "--model", en, "--text", "ab", "--layer", "3"), "--layer is \"3\""),
                (("lm", "train", "--recipe", "fr", "--out", os.path.join(tmp, "x")), "no model recipe \"fr\""),
                (("lm", "eval", "--model", en, "--text-file", tmp), "cannot read the text file"),
                (("lm", "frobnicate"), "lm needs one of"),
                (("lm", "sample", "--model", en, "--text", "ab", "--top-p", "0"), "top_p is 0 but must be from 0.001 to 1."),
                (("lm", "sample", "--model", en, "--text", "ab", "--top-k", "-2"), "--top-k is \"-2\""),
                (("lm", "next", "--model", en, "--text", "ab", "--top-k", "60000"), "top_k is 60000 but must be from 0 (every character) to"),
                (("lm", "generate", "--model", en, "--prompt", "ab", "--top-p", "1.5"), "top_p is 1.5 but must be from 0.001 to 1."),
                (("lm", "lens", "--model", en, "--text", "ab", "--k", "0"), "--k is \"0\""),
                (("lm", "lens", "--model", en), "give the text with --text"),
                (("lm", "heads", "--model", en, "--text", "x" * 129), "the model reads at most 128"),
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

    def test_language_model_sources_lens_and_sampling(self):
        """issue 49: each candidate's parts sum to its logit; the lens ends on the model's answer; sample draws generate's first."""
        en = os.path.join(os.path.dirname(os.path.dirname(ATTN)), "models", "en.safetensors")
        text = "The lazy dog sleeps all day. The lazy dog sl"
        att = json.loads(attn("lm", "attribute", "--model", en, "--text", text, "--k", "3").stdout)
        for c in att:
            self.assertEqual([p["part"] for p in c["parts"]], ["embed"] + (["head"] * 4 + ["attn_bias", "mlp"]) * 2 + ["ln_f_bias"])
            self.assertLessEqual(abs(sum(p["value"] for p in c["parts"]) - c["logit"]), 1e-4, c["char"])
        lens = json.loads(attn("lm", "lens", "--model", en, "--text", text).stdout)
        self.assertEqual([(p["layer"], p["after"]) for p in lens], [(0, "attn"), (0, "mlp"), (1, "attn"), (1, "mlp")])
        nxt = json.loads(attn("lm", "next", "--model", en, "--text", text, "--k", "5").stdout)
        self.assertEqual([c["char"] for c in lens[-1]["top"]], [c["char"] for c in nxt])
        heads = json.loads(attn("lm", "heads", "--model", en, "--text", text).stdout)
        self.assertEqual(len(heads), 8)
        self.assertEqual(sorted(heads[0]["text"]), ["entropy", "first_token", "induction", "previous_token", "self"])
        self.assertNotIn("text", json.loads(attn("lm", "heads", "--model", en).stdout)[0])
        for seed in ("0", "5", "9"):
            opts = ["--temperature", "1.5", "--top-k", "4", "--top-p", "0.8", "--seed", seed]
            sample = json.loads(attn("lm", "sample", "--model", en, "--text", text, *opts).stdout)
            first = attn("lm", "generate", "--model", en, "--prompt", text, "--n", "1", *opts).stdout.decode().rstrip("\n")
            self.assertEqual(sample["sampled"]["char"], first, seed)
            self.assertLessEqual(sum(1 for c in sample["candidates"] if c["top_k"] > 0), 4)
        # a hot temperature never writes a control character (a BEL once reached the page's text box)
        for seed in range(6):
            out = attn("lm", "generate", "--model", en, "--prompt", "A penny", "--n", "400", "--temperature", "2", "--seed", str(seed)).stdout.decode()
            self.assertIsNone(re.search(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]", out.rstrip("\n")), repr(out))

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


class LanguageModelHostile(unittest.TestCase):
    """Issue 50, the fourth hostile round, for attn lm: a call's work, memory and output are estimated from the
    weight file's header before the work starts (lm_bounds() in core/src/lm/model.cpp), numbers that overflowed
    are refused where they leave the core, flags and headers are read one way. Every refusal: one sentence naming
    the limit, exit 2, nothing on stdout, in under a second and without reading the weights."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.en = os.path.join(os.path.dirname(os.path.dirname(ATTN)), "models", "en.safetensors")
        at = lambda name: os.path.join(cls.tmp.name, name)
        # legal but large: 10 layers × 8 heads × d 384, MLP 1536, context 384, 3000 characters (38 MB of F16 zeros)
        cls.large = write_weights(at("large.safetensors"), lm_config(10, 8, 384, 1536, 384), 3000)
        cls.wide = write_weights(at("wide.safetensors"), lm_config(1, 1, 8, 0, 64), 50000)  # 50,000 characters
        cls.wordy = write_weights(at("wordy.safetensors"), lm_config(1, 1, 8, 0, 32), 20000)  # logits of 32 × 20,000 cells
        rng = random.Random(50)
        # the embeddings N(0, 1), the named matrices N(0, 10^20)
        huge = lambda *names: lambda name, count: ([rng.gauss(0, 1e20) for _ in range(count)] if name.endswith(names)
                                                   else [rng.gauss(0, 1) for _ in range(count)] if name in ("wte", "wpe") else None)
        # finite weights whose products overflow float32: every logit (ln_f's β of 3e38), or the attention's scores
        cls.logits_overflow = write_weights(at("logits.safetensors"), lm_config(2, 2, 16, 32, 16), 40,
                                            lambda name, count: [3e38] * count if name == "ln_f.bias" else [1.0] * count if name == "wte" else None,
                                            dtype="F32")
        cls.scores_overflow = write_weights(at("scores.safetensors"), lm_config(2, 2, 16, 32, 16), 40, huge("attn.wq", "attn.wk"), dtype="F32")
        # <unk> takes all of the probability: γ 0 and β 1 make every final row all ones, <unk>'s embedding 10⁴
        cls.unk_all = write_weights(at("unk.safetensors"), lm_config(1, 2, 8, 0, 16), 40,
                                    lambda name, count: [0.0] * count if name == "ln_f.weight" else [1.0] * count if name == "ln_f.bias"
                                    else [1e4] * 8 + [0.01 * (k % 7) for k in range(count - 8)] if name == "wte" else None, dtype="F32")
        cls.no_corpus = write_weights(at("none.safetensors"), lm_config(1, 1, 8, 0, 16), 20)
        cls.corpus_40 = write_weights(at("forty.safetensors"), lm_config(1, 1, 8, 0, 16), 20, corpus=["fortunes:art"] * 40)
        cls.corpus_twice = write_weights(at("twice.safetensors"), lm_config(1, 1, 8, 0, 16), 20, corpus=["fortunes:art", "fortunes:art"])
        cls.at = staticmethod(at)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def refused(self, args, says, most_mib=120):
        code, out, err, seconds, peak = run_measured(args)
        self.assertEqual(code, 2, f"{args[:4]}: {err!r}")
        self.assertEqual(out, b"", args[:4])
        self.assertIn(says, err, args[:4])
        self.assertEqual(err.count("\n"), 1, f"one sentence: {err!r}")
        self.assertTrue(err.startswith("attn: "), err)
        self.assertLess(seconds, 1.0, f"{args[:4]} took {seconds:.2f} s")
        self.assertLess(peak, most_mib, f"{args[:4]} peaked at {peak:.0f} MiB: its weights must not be read")
        return err

    def still_answers(self):
        """The next ordinary call still gives the right answer."""
        code, out, err, _, _ = run_measured(["lm", "next", "--model", self.en, "--text", "The cat sat on the", "--k", "2"])
        self.assertEqual(code, 0, err)
        top = json.loads(out)
        self.assertEqual(len(top), 2)
        self.assertTrue(all(0 < c["p"] < 1 for c in top), top)

    def test_1_work_memory_and_output_are_bounded_before_the_work(self):
        large, a = self.large, lambda n: "a" * n
        cases = [
            (["next", "--text", a(384)], "next on 384 characters would take about"),
            (["next", "--text", a(384)], "over the limit of 4.29 billion a call: give it at most"),
            (["step", "--text", a(300)], "a generation step on 300 characters would take about"),
            (["trace", "--text", a(200)], "a trace on 200 characters would"),
            (["attribute", "--text", a(250)], "a trace on 250 characters would"),
            (["layer-grad", "--text", a(150), "--layer", "2"], "a layer's gradient on 150 characters would"),
            (["heads", "--text", "abcabcabc"], "the head scores would take about"),
            (["grad", "--text", "abc"], "of JSON, over the limit of 64 MiB"),
            (["generate", "--prompt", "a", "--n", "7000"], "generating 7000 characters would take about"),
            (["generate", "--prompt", "a", "--n", "7000"], "generate at most"),
        ]
        for args, says in cases:
            with self.subTest(args[0]):
                self.refused(["lm", args[0], "--model", large, *args[1:]], says)
        # a vocabulary of 50,000: the trace's logits and probs alone are 6.4 million numbers of JSON
        self.refused(["lm", "trace", "--model", self.wide, "--text", a(64)], "a trace on 64 characters would answer with about")
        self.refused(["lm", "explain", "--model", self.wordy, "--text", a(32), "--stage", "logits"],
                     "explaining the 640000 cells of stage logits would answer with about 244 MiB of JSON, over the limit of 64 MiB")
        self.still_answers()

    def test_1_texts_and_corpora_are_bounded_before_they_are_read(self):
        big_text = self.at("nine.txt")
        with open(big_text, "wb") as f:
            f.write(b"abc\n" * (9 << 18))  # 9 MiB
        small_text = self.at("art.txt")
        with open(small_text, "w") as f:
            f.write(open("/usr/share/games/fortunes/art", encoding="utf-8").read()[:30000])
        self.refused(["lm", "eval", "--model", self.en, "--text-file", big_text], "is over the limit of 8 MiB")
        self.refused(["lm", "eval", "--model", self.en, "--text-file", "/dev/zero"], 'the text file "/dev/zero" is over the limit of 8 MiB')
        self.refused(["lm", "eval", "--model", self.large, "--text-file", small_text], "over the limit of 68.7 billion a call: evaluate at most")
        self.refused(["lm", "eval", "--model", self.corpus_40, "--heldout"], "__metadata__.corpus names more than 32 files")
        self.refused(["lm", "eval", "--model", self.corpus_twice, "--heldout"], '__metadata__.corpus names "fortunes:art" twice')
        # an empty corpus list reported 0.0 bits (an unsigned underflow)
        self.refused(["lm", "eval", "--model", self.no_corpus, "--heldout"], "the model names no corpus")
        code, out, err, _, _ = run_measured(["lm", "eval", "--model", self.en, "--text-file", small_text])
        self.assertEqual(code, 0, err)
        self.assertGreater(json.loads(out)["bits_per_char"], 1)

    def test_2_overflow_is_refused_never_printed_as_null(self):
        for args in (["next", "--text", "ABC"], ["step", "--text", "ABC"], ["trace", "--text", "ABC"], ["attribute", "--text", "ABC"],
                     ["layer-grad", "--text", "ABC"], ["grad", "--text", "ABCD"], ["generate", "--prompt", "AB", "--n", "3"]):
            with self.subTest(args[0]):
                self.refused(["lm", args[0], "--model", self.logits_overflow, *args[1:]], "overflowed the float range")
        text = self.at("abc.txt")
        with open(text, "w") as f:
            f.write("ABCDABCD" * 4)
        self.refused(["lm", "eval", "--model", self.logits_overflow, "--text-file", text], "the model's loss overflowed the float range")
        self.refused(["lm", "heads", "--model", self.scores_overflow, "--text", "ABCABC"], "the model's head scores overflowed the float range")
        self.refused(["lm", "next", "--model", self.scores_overflow, "--text", "ABC"], "overflowed the float range")
        # a temperature in (0, 1e-3) is refused: z/T would pick the last character (the page generated "愚愚愚…")
        for t in ("1e-30", "5e-324", "0.0009"):
            self.refused(["lm", "generate", "--model", self.en, "--prompt", "ab", "--temperature", t],
                         f"temperature is {t} but must be 0 (greedy) or from 0.001 to 100.")
        code, out, err, _, _ = run_measured(["lm", "generate", "--model", self.en, "--prompt", "ab", "--temperature", "0.001", "--n", "5"])
        self.assertEqual((code, len(out.decode().strip())), (0, 5), err)
        # p(<unk>) = 1: the candidates' probabilities were 0 ÷ 0
        code, out, err, _, _ = run_measured(["lm", "attribute", "--model", self.unk_all, "--text", "ABC", "--k", "3"])
        self.assertEqual(code, 0, err)
        top = json.loads(out)
        _, nxt, _, _, _ = run_measured(["lm", "next", "--model", self.unk_all, "--text", "ABC", "--k", "3"])
        self.assertEqual([c["char"] for c in top], [c["char"] for c in json.loads(nxt)])
        for c in top:
            self.assertIsInstance(c["p"], float)
            self.assertTrue(0 < c["p"] <= 1, c)
        self.still_answers()

    def test_7_flags_are_read_one_way_and_train_checks_its_output_first(self):
        en = self.en
        with open(self.at("x.safetensors.file"), "w") as f:
            f.write("a file where the trainer's folder would go")
        # a byte-level tokenizer of the 256 bytes alone (GPT-2's files, no merges), quick to read
        tok = self.at("tok256")
        os.makedirs(tok, exist_ok=True)
        printable = [b for b in range(256) if 33 <= b <= 126 or 161 <= b <= 172 or 174 <= b <= 255]
        others = iter(range(256, 512))
        vocab = {chr(b if b in printable else next(others)): b for b in range(256)}
        with open(os.path.join(tok, "vocab.json"), "w", encoding="utf-8") as f:
            json.dump(vocab, f)
        with open(os.path.join(tok, "merges.txt"), "w") as f:
            f.write("#version: 0.2\n")
        for args, says in [
            (["next", "--model", en, "--text", "ab", "--k", "2", "--k", "3"], "lm next: --k is given twice; give it once."),
            (["generate", "--model", en, "--model", en, "--prompt", "ab"], "--model is given twice"),
            (["generate", "--model", en, "--prompt", "ab", "--temperature", " 0.5"], '--temperature is " 0.5" but must be a number.'),
            (["generate", "--model", en, "--prompt", "ab", "--temperature", "0.5 "], '--temperature is "0.5 "'),
            (["generate", "--model", en, "--prompt", "ab", "--temperature", "+0.5"], '--temperature is "+0.5"'),
            (["generate", "--model", en, "--prompt", "ab", "--temperature", "0x1p-1"], '--temperature is "0x1p-1"'),
            (["generate", "--model", en, "--prompt", "ab", "--temperature", "infinity"], '--temperature is "infinity"'),
            (["generate", "--model", en, "--prompt", "ab", "--temperature", "2e-400"], '--temperature is "2e-400" but must be a number a double holds'),
            (["generate", "--model", en, "--prompt", "ab", "--n", " 5"], '--n is " 5" but must be a whole number'),
            (["train", "--recipe", "en", "--out", self.at("x.safetensors"), "--lr", " 0.01"], '--lr is " 0.01" but must be a number.'),
            (["train", "--recipe", "en", "--out", "/nonexistent/folder/en.safetensors", "--steps", "3"],
             'cannot write --out "/nonexistent/folder/en.safetensors"'),
            (["train", "--recipe", "en", "--out", self.tmp.name, "--steps", "3"], "it is a folder"),
            (["train", "--recipe", "en", "--out", self.at("y.safetensors"), "--batch", "400", "--steps", "3"],
             "a training step of 400 windows of 128 characters would take about"),
            (["train", "--recipe", "zh", "--out", self.at("x.safetensors"), "--vocab-cap", "5000"], '--vocab-cap is "5000" but must be a whole number from 8 to 4096.'),
            (["train", "--recipe", "en", "--out", self.at("x.safetensors"), "--repeat-alphabet-min", "1"], "repeat_alphabet_min must be 0 or from 2 to repeat_alphabet."),
            (["train", "--recipe", "en", "--out", self.at("x.safetensors"), "--long-repeat-alphabet", "1"], "long_repeat_alphabet must be 0 or at least 2."),
            (["train", "--recipe", "en", "--out", self.at("x.safetensors"), "--repeat-alphabet", "5000"], '--repeat-alphabet is "5000" but must be a whole number from 2 to 4096.'),
            (["train", "--recipe", "zh", "--out", self.at("x.safetensors"), "--vocab-min-count", "0"], '--vocab-min-count is "0" but must be a whole number from 1'),
            # a model folder's trainer (attn lm train --arch): its flags and its output, refused before any step
            (["train", "--arch", "bert", "--tokenizer", tok, "--out", self.at("f")], "--arch must be gpt2, llama or qwen2."),
            (["train", "--arch", "llama", "--out", self.at("f")], "lm train --arch needs --tokenizer DIR"),
            (["train", "--arch", "llama", "--tokenizer", tok], "lm train --arch needs --out DIR."),
            (["train", "--arch", "llama", "--tokenizer", self.tmp.name, "--out", self.at("f")], "has no tokenizer.json (nor GPT-2's vocab.json and merges.txt)."),
            (["train", "--arch", "llama", "--tokenizer", tok, "--out", self.at("f"), "--dtype", "F8"],
             "--dtype takes F32, F16 or BF16, or several of them with commas."),
            (["train", "--arch", "llama", "--tokenizer", tok, "--out", self.at("f"), "--window", "300"],
             '--window is "300" but must be a whole number from 2 to 256.'),
            (["train", "--arch", "qwen2", "--tokenizer", tok, "--out", self.at("f"), "--vocab-rows", "100"],
             '--vocab-rows is "100" but must be a whole number from 256'),
            (["train", "--arch", "llama", "--tokenizer", tok, "--out", self.at("x.safetensors.file/m"), "--steps", "3"],
             'cannot make the folder "' + self.at("x.safetensors.file/m") + '"'),
            (["train", "--arch", "llama", "--tokenizer", tok, "--out", self.at("x.safetensors.file"), "--steps", "3"],
             "is a file, not a folder"),
        ]:
            with self.subTest(args=args[:2] + args[-2:]):
                self.refused(["lm", *args], says)
        self.assertFalse(os.path.exists(self.at("x.safetensors")) or os.path.exists(self.at("y.safetensors")) or os.path.exists(self.at("f")))
        self.still_answers()

    def test_8_a_header_is_nested_at_most_32_deep_and_gives_each_key_once(self):
        deep = self.at("deep.safetensors")
        with open(deep, "wb") as f:  # 10 MiB of "[": refused after 2.4 s and 1.27 GB before
            f.write((10 << 20).to_bytes(8, "little") + b"[" * (10 << 20))
        self.refused(["lm", "info", "--model", deep], "weight file: its header nests arrays and objects more than 32 levels deep.", most_mib=60)
        small = lm_config(1, 1, 8, 0, 16)
        for name, edit, says in [
            ("meta", lambda h: h[:h.rindex("}")] + ', "__metadata__": {}}', 'its header has the key "__metadata__" twice'),
            ("tensor", lambda h: h.replace('"wte":', '"wte": {}, "wte":', 1), 'its header has the key "wte" twice'),
            ("config", lambda h: h.replace('\\"n_layer\\": 1', '\\"n_layer\\": 1, \\"n_layer\\": 12'), '__metadata__.config has the key "n_layer" twice'),
            ("vocab", lambda h: h.replace('"vocab": "[', '"vocab": "' + "[" * 40), "__metadata__.vocab nests arrays and objects more than 32"),
        ]:
            with self.subTest(name):
                path = write_weights(self.at(name + ".safetensors"), small, 20, edit=edit)
                self.refused(["lm", "info", "--model", path], "weight file: " + says)
        self.still_answers()


if __name__ == "__main__":
    ATTN = os.path.abspath(sys.argv.pop(1))
    unittest.main(verbosity=1)
