#!/usr/bin/env bash
# Benchmarks, printed side by side in one run (figures, not pass/fail):
#   1. attn bench: the native SIMD kernels against their scalar twins
#   2. web/bench/forward.mjs: wasm SIMD, wasm without SIMD, plain JS, TF.js wasm and native,
#      then the full trace of every worked example through the npm API
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
emcmake cmake --preset wasm-nosimd >/dev/null
cmake --build --preset wasm-nosimd -j "$(nproc)" >/dev/null
echo "== native: SIMD kernels vs scalar twins"
build/native/bin/attn bench
echo
echo "== node: wasm SIMD, wasm no-SIMD, plain JS, TF.js wasm, native"
node web/bench/forward.mjs
echo
echo "== page: first render and edit → frame, per example (headless Chromium)"
node web/bench/page.mjs
