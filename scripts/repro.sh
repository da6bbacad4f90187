#!/usr/bin/env bash
# Reproduces a failure in one command:
#   scripts/repro.sh FILE.sched      a schedule (a property's shrunk failure, a
#                                    regression): every planner plans it, and
#                                    each plan goes through the checker and the
#                                    shadow executor
#   scripts/repro.sh CRASH-INPUT     a fuzz target's crash input (its name starts
#                                    with the target's, as the nightly run writes
#                                    it): the target runs on it once
# Exit 0 when nothing fails.
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: scripts/repro.sh FILE" >&2; exit 2; }
file=$(realpath "$1")
cd "$(dirname "$0")/.."
scripts/bootstrap.sh
[ -f build/dev/build.ninja ] || cmake --preset dev >/dev/null

base=$(basename "$file")
for target in fuzz_schedule fuzz_plan fuzz_intervals; do
  if [[ "$base" == "$target"* ]]; then
    cmake --build build/dev --target "$target" -j "$(nproc)" >/dev/null
    exec build/dev/fuzz/$target "$file"
  fi
done

cmake --build build/dev --target planck -j "$(nproc)" >/dev/null
planck=build/dev/tools/planck
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
for planner in tlsf greedy bysize naive best; do
  echo "== $planner"
  if ! "$planck" plan --planner "$planner" "$file" -o "$tmp/$planner.plan"; then
    status=1
    continue
  fi
  "$planck" check "$file" "$tmp/$planner.plan" || status=1
  "$planck" run "$file" "$tmp/$planner.plan" || status=1
done
exit $status
