#!/usr/bin/env bash
# The optimum oracle on perfect packings (gen/perfect_packing.h):
# schedules cut from a rectangle, whose least arena is their peak by
# construction. For each number of buffers and each seed, the seconds
# `planck oracle` takes to prove it, as a markdown table on stdout, then one
# line per size: how many were proven within the limit.
#
#   bench/perfect_packing.sh                     # builds in build/dev (preset dev)
#   SIZES="100 300" SEEDS="1 2 3" TIMEOUT=10 bench/perfect_packing.sh   # seeds 1 to 10 by default
#   BUILD_DIR=build/mine WIDTH=1024 bench/perfect_packing.sh
#
# Columns: buffers, seed, the least arena (the rectangle's width, in bytes),
# the oracle's status and bounds, and its own wall-clock seconds for the
# device. Exit 1 when an instance of at most PROVE_UP_TO buffers (default
# 400) is not proven optimal.

set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build/dev}
timeout=${TIMEOUT:-10}
sizes=${SIZES:-100 200 300 400 500}
seeds=${SEEDS:-1 2 3 4 5 6 7 8 9 10}
width=${WIDTH:-1024}
prove_up_to=${PROVE_UP_TO:-400}

if [[ ! -f $build/CMakeCache.txt ]]; then
  if [[ $build == "$root/build/dev" ]]; then
    cmake --preset dev -S "$root" >&2
  else
    cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPLANCK_BENCH=OFF >&2
  fi
fi
cmake --build "$build" --target planck perfect_packing >&2
planck=$build/tools/planck
generate=$build/gen/perfect_packing

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0
summary=""

echo "| buffers | seed | least arena | status | lower bound | upper bound | seconds |"
echo "|---:|---:|---:|---|---:|---:|---:|"
for n in $sizes; do
  proven=0 total=0 slowest=0
  for seed in $seeds; do
    file=$work/p$n-$seed.sched
    "$generate" --buffers "$n" --seed "$seed" --width "$width" >"$file"
    out=$("$planck" oracle "$file" --time "$timeout") || {
      echo "seed $seed, $n buffers: planck oracle failed with exit $?" >&2
      failed=1
      continue
    }
    lower=$(sed -n 's/^  lower bound: \([0-9]*\) .*/\1/p' <<<"$out")
    upper=$(sed -n 's/^  upper bound: \([0-9]*\) .*/\1/p' <<<"$out")
    verdict=$(sed -n 's/^  status: \(.*\)$/\1/p' <<<"$out")
    seconds=$(sed -n 's/^  time: \([0-9.]*\) s$/\1/p' <<<"$out")
    total=$((total + 1))
    if [[ $verdict == optimal && $upper -eq $((width * 256)) ]]; then
      proven=$((proven + 1))
    elif [[ $n -le $prove_up_to ]]; then
      failed=1
    fi
    slowest=$(awk -v a="$slowest" -v b="$seconds" 'BEGIN { print (b > a ? b : a) }')
    echo "| $n | $seed | $((width * 256)) | $verdict | $lower | $upper | $seconds |"
  done
  summary+="$n buffers: $proven of $total proven optimal within ${timeout} s, the slowest in $slowest s"$'\n'
done
echo
printf '%s' "$summary"
exit $failed
