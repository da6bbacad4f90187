#!/usr/bin/env bash
# Real networks: torchvision models (resnet18, resnet50, mobilenet_v3_large,
# efficientnet_b0, convnext_tiny, regnet_y_400mf, inception_v3, vit_b_16,
# swin_t) and a torch.nn.TransformerEncoder, exported to ONNX with random
# weights at batch 1 and 32 (bench/onnx_export.py), imported with `planck
# import` (timed) with and without --inplace, planned by every planner
# (each plan checked, timed) and bounded by the oracle. Writes the table of
# docs/onnx-networks.md.
#
#   bench/onnx.sh                       # builds planck in build/dev (preset dev)
#   bench/onnx.sh --time 10 --out DIR --table FILE
#   PLANCK=/path/to/planck bench/onnx.sh
#
# Options:
#   --out DIR     models, schedules and results (default build/onnx; the
#                 exported models are kept there and not exported again)
#   --time S      the oracle's seconds per schedule (default 10)
#   --table FILE  the markdown tables (default docs/onnx-networks.md)
#   --models LIST comma-separated subset of the models above
#   --no-export   only the models already in DIR/models (exported earlier)
#
# Needs Debian's python3-torch and python3-torchvision (run by
# /usr/bin/python3): without them it says so and exits 0. The schedules it
# writes (DIR/schedules/*.sched) are what bench/quality.sh adds to the
# quality table and scripts/nightly.sh verifies when present. Exit 1 when a
# plan fails the checker or an import fails; 2 on bad usage.

set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
out=$root/build/onnx
time=10
table=$root/docs/onnx-networks.md
models=
export=1
python=/usr/bin/python3

usage() {
  sed -n '2,/^$/s/^# \{0,1\}//p' "$0" >&2
  exit 2
}

while [[ $# -gt 0 ]]; do
  case $1 in
    --out) out=${2:?--out needs a folder}; shift 2 ;;
    --time) time=${2:?--time needs seconds}; shift 2 ;;
    --table) table=${2:?--table needs a file}; shift 2 ;;
    --models) models=${2:?--models needs a list}; shift 2 ;;
    --no-export) export=0; shift ;;
    -h|--help) usage ;;
    *) echo "onnx.sh: unknown option $1" >&2; usage ;;
  esac
done

if ! [[ -x $python ]] || ! "$python" -c 'import torch, torchvision' 2>/dev/null; then
  echo "onnx.sh: skipped: needs Debian's python3-torch and python3-torchvision (apt-get install python3-torch python3-torchvision)" >&2
  exit 0
fi

planck=${PLANCK:-}
if [[ -z $planck ]]; then
  "$root/scripts/planck.sh" --version >/dev/null  # builds it in build/dev when needed
  planck=$root/build/dev/tools/planck
fi

mkdir -p "$out/models" "$out/schedules" "$out/schedules-inplace" "$out/results"
export_args=(--out "$out/models")
[[ -n $models ]] && export_args+=(--models "$models")
if [[ $export -eq 1 ]]; then
  echo "onnx.sh: exporting (kept in $out/models)" >&2
  "$python" "$root/bench/onnx_export.py" "${export_args[@]}"
fi

planners=(tlsf tinygrad greedy bysize naive best)
results=$out/results/results.tsv
printf 'model\tvariant\twhat\tvalue\n' >"$results"
failed=0
shopt -s nullglob
for model in "$out"/models/*.onnx; do
  name=$(basename "$model" .onnx)
  if [[ -n $models ]]; then
    [[ ",$models," == *",${name%-b*},"* ]] || continue
  fi
  for variant in plain inplace; do
    dir=$out/schedules
    flags=()
    if [[ $variant == inplace ]]; then dir=$out/schedules-inplace; flags=(--inplace); fi
    sched=$dir/$name.sched
    # The import, timed: the best of three runs.
    best=
    for _ in 1 2 3; do
      if ! "$planck" import "${flags[@]}" "$model" -o "$sched" --json "$out/results/import.json" 2>"$out/results/import.err"; then
        echo "onnx.sh: planck import $model failed: $(cat "$out/results/import.err")" >&2
        failed=1
        continue 2
      fi
      s=$("$python" -c 'import json,sys; print(json.load(open(sys.argv[1]))["seconds"])' "$out/results/import.json")
      best=$("$python" -c 'import sys; a=[float(x) for x in sys.argv[1:] if x]; print(min(a))' "$s" "$best")
    done
    printf '%s\t%s\timport_seconds\t%s\n' "$name" "$variant" "$best" >>"$results"
    printf '%s\t%s\tbytes\t%s\n' "$name" "$variant" "$(stat -L -c %s "$model")" >>"$results"
    echo "onnx.sh: $name ($variant): imported in ${best} s" >&2
    for p in "${planners[@]}"; do
      status=0
      "$planck" stats --planner "$p" --json "$out/results/stats.json" "$sched" >/dev/null || status=$?
      if [[ $status -ne 0 ]]; then
        echo "onnx.sh: planck stats --planner $p $sched: exit $status" >&2
        failed=1
        continue
      fi
      "$python" - "$out/results/stats.json" "$name" "$variant" "$p" >>"$results" <<'PY'
import json, sys
stats = json.load(open(sys.argv[1]))
f = stats["files"][0]
name, variant, planner = sys.argv[2:5]
print(f"{name}\t{variant}\tarena_{planner}\t{sum(d['arena'] for d in f['devices'])}")
print(f"{name}\t{variant}\tvalid_{planner}\t{int(f['valid'])}")
print(f"{name}\t{variant}\tlower_bound\t{sum(d['lower_bound'] for d in f['devices'])}")
PY
      plan_seconds=$("$planck" plan --planner "$p" --timings "$sched" -o "$out/results/plan.plan" 2>&1 >/dev/null |
        sed -n -E 's/.* plan ([0-9.]+) s.*/\1/p')
      printf '%s\t%s\tplan_seconds_%s\t%s\n' "$name" "$variant" "$p" "${plan_seconds:-nan}" >>"$results"
    done
    "$planck" oracle --time "$time" --json "$out/results/oracle.json" "$sched" >/dev/null || true
    "$python" - "$out/results/oracle.json" "$name" "$variant" >>"$results" <<'PY'
import json, sys
try:
    oracle = json.load(open(sys.argv[1]))
except (OSError, ValueError):
    sys.exit(0)
name, variant = sys.argv[2:4]
devices = oracle.get("devices", [])
if devices and all(d["status"] == "optimal" and d["upper_bound"] is not None for d in devices):
    print(f"{name}\t{variant}\toptimum\t{sum(d['upper_bound'] for d in devices)}")
print(f"{name}\t{variant}\toracle_seconds\t{oracle.get('seconds', 0)}")
PY
  done
done

"$python" "$root/bench/onnx_table.py" --results "$results" --time "$time" --planners "$(IFS=,; echo "${planners[*]}")" \
  --table "$table"
cat "$table"
exit $failed
