#!/usr/bin/env bash
# Runs the planck command, building it first when needed (dev preset):
#   scripts/planck.sh stats corpus/schedules/*.sched
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
bin="$root/build/dev/tools/planck"
(
  cd "$root"
  scripts/bootstrap.sh
  [ -f build/dev/build.ninja ] || cmake --preset dev >/dev/null
  cmake --build build/dev --target planck -j "$(nproc)" >/dev/null
) >&2
exec "$bin" "$@"
