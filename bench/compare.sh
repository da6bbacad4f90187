#!/usr/bin/env bash
# Side by side: the benchmarks and `planck plan` of the work tree against
# those of another commit, their runs interleaved (one run of each, then
# one of each in the other order, and so on), so that a host whose speed
# drifts from minute to minute slows both alike. Prints one markdown table of medians,
# with the fastest and the slowest run, and fails if the two `planck plan`
# runs on the chain of 1,000,000 buffers print different plans.
#   bench/compare.sh REV [REPETITIONS]
# REV is any commit git names (a hash, HEAD~1, main); REPETITIONS defaults
# to 5. SPEED_FILTER picks the benchmarks (a Google Benchmark regex; by
# default the flat chain of 1,000 and of 1,000,000 buffers); SPEED_PROGRAMS
# the programs (default "parse_bench plan_bench oracle_bench"). The commit is
# built once, with the dev preset, in build/compare/<its hash>, a git
# worktree kept for the next comparison. Progress goes to standard error.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
[ $# -ge 1 ] || { echo "usage: bench/compare.sh REV [REPETITIONS]" >&2; exit 2; }
rev="$(git -C "$root" rev-parse --verify --quiet "$1^{commit}")" ||
  { echo "compare.sh: $1 names no commit" >&2; exit 2; }
reps="${2:-5}"
[[ "$reps" =~ ^[1-9][0-9]*$ ]] || { echo "compare.sh: REPETITIONS must be a whole number from 1, not '$reps'" >&2; exit 2; }
filter="${SPEED_FILTER:-/flat/1000(000)?(/|\$)}"
read -r -a programs <<<"${SPEED_PROGRAMS:-parse_bench plan_bench oracle_bench}"
targets=(planck write_chain "${programs[@]}")

base="$root/build/compare/$rev"
if [ ! -d "$base" ]; then
  echo "compare.sh: a worktree of $rev in $base" >&2
  git -C "$root" worktree add --detach "$base" "$rev" >/dev/null
fi
for tree in "$base" "$root"; do
  echo "compare.sh: building $tree" >&2
  (cd "$tree" && { [ -f build/dev/build.ninja ] || cmake --preset dev >/dev/null; } &&
   cmake --build build/dev --target "${targets[@]}" -j "$(nproc)" >/dev/null) >&2
done

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
echo "compare.sh: writing the chain of 1,000,000 buffers" >&2
"$root/build/dev/bench/write_chain" 1000000 "$work/chain.sched"

for ((i = 0; i < reps; i++)); do
  echo "compare.sh: run $((i + 1)) of $reps" >&2
  # The order alternates, so that neither side always runs on what the other left.
  sides=(base tree)
  ((i % 2 == 0)) || sides=(tree base)
  for side in "${sides[@]}"; do
    tree="$base"
    [ "$side" = tree ] && tree="$root"
    /usr/bin/time -f "%e %M" -o "$work/$side.time.$i" \
      "$tree/build/dev/tools/planck" plan "$work/chain.sched" -o "$work/$side.plan"
    for program in "${programs[@]}"; do
      "$tree/build/dev/bench/$program" --benchmark_filter="$filter" --benchmark_format=json \
        >"$work/$side.$program.$i.json" 2>/dev/null
    done
  done
  cmp -s "$work/base.plan" "$work/tree.plan" ||
    { echo "compare.sh: planck plan prints another plan than $rev does" >&2; exit 1; }
done

python3 - "$work" "$reps" "$rev" "${programs[@]}" <<'PY'
import json, pathlib, statistics, sys

work, reps, rev, programs = pathlib.Path(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4:]
scale = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}
runs = {}  # (what, side) -> seconds of each run

def add(what, side, seconds):
    runs.setdefault((what, side), []).append(seconds)

for side in ("base", "tree"):
    for i in range(reps):
        wall, rss_kb = open(work / f"{side}.time.{i}").read().split()
        add("`planck plan`, 1,000,000 buffers: wall seconds", side, float(wall))
        add("`planck plan`, 1,000,000 buffers: peak resident MB", side, int(rss_kb) / 1000)
        for program in programs:
            text = open(work / f"{side}.{program}.{i}.json").read()
            if not text.strip():
                continue  # the filter picked none of its benchmarks
            for b in json.loads(text)["benchmarks"]:
                # Benchmarks timed by the wall clock end in /real_time, those of older commits do not.
                name = b["name"].removesuffix("/real_time")
                add(f"{name}: seconds", side, b["real_time"] * scale[b["time_unit"]])

def cell(values):
    m = statistics.median(values)
    return f"{m:.4g} ({min(values):.4g} to {max(values):.4g})"

print(f"| what | {rev[:10]} | this tree | change |")
print("|---|---:|---:|---:|")
for what in dict.fromkeys(w for w, _ in runs):
    before, after = runs.get((what, "base")), runs.get((what, "tree"))
    if not before or not after:
        continue
    change = statistics.median(after) / statistics.median(before) - 1
    print(f"| {what} | {cell(before)} | {cell(after)} | {change:+.1%} |")
PY
