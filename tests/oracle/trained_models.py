#!/usr/bin/env python3
"""The three trained test models (`attn lm train --arch`, scripts/models.sh) against the numpy oracle and for what they say.

usage: /usr/bin/python3 trained_models.py MODELS_DIR --attn PATH

For each of gpt2, llama and qwen2 in F32, F16 and BF16:
  - `attn lm trace` of the articles' sentence and of an English line equals the oracle's every stage of every
    layer (hf_numpy.compare), greedy generation through the cache equals the oracle's whole passes, and
    `attn lm step`'s cache is the oracle's keys and values;
and for each architecture in F32, that the model learned its corpus, measured on texts it never read:
  - on a fortunes file outside its corpus (fortunes:love), the oracle's cross-entropy per token is at least
    0.5 nats under a unigram model of the training corpus tokenized the same way;
  - what `attn lm generate` writes (three seeds at temperature 0.7) is mostly words of the English corpus.
Both are also run on a random-weight folder of the same layout, where they must fail.
"""
import argparse
import collections
import json
import math
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hf_numpy  # noqa: E402

FORTUNES = "/usr/share/games/fortunes"
UNSEEN_FILE = "love"  # not in the English recipe's corpus, which the trainer reads
TEXTS = ["我今天去了火锅店，那家店需要提前预约吗？", "A friend in need is a friend indeed, and the rest"]
MARGIN_NATS, WORDS_SHARE = 0.5, 0.7


def tokenize_file(attn, folder, text):
    with tempfile.NamedTemporaryFile("w", suffix=".txt", encoding="utf-8", delete=False) as f:
        f.write(text)
    try:
        return [int(i) for i in hf_numpy.run_json([attn, "lm", "tokenize", "--model", folder, "--text-file", f.name])["ids"]]
    finally:
        os.remove(f.name)


def prose(raw):
    """Each fortune on one line, its whitespace runs one space, a blank line between fortunes (as the trainer reads them)."""
    return "\n\n".join(" ".join(f.split()) for f in raw.split("\n%\n") if f.strip()) + "\n\n"


def corpus_en(attn):
    names = hf_numpy.run_json([attn, "lm", "recipe", "en"])["corpus"]  # "fortunes:art", …
    return prose("".join(open(os.path.join(FORTUNES, n.split(":")[1]), encoding="utf-8").read() for n in names))


def unseen_text(chars=700):
    t = prose(open(os.path.join(FORTUNES, UNSEEN_FILE), encoding="utf-8").read())
    return t[:t.rfind("\n\n", 0, chars)]


def learned_margin(attn, folder, vocab, corpus):
    """(unigram nats per token, the model's nats per token) on the unseen text."""
    train = tokenize_file(attn, folder, corpus)
    ids = tokenize_file(attn, folder, unseen_text())
    counts = collections.Counter(train)
    total = len(train) + 0.5 * vocab
    unigram = -np.mean([math.log((counts[i] + 0.5) / total) for i in ids[1:]])
    probs = [s for s in hf_numpy.forward(folder, ids) if s["id"] == "probs"][0]["data"]
    model = -np.mean([math.log(max(probs[t, ids[t + 1]], 1e-300)) for t in range(len(ids) - 1)])
    return float(unigram), float(model), len(ids)


def words_share(attn, folder, words):
    made = []
    for seed in (1, 2, 3):
        p = subprocess.run([attn, "lm", "generate", "--model", folder, "--prompt", "The", "--n", "40", "--temperature", "0.7",
                            "--seed", str(seed)], capture_output=True, timeout=300)
        if p.returncode != 0:
            raise RuntimeError(p.stderr.decode(errors="replace"))
        made.append(p.stdout.decode("utf-8", errors="replace").strip())
    found = [w.lower() for w in re.findall(r"[A-Za-z]{2,}", " ".join(made))]
    share = sum(w in words for w in found) / max(1, len(found))
    return share, len(found), made


def said_something(attn, folder, arch, corpus, words, label):
    """-> (passed, line)."""
    config = json.load(open(os.path.join(folder, "config.json")))
    unigram, model, n = learned_margin(attn, folder, config["vocab_size"], corpus)
    share, count, made = words_share(attn, folder, words)
    ok = model <= unigram - MARGIN_NATS and share >= WORDS_SHARE and count >= 20
    line = ("%s %s: fortunes:%s (%d tokens) %.3f nats/token, unigram %.3f (margin %.3f, needs %.1f); generated words "
            "in the corpus %.0f%% of %d (needs %.0f%%); e.g. %r" % (
                label, arch, UNSEEN_FILE, n, model, unigram, unigram - model, MARGIN_NATS, 100 * share, count,
                100 * WORDS_SHARE, made[0][:120]))
    return ok, line


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("models")
    ap.add_argument("--attn", required=True)
    a = ap.parse_args(argv)
    failures = 0
    corpus = corpus_en(a.attn)
    words = set(w.lower() for w in re.findall(r"[A-Za-z]{2,}", corpus))
    for arch in hf_numpy.ARCHS:
        for k, dtype in enumerate(hf_numpy.DTYPES):
            folder = os.path.join(a.models, "%s-%s" % (arch, dtype.lower()))
            if not os.path.exists(os.path.join(folder, "model.safetensors")):
                print("FAIL: %s has no model: scripts/models.sh trains the test models (bash scripts/build.sh runs it)" % folder)
                return 1
            print("== %s" % os.path.basename(folder), flush=True)
            failures += hf_numpy.compare(folder, a.attn, TEXTS[0], 1e-4)
            if dtype == "F32":
                failures += hf_numpy.compare(folder, a.attn, TEXTS[1], 1e-4)
                failures += hf_numpy.step_check(folder, a.attn, "The cat sat on the mat and 猫")
            failures += hf_numpy.greedy(folder, a.attn, "The", 6)
        ok, line = said_something(a.attn, os.path.join(a.models, arch + "-f32"), arch, corpus, words, "trained")
        print(("ok: " if ok else "FAIL: ") + line, flush=True)
        failures += 0 if ok else 1
        # the same measures on random weights in the same layout must fail, or they prove nothing
        with tempfile.TemporaryDirectory(prefix="attn-untrained-") as tmp:
            hf_numpy.write_folder(tmp, arch, "F32", seed=0)
            ok, line = said_something(a.attn, tmp, arch, corpus, words, "random weights")
            print(("ok (fails as it must): " if not ok else "FAIL (random weights pass): ") + line, flush=True)
            failures += 1 if ok else 0
    print("trained models: %d failures" % failures)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
