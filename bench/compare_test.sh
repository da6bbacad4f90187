#!/usr/bin/env bash
# compare.sh refuses what it cannot compare before it builds anything: a
# name that is no commit, a count of runs that is no whole number from 1.
set -uo pipefail
script="$(dirname "$0")/compare.sh"
fail=0
expect_usage_error() {
  local want="$1"
  shift
  local out
  out="$("$script" "$@" 2>&1)"
  local rc=$?
  if [ "$rc" -ne 2 ] || [[ "$out" != *"$want"* ]]; then
    echo "compare.sh $*: exit $rc, said: $out (wanted exit 2 and: $want)" >&2
    fail=1
  fi
}
expect_usage_error "usage: bench/compare.sh REV"
expect_usage_error "no-such-commit names no commit" no-such-commit
expect_usage_error "not '0'" HEAD 0
expect_usage_error "not 'x'" HEAD x
[ "$fail" -eq 0 ] && echo "compare.sh: every usage error refused"
exit "$fail"
