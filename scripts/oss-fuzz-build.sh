#!/usr/bin/env bash
# Builds the fuzz targets the way OSS-Fuzz and ClusterFuzzLite run a
# project's build.sh: compilers and flags from $CC $CXX $CFLAGS $CXXFLAGS,
# the engine's link flags from $LIB_FUZZING_ENGINE, and into $OUT each
# target with TARGET_seed_corpus.zip (corpus/fuzz/<seeds>/), TARGET.options
# (fuzz/TARGET.options) and the dictionaries those name.
#
#   CC=clang CXX=clang++ CFLAGS=... CXXFLAGS=... LIB_FUZZING_ENGINE=-fsanitize=fuzzer \
#     OUT=/out SANITIZER=address scripts/oss-fuzz-build.sh [TARGET...]
#
# Without TARGETs, every target that needs nothing but its input
# (fuzz_planner_lib, which needs a planner library at run time, is left out).
# $WORK, when set, holds the build tree (default build/oss-fuzz-$SANITIZER).
# The libraries Planck links (fmt, Z3, ...) are the system's, built against
# libstdc++, so -stdlib=libc++ is taken out of $CXXFLAGS; memory sanitizer
# builds, which need every library instrumented, are refused.
set -euo pipefail
for v in CC CXX LIB_FUZZING_ENGINE OUT; do
  [ -n "${!v:-}" ] || { echo "oss-fuzz-build: \$$v is not set" >&2; exit 2; }
done
sanitizer=${SANITIZER:-address}
[ "$sanitizer" != memory ] || { echo "oss-fuzz-build: SANITIZER=memory is not supported" >&2; exit 2; }
src=$(cd "$(dirname "$0")/.." && pwd)
build=${WORK:-$src/build}/oss-fuzz-$sanitizer
cxxflags=${CXXFLAGS:-}
cxxflags=${cxxflags//-stdlib=libc++/}

targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(fuzz_schedule fuzz_plan fuzz_intervals fuzz_planners fuzz_tlsf fuzz_oracle fuzz_import)
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)

cmake -S "$src" -B "$build" "${generator[@]}" "${launcher[@]}" \
  -DCMAKE_BUILD_TYPE= -DCMAKE_C_COMPILER="$CC" -DCMAKE_CXX_COMPILER="$CXX" \
  -DCMAKE_C_FLAGS="${CFLAGS:-}" -DCMAKE_CXX_FLAGS="$cxxflags" \
  -DPLANCK_LIB_FUZZING_ENGINE="$LIB_FUZZING_ENGINE" -DPLANCK_BENCH=OFF >/dev/null
cmake --build "$build" -j "$(nproc)" --target "${targets[@]}"

mkdir -p "$OUT"
for target in "${targets[@]}"; do
  cp "$build/fuzz/$target" "$OUT/$target"
  rm -f "$OUT/${target}_seed_corpus.zip"
  (cd "$src/corpus/fuzz/$target" && zip -q -j "$OUT/${target}_seed_corpus.zip" ./*)
  options="$src/fuzz/$target.options"
  if [ -f "$options" ]; then
    cp "$options" "$OUT/"
    dict=$(sed -n -E 's/^dict *= *(.*)$/\1/p' "$options")
    [ -z "$dict" ] || cp "$src/fuzz/$dict" "$OUT/"
  fi
done
echo "oss-fuzz-build: ${targets[*]} in $OUT" >&2
