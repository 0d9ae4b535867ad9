#!/usr/bin/env bash
# Builds everything: the native core, CLI and tests (build/native), the WebAssembly module
# (build/wasm, copied into web/dist/core with its size printed), the two language models (build/native/models,
# copied into web/models), the language model's module (web/dist/lm), the same with wasm threads
# (build/wasm-threads → web/dist/core-threads and web/dist/hf-threads) and the site's bundle.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cmake --preset native >/dev/null
cmake --build --preset native -j "$(nproc)"
# the two language models, trained by the native CLI only when their inputs changed (scripts/models.sh)
bash scripts/models.sh
# emcmake: Emscripten's toolchain; NODE_PATH=/usr/share/nodejs comes from the preset (docs/toolchain.md)
# (the lab explicitly: scripts/serve.sh configures this folder without it first, to serve the pages sooner)
emcmake cmake --preset wasm -DATTN_BUILD_LAB=ON >/dev/null
cmake --build --preset wasm -j "$(nproc)"
# the same core and model folders' module with wasm threads (web/dist/core-threads, web/dist/hf-threads), for
# cross-origin-isolated pages
emcmake cmake --preset wasm-threads >/dev/null
cmake --build --preset wasm-threads -j "$(nproc)"
# the site's scripts into site/assets/: the ES modules (esm/), the classic bundle for file://, model mode's script
node web/build-site.mjs
