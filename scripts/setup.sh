#!/usr/bin/env bash
# Installs what the build and the tests need on Debian 12, and nothing that is already there:
# Debian packages with apt, the web tooling with npm (web/package-lock.json). Run as root.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(
  cmake g++ make pkg-config gzip   # the native build
  xz-utils                         # packs model mode's wasm in its script (LZMA: web/build-site.mjs)
  xtensor-dev xtl-dev              # tensors of every stage
  nlohmann-json3-dev               # JSON in and out
  doctest-dev                      # the native test suite
  python3 python3-numpy            # the independent numpy oracle for the cross-check
  emscripten wabt                  # the WebAssembly build, and wasm-objdump to prove its SIMD
  chromium                         # headless browser tests (driven by npm's playwright-core)
  fonts-wqy-microhei               # CJK glyphs: the tests' screenshots, and the lab's font (subset)
  fonts-dejavu-core                # the lab's glyphs WenQuanYi lacks (ᵀ)
  python3-fonttools                # subsets that font for the lab at build time
  libimgui-dev libglfw3-dev libstb-dev   # the native lab: Dear ImGui 1.86, GLFW, stb_image_write
  xvfb libgl1-mesa-dri             # the native lab's screenshot test: Xvfb with Mesa's llvmpipe OpenGL
  fortunes fortunes-zh             # the language models' corpora (docs/model.md, docs/sources.md)
)
command -v node >/dev/null || packages+=(nodejs npm)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# Vite 7 needs Node 20.19 or newer; Debian 12's own nodejs is 18 (enough for the package itself).
node -e 'const [a, b] = process.versions.node.split(".").map(Number); process.exit(a > 20 || (a === 20 && b >= 19) ? 0 : 1)' ||
  echo "setup: warning: node $(node --version) is older than 20.19; the Vite 7 test will fail" >&2

# npm ci only when the lock file changed since the last install
if [[ ! -f web/node_modules/.package-lock.json || web/package-lock.json -nt web/node_modules/.package-lock.json ]]; then
  echo "setup: npm ci in web/"
  (cd web && npm ci --no-audit --no-fund --loglevel=error)
fi

# Dear ImGui's sources for the web lab, from Debian's source package (never committed). apt-get
# source needs deb-src entries, which a fresh Debian image does not have: they are derived from the
# machine's own deb entries into a private apt directory under build/deps, so nothing under /etc is
# written, no host is named here, and no root is needed for this step.
# (ATTN_SETUP_PAGES_ONLY=1: not yet; scripts/serve.sh serves the pages first and builds the lab behind them)
if [[ -z "${ATTN_SETUP_PAGES_ONLY:-}" && ! -f build/deps/imgui-1.86/imgui.cpp ]]; then
  echo "setup: fetching Dear ImGui 1.86 sources (apt-get source imgui)"
  apt_dir="$PWD/build/deps/apt"
  rm -rf "$apt_dir" && mkdir -p "$apt_dir/sources.list.d" "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial"
  for f in /etc/apt/sources.list.d/*.sources; do
    [[ -f "$f" ]] && sed 's/^Types:.*/Types: deb-src/' "$f" > "$apt_dir/sources.list.d/$(basename "$f")"
  done
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [[ -f "$f" ]] && sed -n 's/^deb\s/deb-src /p' "$f" > "$apt_dir/sources.list.d/$(basename "$f").list"
  done
  apt_private=(-o "Dir::Etc::SourceList=/dev/null" -o "Dir::Etc::SourceParts=$apt_dir/sources.list.d"
               -o "Dir::State::Lists=$apt_dir/lists" -o "Dir::Cache=$apt_dir/cache" -o "APT::Sandbox::User=$(id -un)")
  apt-get "${apt_private[@]}" update -qq
  mkdir -p build/deps
  (cd build/deps && apt-get "${apt_private[@]}" source --download-only imgui >/dev/null 2>&1 && tar xf imgui_1.86+ds.orig.tar.xz)
fi
