#!/usr/bin/env bash
# scripts/oss-fuzz-build.sh run as ClusterFuzzLite runs a build.sh (no
# container): the engine's variables set as it sets them for an address
# sanitizer build, then $OUT must hold each target as a program libFuzzer
# drives, its seed corpus zip with every seed, its options file and the
# dictionary that names.
#   fuzz/oss_fuzz_build_test.sh WORK-DIR TARGET...
set -euo pipefail
work=$1
mkdir -p "$work"
shift
src=$(cd "$(dirname "$0")/.." && pwd)
export CC=clang CXX=clang++ SANITIZER=address LIB_FUZZING_ENGINE=-fsanitize=fuzzer
export CFLAGS="-O1 -fno-omit-frame-pointer -gline-tables-only -fsanitize=address -fsanitize-address-use-after-scope -fsanitize=fuzzer-no-link"
export CXXFLAGS="$CFLAGS -stdlib=libc++"
export OUT="$work/out" WORK="$work"
rm -rf "$OUT"
"$src/scripts/oss-fuzz-build.sh" "$@" >"$work/build.log" 2>&1 || { cat "$work/build.log" >&2; exit 1; }

fail() { echo "oss_fuzz_build_test: $*" >&2; exit 1; }
for target in "$@"; do
  [ -x "$OUT/$target" ] || fail "$OUT/$target is missing"
  zip="$OUT/${target}_seed_corpus.zip"
  [ -f "$zip" ] || fail "$zip is missing"
  want=$(ls "$src/corpus/fuzz/$target" | sort)
  got=$(unzip -Z1 "$zip" | sort)
  [ "$got" = "$want" ] || fail "$zip holds [$got], not the seeds [$want]"
  [ -f "$OUT/$target.options" ] || fail "$OUT/$target.options is missing"
  cmp -s "$OUT/$target.options" "$src/fuzz/$target.options" || fail "$OUT/$target.options differs from fuzz/"
  dict=$(sed -n -E 's/^dict *= *(.*)$/\1/p' "$OUT/$target.options")
  [ -z "$dict" ] || [ -f "$OUT/$dict" ] || fail "$target.options names $dict, which is not in \$OUT"
  # A libFuzzer program: it runs the seeds, as the engine would, and stops.
  seeds="$work/seeds-$target"
  rm -rf "$seeds" && mkdir -p "$seeds" && unzip -q "$zip" -d "$seeds"
  "$OUT/$target" -runs=0 "$seeds" >"$work/$target.log" 2>&1 || { cat "$work/$target.log" >&2; fail "$target fails on its seeds"; }
  grep -q "INFO: Seed:" "$work/$target.log" || fail "$OUT/$target is not a libFuzzer program"
done
echo "oss_fuzz_build_test: $* in \$OUT with seeds, options and dictionaries"
