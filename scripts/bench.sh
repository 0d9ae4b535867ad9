#!/usr/bin/env bash
# Benchmarks, printed side by side in one run (figures, not pass/fail):
#   1. attn bench: the native kernels (materialising and streaming, every SIMD level the CPU has)
#      against their scalar twins; then the portable build against one tuned for this CPU
#   2. web/bench/forward.mjs: a.attention, wasm SIMD, wasm without SIMD, plain JS, TF.js wasm (the fast
#      way, and the transposeB form), onnxruntime-web wasm (graph and fused MultiHeadAttention) and native
#      (with the 4-lane streaming build: the wasm ceiling), n = 16 … 4096, then the full trace of every
#      worked example through the npm API
#      web/bench/path.mjs: the guided path's first figure at 4x CPU slowdown, beside the playground's
#      and web/bench/model_page.mjs: model mode's first render, keystroke and generation rate
#   3. web/bench/threads.mjs: the threaded table in Chromium on the cross-origin-isolated playground:
#      a.attention's wasm-threads module against TF.js's and onnxruntime-web's threaded wasm backends
#   4. web/bench/train.mjs: training steps per second (wasm beside native), and the train page's frame rate
#   5. web/bench/hf_model.mjs: a model you bring of GPT-2 small's shape in headless Chromium, our forward pass,
#      trace and cached step on one thread and on wasm threads against onnxruntime-web (wasm SIMD, 1 and 2 threads)
#      on the same weights exported by torch; web/bench/linear_blocks.cpp: the linear op's register blocks in V8
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
emcmake cmake --preset wasm-nosimd >/dev/null
cmake --build --preset wasm-nosimd -j "$(nproc)" >/dev/null
echo "== native: SIMD kernels vs scalar twins"
build/native/bin/attn bench
echo
echo "== native: the portable build (run-time dispatch) vs a build tuned for this CPU (-march=native)"
cmake -S . -B build/native-tuned -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS=-march=native -DATTN_BUILD_TESTS=OFF >/dev/null
cmake --build build/native-tuned --target attn_cli -j "$(nproc)" >/dev/null
node web/bench/native.mjs build/native/bin/attn build/native-tuned/bin/attn
echo
echo "== node: a.attention against each peer at its best (TF.js, onnxruntime-web), wasm no-SIMD, plain JS, native"
node web/bench/forward.mjs
echo
echo "== page: first render and edit → frame, per example (headless Chromium)"
node web/bench/page.mjs
echo
echo "== the guided path: first drawn figure at 4x CPU slowdown, beside the playground's first stage (headless Chromium)"
node web/bench/path.mjs
echo
echo "== model mode: first render, a keystroke's work, generation rate (headless Chromium)"
node web/bench/model_page.mjs
echo
echo "== page, cross-origin isolated: a.attention on wasm threads vs TF.js and onnxruntime-web with threads (headless Chromium)"
node web/bench/threads.mjs
echo
echo "== training: steps per second (wasm and native), and the train page's frames per second"
node web/bench/train.mjs
echo
echo "== language models: held-out bits/char beside the baselines, head scores, trace/generate/training speeds, sizes"
node web/bench/lm.mjs build/native/bin/attn
echo
echo "== a model you bring, GPT-2 small's shape: our forward pass, trace and cached step, one thread and wasm threads, vs onnxruntime-web (wasm SIMD, 1 and 2 threads) (headless Chromium)"
# torch exports the same weights to ONNX, as transformers.js's GPT-2 is exported (Debian's python3-torch)
dpkg -s python3-torch >/dev/null 2>&1 || DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends python3-torch >/dev/null
mkdir -p build/bench
[ -f build/bench/gpt2-small.onnx ] || /usr/bin/python3 web/bench/gpt2_onnx.py build/bench/gpt2-small build/bench/gpt2-small.onnx
node web/bench/hf_model.mjs build/bench/gpt2-small build/bench/gpt2-small.onnx
echo "the linear op's register blocks and row tiles in V8 (GFLOP/s over GPT-2 small's weights):"
NODE_PATH=/usr/share/nodejs em++ -std=c++17 -O3 -msimd128 -sSINGLE_FILE=1 -sALLOW_MEMORY_GROWTH=1 web/bench/linear_blocks.cpp -o build/bench/linear_blocks.js
node build/bench/linear_blocks.js
echo "native (one thread), the same folder:"
build/native/bin/attn lm bench --model build/bench/gpt2-small --n 64,256 --repeat 2
