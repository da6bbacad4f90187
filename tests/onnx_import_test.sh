#!/usr/bin/env bash
# planck import on the models of corpus/onnx/ (built by its make_models.py):
# each NAME.onnx imported with the options of NAME.args gives NAME.sched
# byte for byte, which every planner plans, the checker judges valid and the
# shadow executor runs without a clobber (planck verify); or, where NAME.err is kept, exit 2
# with that message and nothing on standard output. Then the command's own
# bad usage.
#
#   tests/onnx_import_test.sh PLANCK [--update]   # --update rewrites the expected outputs
set -uo pipefail
planck=${1:?usage: onnx_import_test.sh PLANCK [--update]}
update=${2:-}
planck=$(cd "$(dirname "$planck")" && pwd)/$(basename "$planck")
corpus=$(cd "$(dirname "$0")/../corpus/onnx" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() {
  echo "onnx_import_test: $*" >&2
  failures=$((failures + 1))
}

cd "$corpus"
imported=()
shopt -s nullglob
models=(*.onnx)
[[ ${#models[@]} -gt 0 ]] || { echo "onnx_import_test: no models in $corpus" >&2; exit 1; }
for model in "${models[@]}"; do
  name=${model%.onnx}
  args=()
  [[ -f $name.args ]] && read -r -a args <"$name.args"
  status=0
  "$planck" import "${args[@]}" "$model" >"$tmp/out" 2>"$tmp/err" || status=$?
  if [[ $update == --update ]]; then
    if [[ $status -eq 0 ]]; then cp "$tmp/out" "$name.sched"; rm -f "$name.err"; else cp "$tmp/err" "$name.err"; rm -f "$name.sched"; fi
    continue
  fi
  if [[ -f $name.err ]]; then
    [[ $status -eq 2 ]] || fail "$model: exit $status, expected 2"
    cmp -s "$tmp/err" "$name.err" || fail "$model: message $(cat "$tmp/err"), expected $(cat "$name.err")"
    [[ ! -s $tmp/out ]] || fail "$model: a failed import printed a schedule"
    continue
  fi
  [[ -f $name.sched ]] || { fail "$model: neither $name.sched nor $name.err is kept"; continue; }
  [[ $status -eq 0 ]] || { fail "$model: exit $status: $(cat "$tmp/err")"; continue; }
  cmp -s "$tmp/out" "$name.sched" || fail "$model: the schedule differs from $name.sched: $(diff "$name.sched" "$tmp/out" | head -5)"
  # -o writes the same text.
  "$planck" import "${args[@]}" "$model" -o "$tmp/written.sched" && cmp -s "$tmp/written.sched" "$name.sched" ||
    fail "$model: -o wrote something else"
  imported+=("$name.sched")
done
[[ $update == --update ]] && { echo "onnx_import_test: expected outputs rewritten"; exit 0; }

# Every planner plans each imported schedule; the checker and the shadow
# executor judge each plan.
for p in tlsf tinygrad greedy bysize naive best; do
  "$planck" verify --planner "$p" --out "$tmp/failures" "${imported[@]}" >"$tmp/verify" 2>&1 ||
    fail "planck verify --planner $p on the imported schedules: $(cat "$tmp/verify")"
done

# Bad usage: exit 2 with one line naming the problem.
expect_bad() {  # expect_bad WORDS-THE-MESSAGE-HOLDS ARGS...
  local words=$1
  shift
  local status=0
  "$planck" import "$@" >/dev/null 2>"$tmp/err" || status=$?
  [[ $status -eq 2 ]] || fail "planck import $*: exit $status, expected 2"
  [[ $(wc -l <"$tmp/err") -eq 1 ]] || fail "planck import $*: not a one-line message: $(cat "$tmp/err")"
  grep -qF -- "$words" "$tmp/err" || fail "planck import $*: the message does not say $words: $(cat "$tmp/err")"
}
expect_bad "no symbolic dimension" dims.onnx --dim seq=4
expect_bad "--dim batch" dims.onnx --dim batch=x
expect_bad "power of two" mlp.onnx --align 48
expect_bad "a device is one word" mlp.onnx --device "A B"
expect_bad "cannot read" missing.onnx
expect_bad "cannot write" mlp.onnx -o "$tmp/no/such/folder/out.sched"
# Standard input: external data is not looked for.
"$planck" import - <mlp.onnx | cmp -s - mlp.sched || fail "planck import - differs from mlp.sched"

if [[ $failures -ne 0 ]]; then
  echo "onnx_import_test: $failures failure(s)" >&2
  exit 1
fi
echo "onnx_import_test: ${#models[@]} models imported as expected"
