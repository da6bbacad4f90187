#!/usr/bin/env bash
# The nightly run: a planner judged by planck verify, every fuzz target, the
# properties with many more cases than CI, and the optimum oracle on the
# corpus, all within one time budget; then each failure grouped by its
# signature, minimized, and written up in DIR/report.md and DIR/report.json.
#
#   scripts/nightly.sh                          # 3 minutes on the reference planner
#   scripts/nightly.sh --minutes 60 --out DIR   # results in DIR (default nightly/DATE-TIME)
#   scripts/nightly.sh PLANNER-OPTIONS          # verify that planner instead
#                                               # (--planner NAME, --planner-cmd CMD
#                                               # [--persistent], --planner-lib PATH;
#                                               # a library is fuzzed in-process too,
#                                               # on the features it claims;
#                                               # --features LIST: what it supports,
#                                               # e.g. v2; a command gets v1 without it)
#
# verify also judges the ONNX networks bench/onnx.sh imported, when present.
# The budget is shared: a quarter for verify, nearly half for the fuzz
# targets, the rest for the properties and the oracle. Building comes before
# it (the programs the run uses and no more, through ccache when it is
# installed; the report says how long it took) and minimizing the failures
# after it (each minimization bounded).
# Every crash input is in DIR the moment it is found (libFuzzer writes it
# before it exits, verify and the properties when a case fails), so a run
# killed halfway loses none. Exit 0 when nothing failed, 1 when something
# did (the report says what and how to reproduce it), 2 when it could not
# run (bad usage, a failed build).
set -uo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

usage() { echo "usage: scripts/nightly.sh [--minutes N] [--out DIR] [PLANNER-OPTIONS...]" >&2; exit 2; }
minutes=3
out=
planner=()
while [ $# -gt 0 ]; do
  case "$1" in
    --minutes) [ $# -ge 2 ] || usage; minutes=$2; shift 2 ;;
    --out) [ $# -ge 2 ] || usage; out=$2; shift 2 ;;
    -h|--help) sed -n '2,24p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) planner+=("$1"); shift ;;
  esac
done
[[ "$minutes" =~ ^[0-9]+([.][0-9]+)?$ ]] && [ "$(echo "$minutes > 0" | bc)" = 1 ] ||
  { echo "nightly: --minutes wants a positive number, not '$minutes'" >&2; exit 2; }
[ ${#planner[@]} -gt 0 ] || planner=(--planner tlsf)
lib=
for ((i = 0; i < ${#planner[@]}; i++)); do
  if [ "${planner[$i]}" = --planner-lib ]; then
    [ $((i + 1)) -lt ${#planner[@]} ] && [ -f "${planner[$((i + 1))]}" ] ||
      { echo "nightly: --planner-lib wants an existing file" >&2; exit 2; }
    lib=$(realpath "${planner[$((i + 1))]}")
    planner[$((i + 1))]=$lib
  fi
done

out="${out:-$root/nightly/$(date +%F-%H%M%S)}"
mkdir -p "$out" && out=$(realpath "$out")
mkdir -p "$out/logs" "$out/crashes" "$out/failures" "$out/corpus" "$out/work"
budget=$(echo "$minutes * 60" | bc | cut -d. -f1)
start=$(date +%s)
share() { echo "$budget * $1 / 1" | bc; }  # seconds of the budget for a fraction
elapsed() { echo $(($(date +%s) - start)); }
log() { printf 'nightly: [%d:%02d] %s\n' $(($(elapsed) / 60)) $(($(elapsed) % 60)) "$*" | tee -a "$out/logs/progress.txt" >&2; }

scripts/bootstrap.sh
planck=build/dev/tools/planck
properties=build/dev/properties/properties_test
# Every target from preset fuzz (AddressSanitizer and UBSan) but
# fuzz_planners, from preset fuzz-fast (UBSan alone, no comparison tracing;
# CMakeLists.txt says why): its failures are verdicts, and it runs some five
# times as many inputs there. $out/bin links each target to the build it
# runs from.
fuzz_bin=$out/bin
fast_targets=(fuzz_planners)
targets=(fuzz_schedule fuzz_plan fuzz_intervals fuzz_planners fuzz_tlsf fuzz_oracle fuzz_import)
[ -n "$lib" ] && targets+=(fuzz_planner_lib)
asan_targets=()
for t in "${targets[@]}"; do [[ " ${fast_targets[*]} " == *" $t "* ]] || asan_targets+=("$t"); done

# build PRESET TARGET...: configures the preset and builds only the targets
# the run uses, into logs/build-PRESET.log; its seconds go to the report.
# The objects come through ccache when it is installed (CMakeLists.txt).
builds=()
build() {
  local preset=$1 t0 status
  t0=$(date +%s)
  shift
  { cmake --preset "$preset" >/dev/null && cmake --build --preset "$preset" -j "$(nproc)" --target "$@"; } \
    >"$out/logs/build-$preset.log" 2>&1
  status=$?
  builds+=("build_seconds_$preset=$(($(date +%s) - t0))")
  return $status
}
ccache=no
command -v ccache >/dev/null && ccache=yes
log "results in $out; building (logs/build-*.log; ccache: $ccache)"
build dev planck properties_test || { log "FAILED: the dev build (see logs/build-dev.log)"; exit 2; }
fuzz=1
if ! command -v clang++ >/dev/null; then
  log "no clang++: the fuzz targets are skipped"
  fuzz=0
elif ! build fuzz "${asan_targets[@]}"; then
  log "FAILED: the fuzz build (see logs/build-fuzz.log)"
  exit 2
elif ! build fuzz-fast "${fast_targets[@]}"; then
  log "FAILED: the fuzz-fast build (see logs/build-fuzz-fast.log)"
  exit 2
else
  mkdir -p "$fuzz_bin"
  for t in "${asan_targets[@]}"; do ln -sf "$root/build/fuzz/fuzz/$t" "$fuzz_bin/$t"; done
  for t in "${fast_targets[@]}"; do ln -sf "$root/build/fuzz-fast/fuzz/$t" "$fuzz_bin/$t"; done
fi
cat >"$out/logs/run.env" <<EOF
budget=$budget
started=$(date -u +%FT%TZ)
ccache=$ccache
EOF
printf '%s\n' "${builds[@]}" >>"$out/logs/run.env"
log "built in $(elapsed)s (${builds[*]#build_seconds_})"
log "budget ${budget}s: verify $(share 0.25)s, fuzzing $(share 0.45)s, properties $(share 0.15)s, oracle $(share 0.15)s"

# --- planck verify: the corpus, then generated schedules; after a failure
# (the first one stops a run) again with the next seed while time is left,
# five runs at most: enough to count how often a failure comes back.
verify_end=$(($(date +%s) + $(share 0.25)))
seed=1
corpus=()
# The real networks bench/onnx.sh imports (PLANCK_ONNX_DIR, default
# build/onnx), when it has run: judged after the corpus.
onnx_dir=${PLANCK_ONNX_DIR:-$root/build/onnx}
onnx_folders=()
for d in "$onnx_dir/schedules" "$onnx_dir/schedules-inplace"; do
  compgen -G "$d/*.sched" >/dev/null && onnx_folders+=("$d")
done
if [ ${#onnx_folders[@]} -gt 0 ]; then
  corpus=(--corpus "$root/corpus/schedules" "$root/corpus/regressions" "${onnx_folders[@]}")
  log "verify also judges the networks of ${onnx_folders[*]}"
fi
while left=$((verify_end - $(date +%s))); [ "$left" -gt 0 ] && [ "$seed" -le 5 ]; do
  log "verify ${planner[*]} (seed $seed) for ${left}s"
  "$planck" verify "${planner[@]}" "${corpus[@]}" --time "$left" --shrink-time $((left / 3 + 1)) \
    --seed "$seed" --out "$out/failures/verify-seed$seed" --json "$out/logs/verify-$seed.json" --progress \
    >"$out/logs/verify-$seed.log" 2> >(sed -u 's/^/nightly:   /' >&2)
  status=$?
  if [ $status -eq 0 ]; then log "$(tail -1 "$out/logs/verify-$seed.log")"; break; fi
  if [ $status -ne 1 ]; then log "FAILED: verify exits $status (see logs/verify-$seed.log)"; break; fi
  log "FOUND: $(sed -n 2p "$out/logs/verify-$seed.log")"
  corpus=(--no-corpus)  # the corpus fails the same way again
  seed=$((seed + 1))
done

# --- The fuzz targets, an equal share each. A crash stops libFuzzer; it is
# started again on the rest of the time (a few times at most), so that the
# report counts how often each crash comes up.
if [ $fuzz = 1 ]; then
  export ASAN_OPTIONS="abort_on_error=1:detect_leaks=1:symbolize=1"
  export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
  [ -n "$lib" ] && export PLANCK_PLANNER_LIB="$lib"
  # Time verify left unspent (it stops after five failing runs) goes here.
  spare=$((verify_end - $(date +%s)))
  [ "$spare" -gt 0 ] || spare=0
  per_target=$((($(share 0.45) + spare) / ${#targets[@]}))
  for target in "${targets[@]}"; do
    seeds="corpus/fuzz/$target"
    [ "$target" = fuzz_planner_lib ] && seeds=corpus/fuzz/fuzz_planners
    mapfile -t options < <(scripts/fuzz-options.sh "$target")
    mkdir -p "$out/work/$target" "$out/corpus/$target"
    end=$(($(date +%s) + per_target))
    run=1
    while left=$((end - $(date +%s))); [ "$left" -gt 0 ] && [ $run -le 5 ]; do
      flog="$out/logs/$target-$run.log"
      log "$target for ${left}s${options:+ (${options[*]})}"
      "$fuzz_bin/$target" "${options[@]}" -max_total_time="$left" -print_final_stats=1 \
        -artifact_prefix="$out/crashes/$target-" "$out/work/$target" "$seeds" >"$flog" 2>&1 &
      pid=$!
      t0=$(date +%s.%N)
      while kill -0 $pid 2>/dev/null; do
        sleep 5
        kill -0 $pid 2>/dev/null || break
        line=$(grep -a -E '^#[0-9]+' "$flog" | tail -1 | tr -s ' \t' ' ')
        [ -n "$line" ] && log "  $target $line"
      done
      wait $pid 2>/dev/null
      status=$?
      # The run's wall time, for executions per second when it crashed.
      echo "nightly-seconds: $(echo "$(date +%s.%N) - $t0" | bc)" >>"$flog"
      [ $status -eq 0 ] && break
      found=$(grep -a -o 'Test unit written to .*' "$flog" | sed 's/Test unit written to //' | tail -1)
      if [ -z "$found" ]; then log "FAILED: $target exits $status without a crash input (see $flog)"; break; fi
      log "FOUND: $target crash input $found"
      run=$((run + 1))
    done
    # Seeds, the previous corpus and what this run added, merged into the
    # smallest set with the same coverage.
    # (An input that crashes is kept in work/, not in the current folder.)
    "$fuzz_bin/$target" -merge=1 "${options[@]}" -artifact_prefix="$out/work/$target-merge-" \
      "$out/corpus/$target" "$out/work/$target" "$seeds" \
      >"$out/logs/$target-merge.log" 2>&1 || log "merging the $target corpus failed (see logs/$target-merge.log)"
  done
fi

# --- The properties: a run of 50 cases each measures their cost, then a run
# with as many cases as the rest of the share allows (many more than CI's
# 250 on a budget of an hour), stopped at the end of the share.
filter='*PlannerProperty.*:ReferencePlanner.*:TlsfAllocator.*'
prop_end=$(($(date +%s) + $(share 0.15)))
t0=$(date +%s.%N)
PLANCK_FAILURE_DIR="$out/failures/properties" RC_PARAMS="max_success=50" \
  timeout "$(share 0.15)" "$properties" --gtest_filter="$filter" >"$out/logs/properties-calibrate.log" 2>&1
cal=$?
t1=$(date +%s.%N)
left=$((prop_end - $(date +%s)))
cases=50
plog="$out/logs/properties-calibrate.log"
if [ $cal -eq 0 ] && [ "$left" -gt 1 ]; then
  # Two thirds of the estimate: the cost per case grows with the count
  # (larger schedules come later), and the run must end within its share.
  cases=$(echo "50 * $left * 2 / 3 / ($t1 - $t0 + 0.001)" | bc)
  [ "$cases" -ge 50 ] || cases=50
  log "properties: $cases cases each for ${left}s"
  plog="$out/logs/properties.log"
  PLANCK_FAILURE_DIR="$out/failures/properties" RC_PARAMS="max_success=$cases" \
    timeout "$left" "$properties" --gtest_filter="$filter" >"$plog" 2>&1
  status=$?
else
  status=$cal
fi
echo "cases=$cases" >>"$out/logs/run.env"
echo "properties_log=$plog" >>"$out/logs/run.env"
case $status in
  0) log "properties: passed ($(grep -c '^\[       OK' "$plog") tests)" ;;
  124) log "properties: stopped at the end of the share after $(grep -c '^\[       OK' "$plog") tests" ;;
  *) log "FOUND: properties fail: $(grep '^\[  FAILED  \]' "$plog" | head -3 | tr '\n' ' ')" ;;
esac

# --- The oracle on every corpus schedule, an equal share of the time each.
mapfile -t files < <(ls corpus/schedules/*.sched | grep -v -E '\.[a-z]+\.sched$')
per_file=$(printf '%.2f' "$(echo "scale=2; $(share 0.15) / ${#files[@]}" | bc)")
log "oracle on ${#files[@]} corpus schedules, ${per_file}s each"
: >"$out/logs/oracle.tsv"
for f in "${files[@]}"; do
  result=$(timeout $(($(share 0.15) + 10)) "$planck" oracle "$f" --time "$per_file" 2>&1)
  status=$?
  printf '%s\t%s\t%s\n' "$f" "$status" "$(echo "$result" | tr '\n\t' '  ')" >>"$out/logs/oracle.tsv"
  [ $status -eq 0 ] || log "FOUND: oracle exits $status on $f"
done

# --- Triage and the report.
log "grouping and minimizing the failures; writing the report"
python3 scripts/nightly_report.py --out "$out" --budget "$budget" --planck "$planck" --fuzz-bin "$fuzz_bin" \
  --minimize-seconds $((budget / 12 + 10)) -- "${planner[@]}"
status=$?
log "report: $out/report.md"
exit $status
