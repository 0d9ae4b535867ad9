#!/usr/bin/env bash
# Builds everything and runs every test suite: doctest, the CLI's refusals, the numpy
# cross-check (240 random specs) and the installed CMake package. Ends with ctest's summary line.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cmake --preset native
cmake --build --preset native -j "$(nproc)"
ctest --preset native
