#!/usr/bin/env bash
# Installs every Debian package Planck needs to build, test, fuzz and benchmark.
# Idempotent: packages already present are not fetched again.
set -euo pipefail

packages=(
  g++ clang cmake ninja-build pkg-config
  libgtest-dev libgmock-dev libbenchmark-dev librapidcheck-dev
  libz3-dev z3
  libcli11-dev libfmt-dev nlohmann-json3-dev
  libclang-rt-14-dev libmimalloc-dev ccache
  libonnx-dev libprotobuf-dev protobuf-compiler
  librsvg2-bin
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "bootstrap: installing ${missing[*]}" >&2
if [ "$(id -u)" -ne 0 ]; then
  sudo=sudo
else
  sudo=
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
