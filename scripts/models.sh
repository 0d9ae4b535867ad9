#!/usr/bin/env bash
# Trains the two shipped language models (docs/model.md) with the native attn CLI, one after the other (each
# splits its batch over two threads), into build/native/models/{zh,en}.safetensors, and copies them into
# web/models/ for the npm package.
# A model is trained again only when its inputs changed: its recipe (`attn lm recipe NAME`: corpus files,
# config, vocabulary cap, every training setting), the corpus files' bytes, and the code that trains and
# writes a model (listed in training_code below; the trace, head scores and captions are not in it, so
# editing those does not train again). Their SHA-256 is kept beside the model as NAME.inputs.
set -euo pipefail
cd "$(dirname "$0")/.."
attn=build/native/bin/attn
out=build/native/models
mkdir -p "$out" web/models

training_code=(core/src/lm/model.cpp core/src/lm/batched.cpp core/src/lm/kernels.cpp core/src/lm/kernels.hpp
               core/src/lm/train.cpp core/src/lm/recipes.cpp core/src/lm/safetensors.cpp core/cli/lm.cpp
               core/include/attn/lm.hpp core/include/attn/lm_train.hpp core/include/attn/lm_json.hpp
               core/src/sequence/positional.cpp core/CMakeLists.txt)

inputs_of() {
  local recipe
  recipe=$("$attn" lm recipe "$1")
  {
    echo "$recipe"
    # the corpus files named in the recipe ("fortunes-zh:tang300" lives at /usr/share/games/fortunes/tang300)
    for f in $(node -e 'for (const c of JSON.parse(process.argv[1]).corpus) console.log(c.split(":")[1])' "$recipe"); do
      sha256sum "/usr/share/games/fortunes/$f"
    done
    cat "${training_code[@]}"
  } | sha256sum | cut -d' ' -f1
}

for name in zh en; do
  key=$(inputs_of "$name")
  if [[ -f "$out/$name.safetensors" && "$(cat "$out/$name.inputs" 2>/dev/null)" == "$key" ]]; then
    echo "models: $name is up to date"
    continue
  fi
  echo "models: training $name (its inputs changed; log in $out/$name.log)"
  rm -f "$out/$name.inputs"
  start=$(date +%s)
  "$attn" lm train --recipe "$name" --out "$out/$name.tmp" > "$out/$name.log" ||
    { echo "models: training $name failed (see $out/$name.log)" >&2; exit 1; }
  mv "$out/$name.tmp" "$out/$name.safetensors"
  echo "$key" > "$out/$name.inputs"
  echo "models: $name trained in $(( $(date +%s) - start )) s: $(tail -n 1 "$out/$name.log")"
done
for name in zh en; do
  cp "$out/$name.safetensors" web/models/
  echo "models: $name.safetensors $(stat -c %s "$out/$name.safetensors") bytes, $(gzip -9 -c "$out/$name.safetensors" | wc -c) gzipped (budget 800 KB)"
done
