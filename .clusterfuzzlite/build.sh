#!/bin/bash -eu
# ClusterFuzzLite's build step: the engine has set $CC $CXX $CFLAGS $CXXFLAGS
# $LIB_FUZZING_ENGINE $OUT $SANITIZER; the script puts every target, its
# seed corpus, options and dictionary in $OUT.
"$SRC/planck/scripts/oss-fuzz-build.sh"
