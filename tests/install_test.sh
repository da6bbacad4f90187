#!/usr/bin/env bash
# The installed tree, as a planner's author uses it: `cmake --install` into a
# temporary prefix, examples/c/first_fit.c built against it, and the
# installed planck verify judging the library it gives.
#
#   tests/install_test.sh find_package SOURCE BUILD CC GENERATOR BINDIR DATADIR
#       examples/c as a CMake project of its own, with find_package(planck)
#       and CMAKE_PREFIX_PATH at the prefix; its tests run planck verify
#   tests/install_test.sh pkg_config   SOURCE BUILD CC GENERATOR BINDIR DATADIR
#       cc $(pkg-config --cflags planck), then the planck command that
#       pkg-config names; exit 77 (a skip) without pkg-config
set -euo pipefail
[ $# -eq 7 ] || { echo "usage: $0 find_package|pkg_config SOURCE BUILD CC GENERATOR BINDIR DATADIR" >&2; exit 2; }
how=$1 src=$2 build=$3 cc=$4 generator=$5 bindir=$6 datadir=$7
if [ "$how" = pkg_config ] && ! command -v pkg-config >/dev/null; then
  echo "install_test: no pkg-config, skipped"
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix
cmake --install "$build" --prefix "$prefix" >"$tmp/install.log" || { cat "$tmp/install.log" >&2; exit 1; }
for f in "$bindir/planck" include/planck/planner.h "$datadir/cmake/planck/planckConfig.cmake" \
         "$datadir/cmake/planck/planckConfigVersion.cmake" "$datadir/pkgconfig/planck.pc" \
         "$datadir/planck/corpus/schedules/01-chain.sched"; do
  [ -e "$prefix/$f" ] || { echo "install_test: $f is not installed" >&2; exit 1; }
done

case $how in
  find_package)
    cmake -S "$src/examples/c" -B "$tmp/first_fit" -G "$generator" -DCMAKE_C_COMPILER="$cc" \
      -DCMAKE_PREFIX_PATH="$prefix" >"$tmp/configure.log" || { cat "$tmp/configure.log" >&2; exit 1; }
    cmake --build "$tmp/first_fit" >"$tmp/build.log" || { cat "$tmp/build.log" >&2; exit 1; }
    # The imported planck::planck is the installed command.
    grep -q "$prefix/$bindir/planck" "$tmp/first_fit/CTestTestfile.cmake" ||
      { echo "install_test: the tests do not run $prefix/$bindir/planck" >&2; exit 1; }
    ctest --test-dir "$tmp/first_fit" --output-on-failure
    ;;
  pkg_config)
    export PKG_CONFIG_PATH=$prefix/$datadir/pkgconfig
    planck=$(pkg-config --variable=planck planck)
    [ "$(realpath "$planck")" = "$(realpath "$prefix/$bindir/planck")" ] ||
      { echo "install_test: pkg-config names $planck as the command" >&2; exit 1; }
    # shellcheck disable=SC2046  # the flags are words
    "$cc" -O2 -shared -fPIC $(pkg-config --cflags planck) -o "$tmp/first_fit.so" "$src/examples/c/first_fit.c"
    # shellcheck disable=SC2046
    "$cc" -O2 -shared -fPIC $(pkg-config --cflags planck) -DFIRST_FIT_BUG_ALIGN128 \
      -o "$tmp/first_fit_bug.so" "$src/examples/c/first_fit.c"
    "$planck" verify --planner-lib "$tmp/first_fit.so" --cases 200 --out "$tmp/failures"
    status=0
    "$planck" verify --planner-lib "$tmp/first_fit_bug.so" --cases 200 --out "$tmp/failures" >"$tmp/bug.log" || status=$?
    [ $status -eq 1 ] && grep -q "fails with invalid-" "$tmp/bug.log" ||
      { echo "install_test: verify exits $status on the library with a bug:" >&2; cat "$tmp/bug.log" >&2; exit 1; }
    echo "install_test: the library with a bug is caught: $(grep -m1 'fails with' "$tmp/bug.log")"
    ;;
  *) echo "install_test: no way $how" >&2; exit 2 ;;
esac
