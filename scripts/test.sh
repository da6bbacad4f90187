#!/usr/bin/env bash
# Configures, builds and runs every test: scripts/test.sh [PRESET...]
# Presets: dev (g++, RelWithDebInfo) and asan (clang with AddressSanitizer
# and UndefinedBehaviorSanitizer); without arguments, both in turn.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh

presets=("$@")
[ ${#presets[@]} -gt 0 ] || presets=(dev asan)
jobs=$(nproc)
for preset in "${presets[@]}"; do
  echo "== $preset: configure, build, test" >&2
  cmake --preset "$preset" >/dev/null
  cmake --build --preset "$preset" -j "$jobs"
  ctest --preset "$preset" -j "$jobs"
done
