#!/usr/bin/env bash
# planner/ and oracle/ depend on model/ and never on each other (SPEC section
# 1): fails, naming each line, when a file under one includes a header of the
# other, or a file under model/ includes either.
set -euo pipefail
cd "${1:-$(dirname "$0")/..}"
status=0
check() {  # check DIR FORBIDDEN...
  local dir=$1; shift
  for other in "$@"; do
    if grep -rnE "#include +\"$other/" "$dir" --include='*.h' --include='*.cc'; then
      echo "layering: $dir/ must not include $other/ headers" >&2
      status=1
    fi
  done
}
check planner oracle
check oracle planner
check model planner oracle properties tools
[ $status -eq 0 ] && echo "layering: model/, planner/ and oracle/ keep apart"
exit $status
