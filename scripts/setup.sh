#!/usr/bin/env bash
# Installs what the build and the tests need on Debian 12, and nothing that is already there.
# Everything comes from Debian's archive (see TOOLCHAIN notes in README); run as root.
set -euo pipefail

packages=(
  cmake g++ make pkg-config        # the native build
  xtensor-dev xtl-dev              # tensors of every stage
  nlohmann-json3-dev               # JSON in and out
  doctest-dev                      # the native test suite
  python3 python3-numpy            # the independent numpy oracle for the cross-check
)

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
