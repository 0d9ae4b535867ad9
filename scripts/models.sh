#!/usr/bin/env bash
# Trains the two shipped language models (docs/model.md) with the native attn CLI, both at once (one core
# each), into build/native/models/{zh,en}.safetensors, and copies them into web/models/ for the npm package.
# A model is trained again only when its inputs changed: its recipe (`attn lm recipe NAME`: corpus files,
# config, vocabulary cap, every training setting), the corpus files' bytes, and the training code
# (core/src/lm/, core/include/attn/lm*.hpp). Their SHA-256 is kept beside the model as NAME.inputs.
set -euo pipefail
cd "$(dirname "$0")/.."
attn=build/native/bin/attn
out=build/native/models
mkdir -p "$out" web/models

inputs_of() {
  local recipe
  recipe=$("$attn" lm recipe "$1")
  {
    echo "$recipe"
    # the corpus files named in the recipe ("fortunes-zh:tang300" lives at /usr/share/games/fortunes/tang300)
    for f in $(node -e 'for (const c of JSON.parse(process.argv[1]).corpus) console.log(c.split(":")[1])' "$recipe"); do
      sha256sum "/usr/share/games/fortunes/$f"
    done
    cat core/src/lm/*.cpp core/src/lm/*.hpp core/include/attn/lm*.hpp
  } | sha256sum | cut -d' ' -f1
}

pids=()
names=()
for name in zh en; do
  key=$(inputs_of "$name")
  if [[ -f "$out/$name.safetensors" && "$(cat "$out/$name.inputs" 2>/dev/null)" == "$key" ]]; then
    echo "models: $name is up to date"
    continue
  fi
  echo "models: training $name (its inputs changed; log in $out/$name.log)"
  rm -f "$out/$name.inputs"
  ( start=$(date +%s)
    "$attn" lm train --recipe "$name" --out "$out/$name.tmp" > "$out/$name.log"
    mv "$out/$name.tmp" "$out/$name.safetensors"
    echo "$key" > "$out/$name.inputs"
    echo "models: $name trained in $(( $(date +%s) - start )) s: $(tail -n 1 "$out/$name.log")" ) &
  pids+=($!)
  names+=("$name")
done
for i in "${!pids[@]}"; do
  wait "${pids[$i]}" || { echo "models: training ${names[$i]} failed (see $out/${names[$i]}.log)" >&2; exit 1; }
done
for name in zh en; do
  cp "$out/$name.safetensors" web/models/
  echo "models: $name.safetensors $(stat -c %s "$out/$name.safetensors") bytes, $(gzip -9 -c "$out/$name.safetensors" | wc -c) gzipped (budget 800 KB)"
done
