#!/usr/bin/env bash
# Figures of `planck verify` on the example planners written elsewhere
# (examples/): cases per second through each adapter, the seconds until each
# wrong example is caught, shrunk and written, and for each bug of model v2
# and of model v3 the median of those seconds over several seeds.
#   bench/verify.sh [BUILD_DIR] [SECONDS] [SEEDS] [TABLES]
# defaults: build/dev, 20, 5, "adapters v2 v3". TABLES names the markdown
# tables printed: adapters (each planner once, model v1 and the right ones
# of v2 and v3), v2 and v3 (each bug of that model over seeds 1 to SEEDS).
# Python runs as its own interpreter, not through a launcher in front of it.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/dev}
seconds=${2:-20}
seeds=${3:-5}
tables=${4:-adapters v2 v3}
planck=$build/tools/planck
python=$(python3 -c 'import sys; print(sys.executable)')
py="$python examples/python/first_fit.py"
lib=$build/examples
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# verify NAME PLANNER-OPTIONS...: one verify run on generated schedules, its
# result in NAME.json.
verify() {
  local name=$1
  shift
  "$planck" verify "$@" --no-corpus --time "$seconds" --out "$out/$name" \
    --json "$out/$name.json" >/dev/null 2>&1 || true
}

# run NAME PLANNER-OPTIONS...: one verify run; prints a table row.
run() {
  local name=$1
  shift
  verify "$name" "$@"
  python3 - "$name" "$out/$name.json" <<'PY'
import json, os, sys
name, path = sys.argv[1], sys.argv[2]
if not os.path.exists(path):
    print(f"| {name} | no result (planck failed) | | | | |")
    sys.exit()
r = json.load(open(path))
rate = r["cases"] / r["seconds"] if r["seconds"] > 0 else 0
if r["result"] == "pass":
    print(f"| {name} | pass | {r['cases']} | {rate:.0f} | | |")
else:
    f = r["failure"]
    sched = open(f["schedule"]).read()
    lines = sched[sched.index("schedule v"):].count("\n")
    print(f"| {name} | {f['kind']} | {r['cases']} | | {r['seconds']:.2f} | {lines} |")
PY
}

# median NAME PLANNER-OPTIONS...: a verify run for each of the seeds 1..SEEDS;
# prints a row with the kinds found, how many seeds caught the bug, the median
# seconds until the failure is found, shrunk and written, and the most lines
# of a schedule written.
median() {
  local name=$1
  shift
  local runs=()
  for seed in $(seq 1 "$seeds"); do
    verify "$name-$seed" "$@" --seed "$seed"
    runs+=("$out/$name-$seed.json")
  done
  python3 - "$name" "${runs[@]}" <<'PY'
import json, os, statistics, sys
name, runs = sys.argv[1], sys.argv[2:]
kinds, seconds, lines, failed = set(), [], [], 0
for run in runs:
    if not os.path.exists(run):  # planck itself failed, writing no result
        failed += 1
        continue
    r = json.load(open(run))
    if r["result"] != "fail":
        continue
    kinds.add(r["failure"]["kind"])
    seconds.append(r["seconds"])
    sched = open(r["failure"]["schedule"]).read()
    lines.append(sched[sched.index("schedule v"):].count("\n"))
if failed:
    kinds.add(f"planck failed on {failed} of {len(runs)} seeds")
if not seconds:
    print(f"| {name} | {', '.join(sorted(kinds)) or 'not caught'} | 0/{len(runs)} | | |")
else:
    print(f"| {name} | {', '.join(sorted(kinds))} | {len(seconds)}/{len(runs)} | {statistics.median(seconds):.2f} "
          f"| {max(lines)} |")
PY
}

# wants TABLE: whether TABLE is among those asked for.
wants() {
  [[ " $tables " == *" $1 "* ]]
}

if wants adapters; then
  echo "| planner | result | cases | cases/s | seconds to the failure | lines of its schedule |"
  echo "|---|---|---:|---:|---:|---:|"
  run "python, command" --planner-cmd "$py"
  run "python, persistent" --planner-cmd "$py --persistent" --persistent
  run "python, persistent, model v2" --planner-cmd "$py --persistent" --persistent --features v2
  run "python --lanes, persistent, model v2" --planner-cmd "$py --persistent --lanes" --persistent --features v2
  run "python, persistent, model v3" --planner-cmd "$py --persistent" --persistent --features v3
  run "python --lanes, persistent, model v3" --planner-cmd "$py --persistent --lanes" --persistent --features v3
  run "C, shared library" --planner-lib "$lib/first_fit.so"
  run "tlsf (in-process, for scale)" --planner tlsf
  for bug in early-free loops phase; do
    run "python --bug $bug, persistent" --planner-cmd "$py --persistent --bug $bug" --persistent
  done
  run "C first_fit_bug_flag.so" --planner-lib "$lib/first_fit_bug_flag.so"
  run "C first_fit_bug_align128.so" --planner-lib "$lib/first_fit_bug_align128.so"
  echo
fi

if wants v2; then
  echo "| wrong example (model v2) | kind | caught | median seconds to the failure | most lines of its schedule |"
  echo "|---|---|---:|---:|---:|"
  for bug in input-first-use state-temporary inplace-read inplace-view inplace-loop inplace-tail align256 capacity \
    one-arena; do
    median "python --bug $bug" --planner-cmd "$py --persistent --bug $bug" --persistent --features v2
  done
  echo
fi

if wants v3; then
  echo "| wrong example (model v3) | kind | caught | median seconds to the failure | most lines of its schedule |"
  echo "|---|---|---:|---:|---:|"
  for bug in streams wait-all record-early loop-positions inplace-streams; do
    median "python --bug $bug" --planner-cmd "$py --persistent --bug $bug" --persistent --features v3
  done
fi
