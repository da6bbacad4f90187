#!/usr/bin/env bash
# The speed table of docs/performance.md: `planck plan` as a whole on a chain of
# 1,000,000 buffers (wall time and peak resident memory), then every
# benchmark of parse_bench, plan_bench and oracle_bench, and one markdown
# table of medians on standard output.
#   bench/speed.sh [BUILD_DIR] [REPETITIONS]
# BUILD_DIR defaults to build/bench (configured and built with the bench
# preset, Release with link-time optimization, when it is the default),
# REPETITIONS to 5. SPEED_FILTER
# picks the benchmarks (a Google Benchmark regex; by default every size of
# the flat chain and the largest sizes of the others). Progress goes to
# standard error.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$root/build/bench}"
reps="${2:-5}"
filter="${SPEED_FILTER:-/flat/|/(loops|devices)/(100000|1000000)/}"
programs=(parse_bench plan_bench oracle_bench)

if [ "$build" = "$root/build/bench" ]; then
  (cd "$root" && { [ -f build/bench/build.ninja ] || cmake --preset bench >/dev/null; } &&
   cmake --build build/bench --target planck write_chain "${programs[@]}" -j "$(nproc)" >/dev/null) >&2
fi
for bin in tools/planck bench/write_chain "${programs[@]/#/bench/}"; do
  [ -x "$build/$bin" ] || { echo "speed.sh: no $build/$bin: build it first" >&2; exit 1; }
done

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
echo "speed.sh: writing the chain of 1,000,000 buffers" >&2
"$build/bench/write_chain" 1000000 "$work/chain.sched"

echo "speed.sh: planck plan, $reps times" >&2
for ((i = 0; i < reps; i++)); do
  /usr/bin/time -f "%e %M" -o "$work/time.$i" \
    "$build/tools/planck" plan --timings "$work/chain.sched" -o "$work/chain.plan" 2>>"$work/timings"
done

for program in "${programs[@]}"; do
  echo "speed.sh: $program" >&2
  "$build/bench/$program" --benchmark_filter="$filter" --benchmark_repetitions="$reps" \
    --benchmark_report_aggregates_only=true --benchmark_out="$work/$program.json" \
    --benchmark_out_format=json >/dev/null
done

python3 - "$work" "$reps" "$(wc -c <"$work/chain.sched")" "${programs[@]}" <<'PY'
import json, pathlib, re, statistics, sys

work, reps, text_bytes, programs = pathlib.Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4:]
n = 1_000_000
rows = []

def row(what, buffers, seconds, peak_mb):
    peak = "" if peak_mb is None else f"{peak_mb:.1f}"
    rows.append(f"| {what} | {buffers:,} | {seconds:.4f} | {seconds / buffers * 1e9:.0f} ns | {peak} |")

times = [open(work / f"time.{i}").read().split() for i in range(reps)]
wall = statistics.median(float(t[0]) for t in times)
rss_mb = statistics.median(int(t[1]) for t in times) / 1000
row(f"`planck plan` as a whole ({text_bytes / 1e6:.0f} MB of .sched)", n, wall, rss_mb)
stages = {}
for line in open(work / "timings"):
    for name, seconds in re.findall(r"(\w+) ([0-9.]+) s", line):
        stages.setdefault(name, []).append(float(seconds))
for name, values in stages.items():
    row(f"`planck plan` stage: {name}", n, statistics.median(values), None)
parse = statistics.median(stages.get("parse", [0]))
if parse:
    rows.append(f"| `planck plan` parsing: {text_bytes / parse / 1e6:.0f} MB/s | | | | |")

scale = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}
for program in programs:
    text = open(work / f"{program}.json").read()
    if not text.strip():
        continue  # the filter picked none of its benchmarks
    for b in json.loads(text)["benchmarks"]:
        # One repetition has no aggregates: its run is its median.
        if b.get("aggregate_name", "median" if reps == 1 else "") != "median":
            continue
        # NAME/SHAPE/BUFFERS/real_time: every benchmark is timed by the wall clock.
        name, shape, buffers = b["run_name"].removesuffix("/real_time").rsplit("/", 2)
        seconds = b["real_time"] * scale[b["time_unit"]]
        row(f"{name} ({shape})", int(buffers), seconds, b.get("peak_MB"))

print("| what | buffers | median seconds | per buffer | peak MB |")
print("|---|---:|---:|---:|---:|")
print("\n".join(rows))
PY
