#!/usr/bin/env bash
# Reproduces a failure in one command:
#   scripts/repro.sh FILE.sched      a schedule (a property's shrunk failure, a
#                                    regression, verify's output): every planner
#                                    of this project plans it, and each plan goes
#                                    through the checker and the shadow executor
#   scripts/repro.sh FILE.sched PLANNER-OPTIONS
#                                    the same for one planner, of this project or
#                                    written elsewhere (--planner NAME,
#                                    --planner-cmd CMD [--persistent],
#                                    --planner-lib PATH), through planck verify
#   scripts/repro.sh CRASH-INPUT [--planner-lib PATH]
#                                    a fuzz target's crash input (its name starts
#                                    with the target's, as the nightly run writes
#                                    it): the target runs on it once
# Exit 0 when nothing fails.
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: scripts/repro.sh FILE [PLANNER-OPTIONS]" >&2; exit 2; }
file=$(realpath "$1")
shift
cd "$(dirname "$0")/.."
scripts/bootstrap.sh
[ -f build/dev/build.ninja ] || cmake --preset dev >/dev/null

base=$(basename "$file")
# A schedule is text, whatever its name: the report names the schedule of a
# fuzz crash after the crash input.
case "$base" in *.sched|*.csv) base= ;; esac
for target in fuzz_planner_lib fuzz_planners fuzz_schedule fuzz_plan fuzz_intervals fuzz_tlsf fuzz_oracle fuzz_import; do
  if [ -n "$base" ] && [[ "$base" == "$target"* ]]; then
    if [ "$target" = fuzz_planner_lib ]; then
      [ "${1:-}" = --planner-lib ] && [ -n "${2:-}" ] ||
        { echo "repro: $base is fuzz_planner_lib's: name its library with --planner-lib PATH" >&2; exit 2; }
      export PLANCK_PLANNER_LIB=$(realpath "$2")
    fi
    cmake --build build/dev --target "$target" -j "$(nproc)" >/dev/null
    exec build/dev/fuzz/$target "$file"
  fi
done

cmake --build build/dev --target planck -j "$(nproc)" >/dev/null
planck=build/dev/tools/planck
if [ $# -gt 0 ]; then
  out=$(mktemp -d)
  trap 'rm -rf "$out"' EXIT
  "$planck" verify "$@" --out "$out" "$file"
  exit $?
fi
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
