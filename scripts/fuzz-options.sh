#!/usr/bin/env bash
# The libFuzzer arguments of a fuzz target's fuzz/TARGET.options file, one a
# line (-dict=... with the dictionary's full path, -max_len=..., ...), for
# running the target by hand as scripts/nightly.sh and CI do:
#   build/fuzz/fuzz/fuzz_plan $(scripts/fuzz-options.sh fuzz_plan) corpus-dir
# Nothing is printed for a target without an options file.
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: scripts/fuzz-options.sh TARGET" >&2; exit 2; }
fuzz_dir="$(cd "$(dirname "$0")/../fuzz" && pwd)"
file="$fuzz_dir/$1.options"
[ -f "$file" ] || exit 0
# The [libfuzzer] section's "name = value" lines.
sed -n '/^\[libfuzzer\]/,/^\[/p' "$file" | grep -E '^[a-z_]+ *=' |
  sed -E 's/^([a-z_]+) *= *(.*)$/-\1=\2/; s#^-dict=#-dict='"$fuzz_dir"'/#'
