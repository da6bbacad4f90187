#!/usr/bin/env bash
# Gates a planner change: run before merging one.
#   scripts/gate.sh [BASE]        this project's planners; BASE defaults to
#                                 origin/main, else main
#   scripts/gate.sh --planner-cmd CMD [--persistent] --baseline FILE [GATE-OPTION...]
#   scripts/gate.sh --planner-lib PATH --baseline FILE [GATE-OPTION...]
#                                 a planner written elsewhere (docs/verification.md#judging-your-own-planner)
#                                 against its baseline: only `planck gate`,
#                                 given these options as they are (add
#                                 --update-baseline to make the baseline)
# For this project's planners:
# 1. every test, with 2000 cases per property (PROPERTY_CASES to change);
# 2. every planner on every corpus schedule: each plan must pass the checker
#    and the shadow executor;
# 3. `planck gate` for every planner `planck planners` lists, against
#    corpus/baselines/NAME.json: no invalid plan on the corpus, the
#    regressions or GATE_CASES generated cases (default 1000), no arena of
#    the quality corpus grown;
# 4. the reference planner's plans against BASE's: they must not change at
#    all (its plans are a contract, byte for byte).
# Exit 0 when the change may land.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
scripts/bootstrap.sh
planck=build/dev/tools/planck
gate_cases="${GATE_CASES:-1000}"

if [ "${1:-}" != "${1#--}" ]; then
  case " $* " in
    *" --planner-cmd "* | *" --planner-lib "*) ;;
    *) echo "usage: scripts/gate.sh --planner-cmd CMD|--planner-lib PATH --baseline FILE [GATE-OPTION...]" >&2
       exit 2 ;;
  esac
  cmake --preset dev >/dev/null && cmake --build --preset dev --target planck -j "$(nproc)" >/dev/null ||
    { echo "gate: the build failed" >&2; exit 1; }
  exec "$planck" gate "$@"
fi

base="${1:-$(git rev-parse --verify -q origin/main || echo main)}"
cases="${PROPERTY_CASES:-2000}"
failed=0
work=$(mktemp -d)
trap 'git worktree remove --force "$work/base" >/dev/null 2>&1; rm -rf "$work"' EXIT

cmake --preset dev >/dev/null && cmake --build --preset dev -j "$(nproc)" >"$work/build.log" 2>&1 ||
  { tail -n 30 "$work/build.log"; echo "gate: the build failed" >&2; exit 1; }
RC_PARAMS="max_success=$cases" ctest --preset dev || { echo "gate: tests failed" >&2; failed=1; }

planners=$("$planck" planners | awk '{ print $1 }')
[ -n "$planners" ] || { echo "gate: planck planners lists no planner" >&2; exit 1; }
for f in corpus/schedules/*.sched corpus/regressions/*.sched; do
  scripts/repro.sh "$f" >"$work/repro.log" 2>&1 || { cat "$work/repro.log"; failed=1; }
done

for planner in $planners; do
  baseline=corpus/baselines/$planner.json
  if [ ! -f "$baseline" ]; then
    echo "gate: $planner has no baseline; make one with:" >&2
    echo "  $planck gate --planner $planner --baseline $baseline --update-baseline" >&2
    failed=1
    continue
  fi
  echo "== planck gate --planner $planner --baseline $baseline --cases $gate_cases"
  "$planck" gate --planner "$planner" --baseline "$baseline" --cases "$gate_cases" || failed=1
done

# The reference planner's plan of every instance, at BASE and here.
git worktree add -q --detach "$work/base" "$base" 2>/dev/null ||
  { echo "gate: cannot check out $base" >&2; exit 1; }
(cd "$work/base" && cmake --preset dev >/dev/null && cmake --build --preset dev --target planck -j "$(nproc)") \
  >"$work/base-build.log" 2>&1 || { echo "gate: $base does not build" >&2; exit 1; }
shopt -s nullglob
for f in corpus/schedules/*.sched corpus/regressions/*.sched corpus/intervals/*.csv \
         ../shared/intervals/*.csv ../shared/minimalloc/*.csv; do
  case "$f" in *.*.sched) continue ;; esac  # expected outputs beside the inputs
  "$planck" plan --planner tlsf "$f" -o "$work/new.plan" 2>"$work/new.err" ||
    { echo "gate: the reference planner fails on $f: $(cat "$work/new.err")"; failed=1; continue; }
  # A BASE that cannot read the instance has no plan to compare with.
  (cd "$root" && "$work/base/build/dev/tools/planck" plan --planner tlsf "$f" -o "$work/old.plan") 2>/dev/null ||
    continue
  cmp -s "$work/old.plan" "$work/new.plan" ||
    { echo "gate: the reference plan of $f changed against $base:"; diff "$work/old.plan" "$work/new.plan" | head -20
      failed=1; }
done
[ $failed -eq 0 ] && echo "gate: passed" || echo "gate: FAILED" >&2
exit $failed
