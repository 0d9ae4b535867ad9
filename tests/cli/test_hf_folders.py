"""Hostile model folders (docs/models-you-bring.md) through `attn lm … --model DIR`: each is refused with one
sentence naming the file and the problem, exit 2 and nothing on stdout, before any weight is read out of bounds.
The folders start from ones the independent numpy writer makes (tests/oracle/hf_numpy.py), then one thing is
broken in each.

usage: /usr/bin/python3 test_hf_folders.py path/to/attn
"""
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "oracle"))
import hf_numpy  # noqa: E402

ATTN = None
WORK = None


def attn(*args):
    return subprocess.run([ATTN, "lm", *args], capture_output=True, timeout=120)


def read_bytes(path):
    with open(path, "rb") as f:
        return f.read()


def write_bytes(path, data):
    with open(path, "wb") as f:
        f.write(data)


def json_file(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def write_json(path, value):
    with open(path, "w", encoding="utf-8") as f:
        json.dump(value, f)


def read_st(path):
    raw = read_bytes(path)
    n = struct.unpack("<Q", raw[:8])[0]
    return json.loads(raw[8:8 + n]), raw[8 + n:]


def write_st(path, header, data, header_text=None):
    text = (header_text if header_text is not None else json.dumps(header)).encode()
    text += b" " * (-len(text) % 8)
    write_bytes(path, struct.pack("<Q", len(text)) + text + data)


class HostileFolders(unittest.TestCase):
    def folder(self, arch="gpt2"):
        """A fresh copy of a good folder of the architecture, to break."""
        base = os.path.join(WORK, "base-" + arch)
        if not os.path.exists(base):
            hf_numpy.write_folder(base, arch, "F32")
        self.n = getattr(self, "n", 0) + 1
        dst = os.path.join(WORK, "%s-%s-%d" % (self._testMethodName, arch, self.n))
        shutil.rmtree(dst, ignore_errors=True)
        shutil.copytree(base, dst)
        return dst

    def refused(self, folder, *words, command=("trace", "--text", "hello")):
        r = attn(command[0], "--model", folder, *command[1:])
        err = r.stderr.decode()
        self.assertEqual(r.returncode, 2, "exit %d, stderr %r" % (r.returncode, err))
        self.assertEqual(r.stdout, b"", "a refusal prints nothing on stdout")
        self.assertEqual(err.count("\n"), 1, "one sentence on one line: %r" % err)
        for w in words:
            self.assertIn(w, err)
        return err

    def edit_header(self, folder, change, name="model.safetensors"):
        path = os.path.join(folder, name)
        header, data = read_st(path)
        out = change(header, data)
        if isinstance(out, tuple):
            header, data = out
        write_st(path, header, data)

    def edit_config(self, folder, change):
        path = os.path.join(folder, "config.json")
        c = json_file(path)
        change(c)
        write_json(path, c)

    def test_the_good_folder_works(self):
        r = attn("trace", "--model", self.folder(), "--text", "hello")
        self.assertEqual(r.returncode, 0, r.stderr.decode())

    def test_layer_spec(self):
        # a layer as the stepper's spec: attn trace gives the model trace's own numbers, for GPT-2 (learned
        # positions added before the layer), Llama (rotary positions, 2 key/value heads for 4 query heads) and
        # Qwen2 (the same, with q/k/v biases)
        text = "The cat sat on the mat"
        for arch, layer, stages in (("gpt2", 2, ("q", "k", "v", "weights")),
                                    ("llama", 1, ("q_rot", "k_rot", "v", "weights", "context")),
                                    ("qwen2", 2, ("q_rot", "k_rot", "v", "weights", "context"))):
            with self.subTest(arch=arch):
                folder = self.folder(arch)
                r = attn("layer-spec", "--model", folder, "--text", text, "--layer", str(layer))
                self.assertEqual(r.returncode, 0, r.stderr.decode())
                spec = json.loads(r.stdout)
                traced = json.loads(subprocess.run([ATTN, "trace", "-"], input=r.stdout, capture_output=True, check=True).stdout)
                model = json.loads(attn("trace", "--model", folder, "--text", text).stdout)
                self.assertEqual(spec["tokens"]["query"], model["tokens"])
                if arch != "gpt2":
                    self.assertEqual(spec["kv_heads"], hf_numpy.KV_HEADS)
                    self.assertEqual(spec["positional"], {"rotary": json_file(os.path.join(folder, "config.json"))["rope_theta"]})
                for sid in stages:
                    ours = next(s for s in traced["stages"] if s["id"] == sid)
                    theirs = next(s for s in model["stages"] if s["id"] == sid and s["layer"] == layer - 1)
                    self.assertEqual(ours["shape"], theirs["shape"], sid)
                    worst = max(abs(a - b) for a, b in zip(ours["data"], theirs["data"]))
                    self.assertLess(worst, 1e-4 if sid in ("q", "k", "v", "q_rot", "k_rot") else 1e-5, sid)
        # past the last layer: one sentence
        self.refused(self.folder("gpt2"), "--layer", command=("layer-spec", "--text", "hi", "--layer", "3"))

    def test_lying_offsets(self):
        def lie(h, d):
            h["ln_f.bias"]["data_offsets"] = [h["ln_f.bias"]["data_offsets"][0], len(d) + 256]
        f = self.folder()
        self.edit_header(f, lie)
        self.refused(f, "model.safetensors", "ln_f.bias", "outside the")

    def test_overlapping_tensors(self):
        def overlap(h, d):
            a = h["ln_f.weight"]["data_offsets"]
            h["ln_f.bias"]["data_offsets"] = list(a)
        f = self.folder()
        self.edit_header(f, overlap)
        self.refused(f, "overlap")

    def test_truncated_file(self):
        f = self.folder()
        path = os.path.join(f, "model.safetensors")
        raw = read_bytes(path)
        write_bytes(path, raw[:len(raw) // 2])
        self.refused(f, "model.safetensors", "outside the")

    def test_huge_header_length(self):
        f = self.folder()
        path = os.path.join(f, "model.safetensors")
        raw = bytearray(read_bytes(path))
        raw[:8] = struct.pack("<Q", 1 << 40)
        write_bytes(path, bytes(raw))
        self.refused(f, "header length")

    def test_wrong_shape(self):
        f = self.folder()
        def reshape(h, d):
            h["h.0.mlp.c_fc.weight"]["shape"] = [128, 128]
        self.edit_header(f, reshape)
        self.refused(f, "h.0.mlp.c_fc.weight", "shape")

    def test_wrong_dtype(self):
        f = self.folder()
        def dtype(h, d):
            h["h.1.ln_2.bias"]["dtype"] = "I8"
        self.edit_header(f, dtype)
        self.refused(f, "h.1.ln_2.bias", "dtype")

    def test_missing_tensor(self):
        f = self.folder()
        def drop(h, d):
            del h["h.1.attn.c_proj.bias"]
        self.edit_header(f, drop)
        self.refused(f, "h.1.attn.c_proj.bias", "missing")

    def test_unknown_tensor(self):
        f = self.folder()
        def extra(h, d):
            h["h.0.attn.secret"] = dict(h["ln_f.bias"])
        self.edit_header(f, extra)
        self.refused(f, "h.0.attn.secret")

    def test_key_twice(self):
        f = self.folder()
        path = os.path.join(f, "model.safetensors")
        h, d = read_st(path)
        text = json.dumps(h)
        text = text[:-1] + ', "ln_f.bias": ' + json.dumps(h["ln_f.bias"]) + "}"
        write_st(path, None, d, header_text=text)
        self.refused(f, "twice")

    def test_not_finite(self):
        f = self.folder()
        def nan(h, d):
            b = h["h.0.ln_1.weight"]["data_offsets"][0]
            d = bytearray(d)
            d[b:b + 4] = struct.pack("<f", float("nan"))
            return h, bytes(d)
        self.edit_header(f, nan)
        self.refused(f, "h.0.ln_1.weight", "not finite")

    def test_shard_outside_the_folder(self):
        f = self.folder()
        h, _ = read_st(os.path.join(f, "model.safetensors"))
        index = {"metadata": {}, "weight_map": {k: "../model.safetensors" for k in h if k != "__metadata__"}}
        os.remove(os.path.join(f, "model.safetensors"))
        write_json(os.path.join(f, "model.safetensors.index.json"), index)
        self.refused(f, "model.safetensors.index.json", "not a file name")

    def test_tokenizer_of_another_model(self):
        f = self.folder()
        for name in ("vocab.json", "merges.txt"):
            os.remove(os.path.join(f, name))
        shutil.copy(os.path.join(self.folder("llama"), "tokenizer.json"), f)  # 128,256 ids for 50,257 rows
        self.refused(f, "tokenizer.json", "not this model's")

    def test_tokenizer_with_another_split(self):
        f = self.folder("llama")
        path = os.path.join(f, "tokenizer.json")
        t = json_file(path)
        t["pre_tokenizer"]["pretokenizers"][0]["pattern"]["Regex"] = "\\s+|\\w+"
        write_json(path, t)
        self.refused(f, "tokenizer.json", "regex")

    def test_tokenizer_field_of_another_type(self):
        f = self.folder("llama")
        path = os.path.join(f, "tokenizer.json")
        t = json_file(path)
        t["model"]["ignore_merges"] = None
        write_json(path, t)
        self.refused(f, "tokenizer.json", "wrong type")

    def test_tokenizer_merge_of_no_token(self):
        f = self.folder()
        with open(os.path.join(f, "merges.txt"), "a", encoding="utf-8") as m:
            m.write("zzq qqz\n")
        self.refused(f, "merges.txt", "zzq qqz", "not in the vocabulary")

    def test_unknown_model_type(self):
        f = self.folder()
        self.edit_config(f, lambda c: c.__setitem__("model_type", "bert"))
        self.refused(f, "config.json", "bert")

    def test_rope_scaling_refused(self):
        f = self.folder("llama")
        self.edit_config(f, lambda c: c.__setitem__("rope_scaling", {"rope_type": "llama3", "factor": 8.0}))
        self.refused(f, "config.json", "rope_scaling")

    def test_kv_heads_that_do_not_divide(self):
        f = self.folder("llama")
        self.edit_config(f, lambda c: c.__setitem__("num_key_value_heads", 3))
        self.refused(f, "config.json", "num_key_value_heads")

    def test_config_not_json(self):
        f = self.folder()
        write_bytes(os.path.join(f, "config.json"), b"{ not json")
        self.refused(f, "config.json", "not valid JSON")

    def test_no_config(self):
        f = self.folder()
        os.remove(os.path.join(f, "config.json"))
        self.refused(f, "config.json")

    def test_text_past_the_context(self):
        f = self.folder()
        self.refused(f, "256 tokens", command=("trace", "--text", "word " * 300))

    def test_tokenize_needs_a_folder(self):
        r = attn("tokenize", "--model", "zh", "--text", "hi")
        self.assertEqual(r.returncode, 2)
        self.assertIn("model folder", r.stderr.decode())


if __name__ == "__main__":
    ATTN = os.path.abspath(sys.argv.pop(1))
    with tempfile.TemporaryDirectory() as work:
        WORK = work
        unittest.main(verbosity=1)
