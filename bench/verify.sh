#!/usr/bin/env bash
# Figures of `planck verify` on the example planners written elsewhere
# (examples/): cases per second through each adapter, and the seconds until
# each wrong example is caught, shrunk and written.
#   bench/verify.sh [BUILD_DIR] [SECONDS]     defaults: build/dev, 20
# Prints a markdown table. Python runs as its own interpreter, not through a
# launcher in front of it.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/dev}
seconds=${2:-20}
planck=$build/tools/planck
python=$(python3 -c 'import sys; print(sys.executable)')
py="$python examples/python/first_fit.py"
lib=$build/examples
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# run NAME PLANNER-OPTIONS...: one verify run on generated schedules; prints a table row.
run() {
  local name=$1
  shift
  local status=0
  "$planck" verify "$@" --no-corpus --time "$seconds" --out "$out/$name" \
    --json "$out/$name.json" >/dev/null 2>&1 || status=$?
  python3 - "$name" "$out/$name.json" "$status" <<'PY'
import json, sys
name, path, status = sys.argv[1], sys.argv[2], int(sys.argv[3])
r = json.load(open(path))
rate = r["cases"] / r["seconds"] if r["seconds"] > 0 else 0
if r["result"] == "pass":
    print(f"| {name} | pass | {r['cases']} | {rate:.0f} | | |")
else:
    f = r["failure"]
    sched = open(f["schedule"]).read()
    lines = sched[sched.index("schedule v1"):].count("\n")
    print(f"| {name} | {f['kind']} | {r['cases']} | | {r['seconds']:.2f} | {lines} |")
PY
}

echo "| planner | result | cases | cases/s | seconds to the failure | lines of its schedule |"
echo "|---|---|---:|---:|---:|---:|"
run "python, command" --planner-cmd "$py"
run "python, persistent" --planner-cmd "$py --persistent" --persistent
run "C, shared library" --planner-lib "$lib/first_fit.so"
run "tlsf (in-process, for scale)" --planner tlsf
for bug in early-free loops phase; do
  run "python --bug $bug, persistent" --planner-cmd "$py --persistent --bug $bug" --persistent
done
run "C first_fit_bug_flag.so" --planner-lib "$lib/first_fit_bug_flag.so"
run "C first_fit_bug_align128.so" --planner-lib "$lib/first_fit_bug_align128.so"
