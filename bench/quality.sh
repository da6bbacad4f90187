#!/usr/bin/env bash
# The quality table and chart: per planner (every name `planck planners`
# lists) and per group of instances, how far its arena is above the lower
# bound (the peak of live bytes) and, where the oracle proves the optimum
# within its time limit, above the optimum.
#
#   bench/quality.sh                       # builds planck in build/dev (preset dev)
#   bench/quality.sh --time 20 --seeds 3
#   BUILD_DIR=build/mine SHARED_DIR=/elsewhere bench/quality.sh --out /tmp/q
#   PLANCK=/path/to/planck bench/quality.sh   # that binary, nothing built
#
# Instances: corpus/schedules, corpus/intervals when present, the
# model-shaped schedules (`planck generate KIND`, a few sizes and seeds
# each, written under the output folder), ../shared/intervals and
# ../shared/minimalloc when present, and the real networks bench/onnx.sh
# imports (build/onnx/schedules, at batch 1 and 32, and with --inplace)
# when it has run. Each is planned by every planner
# (`planck stats --json`, which also checks each plan) and bounded by the
# oracle (`planck oracle --json --time S`).
#
# Options:
#   --time S      the oracle's seconds per instance (default 5; --timeout: the same)
#   --seeds N     seeds per model size (default 2)
#   --out DIR     where the instances and results go (default build/quality)
#   --table FILE  the markdown table (default docs/quality.md)
#   --svg FILE    the chart (default docs/quality.svg; needs python3-matplotlib;
#                 PYTHON=... names the interpreter)
#   --onnx DIR    the output folder of bench/onnx.sh (default build/onnx)
#
# It keeps a core busy for a minute or two: on a shared machine run it as
# `nice -n 15 bench/quality.sh`. Exit 1 when a plan fails the checker; 2 on
# bad usage or a failed command.

set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build/dev}
shared=${SHARED_DIR:-$root/../shared}
time=5
seeds=2
out=$root/build/quality
table=$root/docs/quality.md
svg=$root/docs/quality.svg
onnx=$root/build/onnx

usage() {
  sed -n '2,/^$/s/^# \{0,1\}//p' "$0" >&2
  exit 2
}

while [[ $# -gt 0 ]]; do
  case $1 in
    --time|--timeout) time=${2:?$1 needs seconds}; shift 2 ;;
    --seeds) seeds=${2:?--seeds needs a count}; shift 2 ;;
    --out) out=${2:?--out needs a folder}; shift 2 ;;
    --table) table=${2:?--table needs a file}; shift 2 ;;
    --svg) svg=${2:?--svg needs a file}; shift 2 ;;
    --onnx) onnx=${2:?--onnx needs a folder}; shift 2 ;;
    -h|--help) usage ;;
    *) echo "quality.sh: unknown option $1" >&2; usage ;;
  esac
done
[[ $seeds =~ ^[1-9][0-9]*$ ]] || { echo "quality.sh: --seeds must be a count, 1 or more" >&2; exit 2; }

if [[ -n ${PLANCK:-} ]]; then
  planck=$PLANCK
else
  if [[ ! -f $build/CMakeCache.txt ]]; then
    cmake --preset dev -S "$root" >&2
  fi
  cmake --build "$build" --target planck >&2
  planck=$build/tools/planck
fi

# The model shapes and the sizes each is generated at: GROUP|FLAGS. Depths
# stay small enough for the oracle to prove some of them in seconds.
models=(
  "transformer|--layers 2 --sequence 256"
  "transformer|--layers 4 --sequence 1024"
  "convnet|--batch 1"
  "convnet|--batch 8 --image 256"
  "training|--layers 1 --sequence 128"
  "training|--layers 2 --sequence 512"
  "decoding|--layers 2 --prompt 64 --steps 32 --chunks 3"
  "decoding|--layers 4 --prompt 256 --steps 64 --chunks 4"
  "experts|--layers 1 --sequence 256 --devices 4"
  "experts|--layers 2 --sequence 1024 --devices 2"
)

# The output folder is remade, so only one of an earlier run (or an empty one) is taken.
if [[ -d $out && -n $(ls -A "$out") && ! -f $out/instances.tsv ]]; then
  echo "quality.sh: $out holds files of something else; give --out a new folder" >&2
  exit 2
fi
rm -rf "$out"
mkdir -p "$out/models" "$out/stats" "$out/oracle"
instances=$out/instances.tsv
: >"$instances"

add_group() {  # add_group GROUP FILE...
  local group=$1
  shift
  for f in "$@"; do printf '%s\t%s\n' "$group" "$f" >>"$instances"; done
}

shopt -s nullglob
sched=()
for f in "$root"/corpus/schedules/*.sched; do
  [[ $f == *.rewrite.sched ]] || sched+=("$f")
done
add_group "corpus schedules" "${sched[@]}"
n=0
for m in "${models[@]}"; do
  kind=${m%%|*}
  flags=${m#*|}
  n=$((n + 1))
  for seed in $(seq 1 "$seeds"); do
    f=$out/models/$kind-$n-seed$seed.sched
    # shellcheck disable=SC2086  # the flags are words
    "$planck" generate "$kind" $flags --seed "$seed" -o "$f"
    add_group "$kind" "$f"
  done
done
add_group "corpus intervals" "$root"/corpus/intervals/*.csv
add_group "shared intervals" "$shared"/intervals/*.csv
add_group "minimalloc" "$shared"/minimalloc/*.csv
add_group "onnx batch 1" "$onnx"/schedules/*-b1.sched
add_group "onnx batch 32" "$onnx"/schedules/*-b32.sched
add_group "onnx --inplace" "$onnx"/schedules-inplace/*.sched

# `planck planners --json` is one object whose `planners` lists them.
mapfile -t planners < <("$planck" planners --json - |
  python3 -c 'import json,sys; print("\n".join(p["name"] for p in json.load(sys.stdin)["planners"]))')
[[ ${#planners[@]} -gt 0 ]] || { echo "quality.sh: planck planners --json listed no planner" >&2; exit 2; }
mapfile -t files < <(cut -f2 "$instances")
echo "quality.sh: ${#files[@]} instances, planners ${planners[*]}, oracle ${time} s each" >&2

invalid=0
for p in "${planners[@]}"; do
  echo "quality.sh: planner $p" >&2
  status=0
  "$planck" stats --planner "$p" --json "$out/stats/$p.json" "${files[@]}" >/dev/null || status=$?
  if [[ $status -eq 1 ]]; then
    invalid=1
  elif [[ $status -ne 0 ]]; then
    echo "quality.sh: planck stats --planner $p failed with exit $status" >&2
    exit 2
  fi
done

i=0
for f in "${files[@]}"; do
  i=$((i + 1))
  echo "quality.sh: oracle $i of ${#files[@]}: $(basename "$f")" >&2
  status=0
  "$planck" oracle --time "$time" --json "$out/oracle/$i.json" "$f" >/dev/null || status=$?
  if [[ $status -ne 0 ]]; then
    echo "quality.sh: planck oracle $f failed with exit $status" >&2
    exit 2
  fi
done

# The chart needs matplotlib, which a pyenv python3 may lack where the
# system's (apt-get install -y python3-matplotlib) has it.
python=${PYTHON:-python3}
if ! "$python" -c 'import matplotlib' 2>/dev/null && [[ -x /usr/bin/python3 ]]; then python=/usr/bin/python3; fi
mkdir -p "$(dirname "$table")" "$(dirname "$svg")"
"$python" "$root/bench/quality_chart.py" --results "$out" --time "$time" --seeds "$seeds" \
  --planners "$(IFS=,; echo "${planners[*]}")" --table "$table" --svg "$svg"
cat "$table"
if [[ $invalid -ne 0 ]]; then
  echo "quality.sh: a plan failed the checker (see $out/stats)" >&2
  exit 1
fi
