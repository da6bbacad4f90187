#!/usr/bin/env bash
# The optimum oracle's figures: for every interval problem in
# ../shared/intervals and ../shared/minimalloc, the time `planck oracle` takes
# to prove the least arena, as a markdown table on stdout. The MiniMalloc
# instances are also asked MiniMalloc's own question, whether they fit their
# benchmark capacity of 1048576 bytes (`--capacity`, which stops at the first
# placement within it).
#
#   bench/optimum.sh                 # builds planck in build/dev (preset dev)
#   BUILD_DIR=build/mine bench/optimum.sh
#   TIMEOUT=60 SHARED_DIR=/elsewhere bench/optimum.sh
#
# Columns: the instance, its buffers, the peak of live bytes (the first lower
# bound), the least arena when proven (else the bounds found), the status and
# the oracle's own wall-clock seconds; for the MiniMalloc instances, the
# answer at the capacity and its seconds. Exit 1 when an instance is not
# proven optimal, or a MiniMalloc instance not proven to fit its capacity.

set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build/dev}
shared=${SHARED_DIR:-$root/../shared}
timeout=${TIMEOUT:-10}
minimalloc_capacity=1048576

if [[ ! -f $build/CMakeCache.txt ]]; then
  if [[ $build == "$root/build/dev" ]]; then
    cmake --preset dev -S "$root" >&2
  else
    cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPLANCK_BENCH=OFF >&2
  fi
fi
cmake --build "$build" --target planck >&2
planck=$build/tools/planck

unproven=0

# oracle FILE [ORACLE FLAGS...]: planck oracle's text answer in $out.
oracle() {
  local file=$1
  shift
  local status=0
  out=$("$planck" oracle "$file" --time "$timeout" "$@") || status=$?
  if [[ $status -ne 0 && $status -ne 1 ]]; then
    echo "$file: planck oracle failed with exit $status" >&2
    unproven=1
    return 1
  fi
}

# row FILE [CAPACITY]: one line of the table.
row() {
  local file=$1 capacity=${2:-}
  local out
  oracle "$file" || return 0
  local buffers peak lower upper verdict seconds
  buffers=$(sed -n 's/^device [^:]*: \([0-9]*\) buffers\{0,1\},.*/\1/p' <<<"$out")
  peak=$(sed -n 's/^  peak: \([0-9]*\)$/\1/p' <<<"$out")
  lower=$(sed -n 's/^  lower bound: \([0-9]*\) .*/\1/p' <<<"$out")
  upper=$(sed -n 's/^  upper bound: \([0-9]*\) .*/\1/p' <<<"$out")
  verdict=$(sed -n 's/^  status: \(.*\)$/\1/p' <<<"$out")
  seconds=$(sed -n 's/^  time: \([0-9.]*\) s$/\1/p' <<<"$out")
  local optimum=$upper
  if [[ $verdict != optimal ]]; then
    optimum="$lower..$upper"
    unproven=1
  fi
  local fits="" fits_seconds=""
  if [[ -n $capacity ]] && oracle "$file" --capacity "$capacity"; then
    fits=$(sed -n 's/^capacity [0-9]*: \(.*\)$/\1/p' <<<"$out")
    fits_seconds=$(sed -n 's/^  time: \([0-9.]*\) s$/\1/p' <<<"$out")
    [[ $fits == feasible ]] || unproven=1
  fi
  echo "| $(basename "$file") | $buffers | $peak | $optimum | $verdict | $seconds | $fits | $fits_seconds |"
}

echo "| instance | buffers | lower bound (peak) | optimum | status | seconds | at $minimalloc_capacity | seconds |"
echo "|---|---:|---:|---:|---|---:|---|---:|"
shopt -s nullglob
for f in "$shared"/intervals/*.csv; do row "$f"; done
for f in "$shared"/minimalloc/*.csv; do row "$f" "$minimalloc_capacity"; done
exit $unproven
