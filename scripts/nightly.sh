#!/usr/bin/env bash
# The nightly run: every test with many more property cases, each fuzz
# target for a while, and the optimum benchmark. Everything it finds lands
# in one folder as it is found (libFuzzer writes a crash input before it
# exits; properties write their shrunk schedule when they fail), so a run
# that is killed loses nothing it found.
#
#   scripts/nightly.sh                       # results in nightly/YYYY-MM-DD
#   PROPERTY_CASES=20000 FUZZ_SECONDS=3600 scripts/nightly.sh
#   scripts/nightly.sh PLANNER-OPTIONS       # also planck verify on that planner
#                                            # (--planner NAME, --planner-cmd CMD
#                                            # [--persistent], --planner-lib PATH;
#                                            # a library is fuzzed in-process too)
#
# Exit 0 when nothing failed; 1 otherwise, with the failures listed and the
# command that reproduces each (scripts/repro.sh).
set -uo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
scripts/bootstrap.sh

out="${PLANCK_NIGHTLY_DIR:-$root/nightly/$(date +%F)}"
cases="${PROPERTY_CASES:-5000}"
fuzz_seconds="${FUZZ_SECONDS:-900}"
verify_seconds="${VERIFY_SECONDS:-900}"
planner=("$@")
mkdir -p "$out/failures" "$out/crashes"
failed=0
log() { echo "nightly: $*" | tee -a "$out/summary.txt"; }

log "results in $out"
cmake --preset dev >/dev/null && cmake --build --preset dev -j "$(nproc)" >"$out/build-dev.log" 2>&1 ||
  { log "FAILED: dev build (see build-dev.log)"; exit 1; }

if [ ${#planner[@]} -gt 0 ]; then
  log "verify ${planner[*]} for ${verify_seconds}s"
  if build/dev/tools/planck verify "${planner[@]}" --cases 0 --time "$verify_seconds" \
       --out "$out/failures" --json "$out/verify.json" >"$out/verify.log" 2>&1; then
    log "verify: passed (see verify.log)"
  else
    log "FAILED: verify (see verify.log)"
    failed=1
  fi
fi

log "tests with $cases cases per property"
if PLANCK_FAILURE_DIR="$out/failures" RC_PARAMS="max_success=$cases" \
     ctest --preset dev --timeout 3600 >"$out/ctest.log" 2>&1; then
  log "tests: passed"
else
  log "FAILED: tests (see ctest.log)"
  failed=1
fi

cmake --preset fuzz >/dev/null && cmake --build --preset fuzz -j "$(nproc)" \
  --target fuzz_schedule fuzz_plan fuzz_intervals fuzz_planners fuzz_planner_lib >"$out/build-fuzz.log" 2>&1 ||
  { log "FAILED: fuzz build (see build-fuzz.log)"; exit 1; }
targets=(fuzz_schedule fuzz_plan fuzz_intervals fuzz_planners)
if [ "${planner[0]:-}" = --planner-lib ]; then
  export PLANCK_PLANNER_LIB=$(realpath "${planner[1]}")
  targets+=(fuzz_planner_lib)
fi
for target in "${targets[@]}"; do
  work="$out/corpus/$target"
  seeds="corpus/fuzz/$target"
  [ "$target" = fuzz_planner_lib ] && seeds=corpus/fuzz/fuzz_planners
  dict=()
  [ "$target" = fuzz_schedule ] && dict=(-dict=fuzz/schedule.dict)
  mkdir -p "$work"
  log "fuzzing $target for ${fuzz_seconds}s"
  build/fuzz/fuzz/$target -max_total_time="$fuzz_seconds" "${dict[@]}" \
    -artifact_prefix="$out/crashes/$target-" -print_final_stats=1 \
    "$work" "$seeds" >"$out/$target.log" 2>&1
  # Each crash, timeout or leak input libFuzzer found is in crashes/.
  if ls "$out/crashes/$target-"* >/dev/null 2>&1; then
    log "FAILED: $target found inputs in $out/crashes"
    failed=1
  fi
done

if bench/optimum.sh >"$out/optimum.md" 2>"$out/optimum.log"; then
  log "optimum benchmark: see optimum.md"
else
  log "FAILED: optimum benchmark (see optimum.log)"
  failed=1
fi

for f in "$out"/failures/*.sched "$out"/crashes/*; do
  [ -e "$f" ] || continue
  log "to reproduce: scripts/repro.sh $f ${planner[*]}"
done
exit $failed
