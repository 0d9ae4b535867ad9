#!/usr/bin/env bash
# Builds everything and serves the playground (site/) on http://127.0.0.1:${PORT:-8000}/.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh >/dev/null
port="${PORT:-8000}"
echo "serving http://127.0.0.1:${port}/ (Ctrl-C stops)"
exec /usr/bin/python3 -m http.server "$port" --bind 127.0.0.1 --directory site
