#!/usr/bin/env bash
# planner/ and oracle/ depend on model/ and never on each other (SPEC section
# 1): fails, naming each line, when a file under one includes a header of the
# other, a file under model/ includes a header of any other part, or a source
# of the generators (gen/) or the importers (import/), not their tests,
# includes more than model/.
set -euo pipefail
cd "${1:-$(dirname "$0")/..}"
status=0
check() {  # check DIR FORBIDDEN... (EXCLUDE, when set, names files left out)
  local dir=$1; shift
  local skip=()
  [ -n "${EXCLUDE:-}" ] && skip=(--exclude="$EXCLUDE")
  for other in "$@"; do
    if grep -rnE "#include +\"$other/" "$dir" --include='*.h' --include='*.cc' "${skip[@]}"; then
      echo "layering: $dir/ must not include $other/ headers" >&2
      status=1
    fi
  done
}
check planner oracle
check oracle planner
check model gen import planner oracle harness properties tools
EXCLUDE='*_test.cc' check gen import planner oracle harness properties tools
EXCLUDE='*_test.cc' check import gen planner oracle harness properties tools
[ $status -eq 0 ] && echo "layering: model/, planner/ and oracle/ keep apart; gen/ and import/ stand on model/ alone"
exit $status
