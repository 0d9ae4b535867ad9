#!/usr/bin/env bash
# Builds the core and serves the playground on http://127.0.0.1:${PORT:-8000}/.
# Until the wasm page lands, the playground is a static preview of every worked example,
# computed by the native attn CLI (tables and full traces).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh >/dev/null
/usr/bin/python3 scripts/make_preview_site.py build/native/bin/attn build/site
port="${PORT:-8000}"
echo "serving http://127.0.0.1:${port}/ (Ctrl-C stops)"
exec /usr/bin/python3 -m http.server "$port" --bind 127.0.0.1 --directory build/site
