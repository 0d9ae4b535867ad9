#!/usr/bin/env bash
# Builds the site and serves it on http://127.0.0.1:${PORT:-8000}/, cross-origin isolated (scripts/serve.py),
# where its pages use the wasm-threads module.
# The pages first: the core and its four parts (the guided path and the playground need nothing else) are
# built and served within minutes of a fresh clone; the rest of scripts/build.sh (the native build, the two
# language models' training, the language model's module, the threads build, the lab) goes on behind the
# server, its output in build/serve.log. Meanwhile site/assets/building.json is there: the model mode and the
# lab say they are still being built and reload themselves when it is gone. The files of that second build are
# written beside the site (build/site-next) and moved in one by one, so a page never reads a file half written.
set -euo pipefail
cd "$(dirname "$0")/.."
port="${PORT:-8000}"
assets=site/assets

# the pages: Debian and npm packages (Dear ImGui's sources wait for the lab), the wasm core and its parts
ATTN_SETUP_PAGES_ONLY=1 bash scripts/setup.sh
emcmake cmake --preset wasm -DATTN_BUILD_LAB=OFF >/dev/null
echo "serve: building the pages' modules (the rest is built behind the server: build/serve.log)"
cmake --build --preset wasm -j "$(nproc)" --target attention_pages >/dev/null
mkdir -p "$assets" build
echo '{"building": true}' > "$assets/building.json"
node web/build-site.mjs >/dev/null

/usr/bin/python3 scripts/serve.py "$port" site &
server=$!
trap 'kill $server 2>/dev/null; rm -f "$assets/building.json"' EXIT INT TERM
echo "serving http://127.0.0.1:${port}/ (Ctrl-C stops); the models, the lab and the threads build follow behind (build/serve.log)"

# the rest, behind the server: everything scripts/build.sh builds, its site into build/site-next/assets
rm -rf build/site-next
if ATTN_SITE_ASSETS=build/site-next/assets bash scripts/build.sh > build/serve.log 2>&1; then
  (cd build/site-next/assets && find . -type d -exec mkdir -p "../../../$assets/{}" \; && find . -type f -exec mv -f {} "../../../$assets/{}" \;)
  echo "serve: everything is built (the model mode and the lab too)"
else
  echo "serve: the build behind the server failed (build/serve.log); the pages it had built are still served" >&2
fi
rm -f "$assets/building.json"
wait "$server"
