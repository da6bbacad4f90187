#!/usr/bin/env bash
# Cases per second of each RapidCheck property: runs the property program
# with a fixed seed and case count and prints a table from its output.
#   bench/properties.sh [BUILD_DIR] [CASES]
# BUILD_DIR defaults to build/dev (built with the dev preset when missing),
# CASES to 1000. Times are GoogleTest's, in whole milliseconds.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$root/build/dev}"
cases="${2:-1000}"
bin="$build/properties/properties_test"

if [ ! -x "$bin" ]; then
  if [ "$build" != "$root/build/dev" ]; then
    echo "no property program at $bin: build the target properties_test first" >&2
    exit 1
  fi
  (cd "$root" && [ -f build/dev/build.ninja ] || cmake --preset dev >/dev/null
   cmake --build build/dev --target properties_test -j "$(nproc)" >/dev/null) >&2
fi

# The tests that expect failures, spawn the program, or run no cases of
# their own are left out: they measure nothing about a property.
RC_PARAMS="seed=1 max_success=$cases" "$bin" --gtest_filter='-PropertyRunner.*:Bugs/*:Shrinking.*' 2>/dev/null |
  awk '
    /^\[ RUN      \]/ { name = $4; count = "" }
    /^\[ property \]/ { count = $4 }
    /^\[       OK \]/ {
      if (count != "") {
        ms = $(NF - 1); sub(/^\(/, "", ms)
        rows[++n] = name; c[n] = count; t[n] = ms / 1000
      }
      name = ""
    }
    /^\[  FAILED  \]/ && name != "" { failed = failed " " name; name = "" }
    END {
      printf "%-80s %7s %9s %10s\n", "property", "cases", "seconds", "cases/s"
      for (i = 1; i <= n; ++i) {
        rate = t[i] > 0 ? sprintf("%10.0f", c[i] / t[i]) : sprintf("%10s", ">" c[i] * 1000)
        printf "%-80s %7d %9.3f %s\n", rows[i], c[i], t[i], rate
      }
      if (failed != "") { print "failed:" failed > "/dev/stderr"; exit 1 }
    }'
