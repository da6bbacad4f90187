#!/usr/bin/env bash
# Gates a planner change: run before merging one.
#   scripts/gate.sh [BASE]        BASE defaults to origin/main, else main
# 1. every test, with 2000 cases per property (PROPERTY_CASES to change);
# 2. every planner on every corpus schedule: each plan must pass the checker
#    and the shadow executor;
# 3. the arena of every (schedule, device, planner) against BASE's: the
#    reference planner's must not change at all (its plans are a contract,
#    byte for byte); any other planner's growing is listed.
# Exit 0 when the change may land.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
scripts/bootstrap.sh
base="${1:-$(git rev-parse --verify -q origin/main || echo main)}"
cases="${PROPERTY_CASES:-2000}"
failed=0
work=$(mktemp -d)
trap 'git worktree remove --force "$work/base" >/dev/null 2>&1; rm -rf "$work"' EXIT

cmake --preset dev >/dev/null && cmake --build --preset dev -j "$(nproc)" >"$work/build.log" 2>&1 ||
  { tail -n 30 "$work/build.log"; echo "gate: the build failed" >&2; exit 1; }
RC_PARAMS="max_success=$cases" ctest --preset dev || { echo "gate: tests failed" >&2; failed=1; }

# One line per (schedule, planner, device): the arena size, from planck stats,
# for every planner `planck planners` lists in this tree (BASE lacks a new one,
# whose rows then have nothing to compare with).
arenas() {
  local planck=$1 planner
  for planner in $planners; do
    "$planck" stats --planner "$planner" corpus/schedules/*.sched corpus/regressions/*.sched 2>/dev/null |
      awk -v p="$planner" 'NR > 1 { print $1, p, $2, $5 }'
  done
}

planck=build/dev/tools/planck
planners=$("$planck" planners | awk '{ print $1 }')
[ -n "$planners" ] || { echo "gate: planck planners lists no planner" >&2; exit 1; }
for f in corpus/schedules/*.sched corpus/regressions/*.sched; do
  scripts/repro.sh "$f" >"$work/repro.log" 2>&1 || { cat "$work/repro.log"; failed=1; }
done

git worktree add -q --detach "$work/base" "$base" 2>/dev/null ||
  { echo "gate: cannot check out $base" >&2; exit 1; }
(cd "$work/base" && cmake --preset dev >/dev/null && cmake --build --preset dev --target planck -j "$(nproc)") \
  >"$work/base-build.log" 2>&1 || { echo "gate: $base does not build" >&2; exit 1; }
arenas "$planck" >"$work/new"
(cd "$root" && arenas "$work/base/build/dev/tools/planck") >"$work/old"

# Compare: key = schedule planner device.
keyed() { awk '{print $1"|"$2"|"$3, $4}' "$1" | LC_ALL=C sort; }
LC_ALL=C join -j1 <(keyed "$work/old") <(keyed "$work/new") |
  while read -r key old new; do
    IFS='|' read -r sched planner device <<<"$key"
    if [ "$planner" = tlsf ] && [ "$old" != "$new" ]; then
      echo "gate: the reference plan of $sched on $device changed: arena $old -> $new"
      echo fail >>"$work/verdict"
    elif [ "$new" -gt "$old" ] 2>/dev/null; then
      echo "gate: $planner grew the arena of $sched on $device: $old -> $new"
    fi
  done
[ -e "$work/verdict" ] && failed=1
[ $failed -eq 0 ] && echo "gate: passed" || echo "gate: FAILED" >&2
exit $failed
