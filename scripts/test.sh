#!/usr/bin/env bash
# Builds everything and runs every test suite through ctest: doctest, the CLI's refusals,
# the numpy cross-check, the installed CMake package, the wasm module under node:test,
# and the npm tarball in Node, TypeScript and a Vite page in headless Chromium.
# Ends with ctest's summary line; exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
ctest --preset native
