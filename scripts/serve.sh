#!/usr/bin/env bash
# Builds everything and serves the playground (site/) on http://127.0.0.1:${PORT:-8000}/,
# cross-origin isolated (scripts/serve.py), where its pages use the wasm-threads module.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh >/dev/null
port="${PORT:-8000}"
echo "serving http://127.0.0.1:${port}/ (Ctrl-C stops)"
# cross-origin isolated (COOP/COEP headers), so the playground runs a.attention on its wasm threads
exec /usr/bin/python3 scripts/serve.py "$port" site
