#!/usr/bin/env python3
"""An independent implementation of docs/model.md in numpy, checking the attn CLI's language models.

From the .safetensors file alone (parsed here, not by the core): the forward pass of every stage of
`attn lm trace` (float64 here, to 1e-4), the head scores of `attn lm heads` (previous-token, first-token,
line-alignment on the model's probe, induction on random strings drawn here), the held-out split of the
corpus files (written here from the contract) and its bits per character against a unigram and an
interpolated bigram fitted here: the model must beat the bigram.

usage: lm_numpy.py ATTN MODEL.safetensors [MODEL ...]
"""
import json
import math
import re
import struct
import subprocess
import sys

import numpy as np


def read_safetensors(path):
    raw = open(path, "rb").read()
    (n,) = struct.unpack("<Q", raw[:8])
    header = json.loads(raw[8:8 + n])
    meta = header.pop("__metadata__")
    data = raw[8 + n:]
    tensors = {}
    for name, t in header.items():
        b, e = t["data_offsets"]
        dtype = {"F32": np.float32, "F16": np.float16}[t["dtype"]]
        tensors[name] = np.frombuffer(data[b:e], dtype=dtype).astype(np.float64).reshape(t["shape"])
    return json.loads(meta["config"]), json.loads(meta["vocab"]), json.loads(meta.get("corpus", "[]")), meta.get("probe", ""), tensors


def layernorm(x, w, b, eps):
    mu = x.mean(-1, keepdims=True)
    var = ((x - mu) ** 2).mean(-1, keepdims=True)
    return (x - mu) / np.sqrt(var + eps) * w + b


def sinusoidal(n, d):
    pe = np.zeros((n, d))
    for pos in range(n):
        for c in range(d):
            angle = pos / 10000 ** ((c - c % 2) / d)
            pe[pos, c] = math.sin(angle) if c % 2 == 0 else math.cos(angle)
    return pe


def gelu(z):
    from math import erf
    return 0.5 * z * (1 + np.vectorize(erf)(z / math.sqrt(2)))


def forward(cfg, T, ids):
    """Every stage of docs/model.md's forward pass, keyed (id, layer)."""
    n, d, h = len(ids), cfg["d_model"], cfg["n_head"]
    dh = d // h
    st = {}
    st[("embed", None)] = T["wte"][ids]
    st[("pe", None)] = T["wpe"][:n] if cfg["positional"] == "learned" else sinusoidal(n, d)
    x = st[("embed", None)] + st[("pe", None)]
    st[("x", None)] = x
    causal = np.tril(np.ones((n, n), dtype=bool))
    for l in range(cfg["n_layer"]):
        p = lambda name: T[f"h.{l}.{name}"]
        a = layernorm(x, p("ln_1.weight"), p("ln_1.bias"), cfg["ln_eps"])
        st[("ln_1", l)] = a
        q, k, v = (a @ p(f"attn.w{c}") + p(f"attn.b{c}") for c in "qkv")
        split = lambda m: m.reshape(n, h, dh).transpose(1, 0, 2)
        qh, kh, vh = split(q), split(k), split(v)
        scores = qh @ kh.transpose(0, 2, 1) / math.sqrt(dh)
        scores = np.where(causal, scores, -np.inf)
        w = np.exp(scores - scores.max(-1, keepdims=True))
        w /= w.sum(-1, keepdims=True)
        st[("weights", l)] = w
        ctx = (w @ vh).transpose(1, 0, 2).reshape(n, d)
        st[("concat", l)] = ctx
        o = ctx @ p("attn.wo") + p("attn.bo")
        st[("output", l)] = o
        x = x + o
        st[("resid_mid", l)] = x
        if cfg["d_mlp"] > 0:
            m = layernorm(x, p("ln_2.weight"), p("ln_2.bias"), cfg["ln_eps"])
            pre = m @ p("mlp.w1") + p("mlp.b1")
            act = gelu(pre)
            out = act @ p("mlp.w2") + p("mlp.b2")
            st[("ln_2", l)], st[("mlp_pre", l)], st[("mlp_act", l)], st[("mlp_out", l)] = m, pre, act, out
            x = x + out
        st[("resid_post", l)] = x
    f = layernorm(x, T["ln_f.weight"], T["ln_f.bias"], cfg["ln_eps"])
    logits = f @ T["wte"].T
    probs = np.exp(logits - logits.max(-1, keepdims=True))
    probs /= probs.sum(-1, keepdims=True)
    st[("ln_f", None)], st[("logits", None)], st[("probs", None)] = f, logits, probs
    return st


def split_fortunes(text):
    """docs/model.md's held-out split: entry i is held out when i % 10 == 9 (colour codes stripped)."""
    text = re.sub(r"\x1b\[[^A-Za-z]*[A-Za-z]", "", text).replace("\r", "")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    entries, cur = [], []
    for line in lines:
        if line == "%":
            entries.append(cur)
            cur = []
        else:
            cur.append(line)
    if cur:
        entries.append(cur)
    train, held = [], []
    for i, e in enumerate(entries):
        if e:
            (held if i % 10 == 9 else train).append("\n".join(e) + "\n\n")
    return "".join(train), "".join(held)


def line_targets(text):
    breaks = set("\n，。？！；、")
    lines, line_of = [], [-1] * len(text)
    for i, c in enumerate(text):
        if c in breaks:
            continue
        if i == 0 or text[i - 1] in breaks:
            lines.append([i, 0])
        lines[-1][1] += 1
        line_of[i] = len(lines) - 1
    target = [-1] * len(text)
    for i in range(len(text)):
        L = line_of[i]
        if L >= 1 and lines[L][1] == lines[L - 1][1] >= 4:
            target[i] = lines[L - 1][0] + (i - lines[L][0])
    return target


def check(cond, what):
    if not cond:
        print("FAIL:", what)
        sys.exit(1)
    print("ok:", what)


def main():
    attn, paths = sys.argv[1], sys.argv[2:]
    for path in paths:
        cfg, vocab, corpus, probe, T = read_safetensors(path)
        ids_of = {c: i for i, c in enumerate(vocab) if i > 0}
        to_ids = lambda s: [ids_of.get(c, 0) for c in s]
        name = path.split("/")[-1]
        text = "床前明月光，疑是地上霜。" if "fortunes-zh:tang300" in corpus else "The cat sat on the mat. The cat"
        text += "\u2603"  # a character no model knows: it must come back as <unk>
        got = json.loads(subprocess.run([attn, "lm", "trace", "--model", path, "--text", text], check=True, capture_output=True).stdout)
        check(got["ids"] == to_ids(text) and got["unknown"] == [len(text) - 1], f"{name}: ids and unknown characters")
        ours = forward(cfg, T, to_ids(text))
        worst, count = 0.0, 0
        for s in got["stages"]:
            key = (s["id"], s["layer"])
            if key not in ours:
                continue
            a = np.array(s["data"]).reshape(s["shape"])
            b = ours[key]
            if s["id"] == "weights":
                a, b = np.where(np.isfinite(b), a, 0), np.nan_to_num(b)
            worst = max(worst, float(np.max(np.abs(a - b) / (1 + np.abs(b)))))
            count += 1
        check(count >= 5 + 7 * cfg["n_layer"] and worst < 1e-4, f"{name}: {count} stages equal numpy's forward pass (worst {worst:.2e})")

        # which heads pushed each next character: attn lm attribute against numpy's own direct logit
        # attribution, and numpy's attribution of every part of the residual stream adding up to the logit
        atext = text[:-1]
        att = json.loads(subprocess.run([attn, "lm", "attribute", "--model", path, "--text", atext, "--k", "3"],
                                        check=True, capture_output=True).stdout)
        st = forward(cfg, T, to_ids(atext))
        L, d, h = cfg["n_layer"], cfg["d_model"], cfg["n_head"]
        dh, last = d // h, len(atext) - 1
        resid = st[("resid_post", L - 1)][last]
        rstd = 1 / math.sqrt(np.var(resid) + cfg["ln_eps"])
        dla = lambda o, c: float(((o - o.mean()) * rstd * T["ln_f.weight"]) @ T["wte"][c])
        heads_out, parts = [], [st[("x", None)][last]]
        for l in range(L):
            v = st[("ln_1", l)] @ T[f"h.{l}.attn.wv"] + T[f"h.{l}.attn.bv"]
            for hd in range(h):
                ctx = st[("weights", l)][hd, last] @ v[:, hd * dh:(hd + 1) * dh]
                heads_out.append(ctx @ T[f"h.{l}.attn.wo"][hd * dh:(hd + 1) * dh])
            parts += heads_out[-h:] + [T[f"h.{l}.attn.bo"]] + ([st[("mlp_out", l)][last]] if cfg["d_mlp"] > 0 else [])
        worst_a, worst_sum = 0.0, 0.0
        for a in att:
            c = vocab.index(a["char"])
            for g, o in enumerate(heads_out):
                worst_a = max(worst_a, abs(a["heads"][g] - dla(o, c)) / (1 + abs(dla(o, c))))
            whole = sum(dla(o, c) for o in parts) + float(T["ln_f.bias"] @ T["wte"][c])
            worst_sum = max(worst_sum, abs(whole - st[("logits", None)][last, c]), abs(a["logit"] - st[("logits", None)][last, c]))
        check(len(att) == 3 and worst_a < 1e-4 and worst_sum < 1e-3,
              f"{name}: each head's logit attribution is numpy's (worst {worst_a:.1e}); the parts add up to the logit (worst {worst_sum:.1e})")

        # the gradient of every tensor: attn lm grad against central differences of numpy's float64 loss
        gtext = text[:-1][:12]
        g = json.loads(subprocess.run([attn, "lm", "grad", "--model", path, "--text", gtext], check=True, capture_output=True).stdout)
        ids = to_ids(gtext)

        def loss_of(T_):
            p = forward(cfg, T_, ids[:-1])[("probs", None)]
            return -np.mean([math.log(p[i, ids[i + 1]]) for i in range(len(ids) - 1)])

        check(abs(g["loss"] - loss_of(T)) < 1e-4, f"{name}: lm grad's loss {g['loss']:.5f} is numpy's")
        rng_g = np.random.default_rng(1)

        def finite_differences(tensor, grad, count):
            """count random entries of grad (of the nonzero ones) against central differences of loss_of in
            tensor (one of T's, changed in place and restored): (the worst relative error, entries checked)"""
            worst, done = 0.0, 0
            flat_idx = np.flatnonzero(np.abs(grad) > 1e-4)
            for idx in rng_g.choice(flat_idx, size=min(count, len(flat_idx)), replace=False) if len(flat_idx) else []:
                pos = np.unravel_index(idx, tensor.shape)
                keep = tensor[pos]
                tensor[pos] = keep + 1e-4
                up = loss_of(T)
                tensor[pos] = keep - 1e-4
                down = loss_of(T)
                tensor[pos] = keep
                fd = (up - down) / 2e-4
                worst = max(worst, abs(fd - grad[pos]) / max(abs(fd), 1e-3))
                done += 1
            return worst, done

        worst_g, checked = 0.0, 0
        for tname, tensor in T.items():
            w_, n_ = finite_differences(tensor, np.array(g["grads"][tname]).reshape(tensor.shape), 3)
            worst_g, checked = max(worst_g, w_), checked + n_
        check(checked >= 3 * len(T) - 6 and worst_g < 2e-2,
              f"{name}: {checked} gradient entries of {len(T)} tensors equal numpy's finite differences (worst relative {worst_g:.1e})")

        # one layer's attention with the model's loss above it (the paused lesson's gradients): attn lm layer-grad's
        # spec through the sequence core's attn grad, each attention weight against numpy's finite differences
        worst_l, checked_l = 0.0, 0
        for l in sorted({0, cfg["n_layer"] - 1}):
            lg = json.loads(subprocess.run([attn, "lm", "layer-grad", "--model", path, "--text", gtext, "--layer", str(l + 1)],
                                           check=True, capture_output=True).stdout)
            check(abs(lg["loss"] - loss_of(T)) < 1e-4 and lg["spec"]["loss"] == "upstream", f"{name}: layer {l + 1}'s grad spec carries numpy's loss")
            sg = json.loads(subprocess.run([attn, "grad", "-"], input=json.dumps(lg["spec"]).encode(), check=True, capture_output=True).stdout)
            for w in ["wq", "bq", "wk", "wv", "bv", "wo", "bo"]:
                tensor = T[f"h.{l}.attn.{w}"]
                w_, n_ = finite_differences(tensor, np.array(sg["grads"][w]).reshape(tensor.shape), 2)
                worst_l, checked_l = max(worst_l, w_), checked_l + n_
        check(checked_l >= 20 and worst_l < 2e-2,
              f"{name}: {checked_l} attention-weight gradients of a layer's upstream grad spec equal numpy's finite differences (worst relative {worst_l:.1e})")

        # head scores: TransformerLens's "mul" detector on numpy's own weights
        heads = json.loads(subprocess.run([attn, "lm", "heads", "--model", path], check=True, capture_output=True).stdout)
        n_ctx, H, L = cfg["n_ctx"], cfg["n_head"], cfg["n_layer"]
        prev, first, align = np.zeros((L, H)), np.zeros((L, H)), np.zeros((L, H))
        rows_p = rows_a = 0
        for start in range(0, min(len(probe) - 1, 16 * n_ctx), n_ctx):
            piece = probe[start:start + n_ctx]
            if len(piece) < 2:
                break
            st = forward(cfg, T, to_ids(piece))
            tg = line_targets(piece)
            for l in range(L):
                A = st[("weights", l)]
                prev[l] += sum(A[:, i, i - 1] for i in range(1, len(piece)))
                first[l] += A[:, 1:, 0].sum(-1)
                align[l] += sum((A[:, i, tg[i]] for i in range(len(piece)) if tg[i] >= 0), np.zeros(H))
            rows_p += len(piece) - 1
            rows_a += sum(1 for t in tg if t >= 0)
        rng = np.random.default_rng(0)
        half, ind = n_ctx // 2, np.zeros((L, H))
        for _ in range(16):
            seq = list(rng.integers(1, min(300, len(vocab) - 1) + 1, half))
            st = forward(cfg, T, seq + seq)
            for l in range(L):
                ind[l] += sum(st[("weights", l)][:, i, i - half + 1] for i in range(half, 2 * half)) / half
        ind /= 16
        for hs in heads:
            l, h = hs["layer"], hs["head"]
            check(abs(hs["previous_token"] - prev[l, h] / rows_p) < 2e-3 and abs(hs["first_token"] - first[l, h] / rows_p) < 2e-3,
                  f"{name}: head {l + 1}.{h + 1} previous-token {hs['previous_token']:.3f}, first-token {hs['first_token']:.3f} as numpy's")
            if rows_a:
                check(abs(hs["line_alignment"] - align[l, h] / rows_a) < 2e-3, f"{name}: head {l + 1}.{h + 1} line-alignment {hs['line_alignment']:.3f}")
            # induction on other random strings: the same head, the same role, within sampling noise
            check(abs(hs["induction"] - ind[l, h]) < 0.08, f"{name}: head {l + 1}.{h + 1} induction {hs['induction']:.3f} (numpy, other strings: {ind[l, h]:.3f})")
        # the roles the page names (at 0.3, TransformerLens's "it does this"): a previous-token head in layer 1, on the
        # held-out probe, and an induction head after it
        check(max(h["previous_token"] for h in heads if h["layer"] == 0) >= 0.3, f"{name}: a previous-token head ≥ 0.3 in layer 1")
        check(max(h["induction"] for h in heads if h["layer"] > 0) >= 0.4, f"{name}: an induction head ≥ 0.4 in a later layer")

        # the held-out split and its bits per character, beside the bigram fitted here
        train, held = "", ""
        for c in corpus:
            t, h_ = split_fortunes(open("/usr/share/games/fortunes/" + c.split(":")[1], encoding="utf-8").read())
            train, held = train + t, held + h_
        a, b = np.array(to_ids(train)), np.array(to_ids(held))
        V = len(vocab)
        uni = (np.bincount(a, minlength=V) + 1.0) / (len(a) + V)
        big = np.zeros((V, V))
        np.add.at(big, (a[:-1], a[1:]), 1)
        rowsum = big.sum(1, keepdims=True)
        cond = np.where(rowsum > 0, big / np.maximum(rowsum, 1), uni[None, :])
        bigram = min(-np.mean(np.log2(lam * cond[b[:-1], b[1:]] + (1 - lam) * uni[b[1:]])) for lam in np.arange(0.01, 1.0, 0.01))
        ev = json.loads(subprocess.run([attn, "lm", "eval", "--model", path, "--heldout"], check=True, capture_output=True).stdout)
        check(abs(ev["bigram_bits_per_char"] - bigram) < 1e-3, f"{name}: the bigram on the held-out split, {bigram:.3f} bits/char, as attn's")
        # numpy's own bits per character on the first 4096 held-out characters, as attn lm eval --text-file
        sample = held[:4097]
        nats, count = 0.0, 0
        for s in range(0, len(sample) - 1, n_ctx):
            w = to_ids(sample[s:s + n_ctx + 1])
            if len(w) < 2:
                break
            p = forward(cfg, T, w[:-1])[("probs", None)]
            nats -= sum(math.log(p[i, w[i + 1]]) for i in range(len(w) - 1))
            count += len(w) - 1
        with open("/tmp/lm_numpy_sample.txt", "w", encoding="utf-8") as f:
            f.write(sample)
        ev2 = json.loads(subprocess.run([attn, "lm", "eval", "--model", path, "--text-file", "/tmp/lm_numpy_sample.txt"], check=True,
                                        capture_output=True).stdout)
        check(abs(ev2["bits_per_char"] - nats / count / math.log(2)) < 1e-3, f"{name}: bits/char of 4096 held-out characters as numpy's")
        check(ev["bits_per_char"] < bigram - 0.25, f"{name}: held-out {ev['bits_per_char']:.3f} bits/char beats the bigram's {bigram:.3f} (unigram {ev['unigram_bits_per_char']:.3f})")
    print("lm_numpy: all checks passed")


if __name__ == "__main__":
    main()
