#!/usr/bin/env bash
# How often the optimum oracle settles generated schedules of model v2:
# `planck generate random` (every feature of v1 and v2: aligned devices,
# capacities, planned inputs, outputs and state, in-place kernels) for seeds
# 1..CASES, then `planck oracle --json` on each. A device is settled when the
# oracle proves its least arena (status optimal) or, for a device with a
# capacity, decides whether any plan fits (feasible or infeasible); a case
# is settled when each of its devices is. Prints a markdown table.
#
#   bench/v2_optimum.sh [BUILD_DIR] [CASES] [SIZE] [SECONDS]
#   defaults: build/dev, 200, 30 (on the generator's scale, 100 nominal), 10
# FEATURES=v3 takes model v3's schedules instead (streams, events and
# local buffers besides), whose devices the oracle bounds by their
# heaviest conflicting set and settles on the conflict pairs.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/dev}
cases=${2:-200}
size=${3:-30}
seconds=${4:-10}
planck=$build/tools/planck
[[ -x $planck ]] || { echo "v2_optimum: no $planck; build it first (cmake --build --preset dev)" >&2; exit 2; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

for ((seed = 1; seed <= cases; seed++)); do
  "$planck" generate random --only "${FEATURES:-v2}" --size "$size" --seed "$seed" -o "$out/$seed.sched"
  status=0
  "$planck" oracle "$out/$seed.sched" --time "$seconds" --json "$out/$seed.json" >/dev/null 2>&1 || status=$?
  if [[ $status -gt 1 ]]; then
    echo "v2_optimum: planck oracle failed with exit $status on seed $seed" >&2
    exit 1
  fi
done

python3 - "$out" "$cases" "$size" "$seconds" "${FEATURES:-v2}" <<'PY'
import json, os, sys
out, cases, size, seconds, features = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]
settled_cases = 0
devices = {"all": [0, 0], "with a capacity": [0, 0], "with in-place kernels": [0, 0], "aligned below 256": [0, 0]}
slowest = 0.0
for seed in range(1, cases + 1):
    r = json.load(open(os.path.join(out, f"{seed}.json")))
    every = True
    sched = open(os.path.join(out, f"{seed}.sched")).read()
    aligns = {}
    for line in sched.splitlines():
        if line.startswith("device "):
            words = line.split()
            aligns[words[1]] = next((int(w[6:]) for w in words if w.startswith("align=")), 256)
    for d in r["devices"]:
        ok = d["status"] == "optimal" or ("capacity" in d and d["status"] in ("feasible", "infeasible"))
        every = every and ok
        slowest = max(slowest, d["seconds"])
        groups = ["all"]
        if "capacity" in d:
            groups.append("with a capacity")
        if d.get("inplace_excluded"):
            groups.append("with in-place kernels")
        if aligns.get(d["device"], 256) < 256:
            groups.append("aligned below 256")
        for g in groups:
            devices[g][0] += ok
            devices[g][1] += 1
    settled_cases += every
print(f"Generated {features} schedules (`planck generate random --only {features} --size {size}`, seeds 1..{cases}), "
      f"`planck oracle --time {seconds}` on each:\n")
print("| | settled | of | share |\n|---|---:|---:|---:|")
print(f"| cases | {settled_cases} | {cases} | {100 * settled_cases / cases:.1f}% |")
for g, (ok, n) in devices.items():
    if n:
        print(f"| devices {g} | {ok} | {n} | {100 * ok / n:.1f}% |")
print(f"\nslowest device: {slowest:.2f} s")
PY
