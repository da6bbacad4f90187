#!/usr/bin/env bash
# planner/ and oracle/ depend on model/ and never on each other (docs/development.md#layout):
# fails, naming each line, when a file under one includes a header of the
# other, a file under model/ includes a header of any other part, or a source
# of the generators (gen/) or the importers (import/), not their tests,
# includes more than model/, or a file under draw/ includes planner/,
# harness/ or any other part but model/ and oracle/check/.
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
check planner oracle draw
check oracle planner draw
check model gen import planner oracle harness properties tools draw
EXCLUDE='*_test.cc' check gen import planner oracle harness properties tools
EXCLUDE='*_test.cc' check import gen planner oracle harness properties tools
check draw planner harness gen import properties tools oracle/optimum
[ $status -eq 0 ] && echo "layering: model/, planner/ and oracle/ keep apart; gen/ and import/ stand on model/ alone; draw/ on model/ and oracle/check/"
exit $status
