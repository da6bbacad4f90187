#!/usr/bin/env bash
# Every GoogleTest program names its parameterized tests by what they test:
# each instantiation has a name generator (no test ends in a bare index
# such as /3) and each parameter type a PrintTo (gtest shows no "N-byte
# object <E0-6D ...>" in its listing or its failures).
#
#   tests/test_names.sh PROGRAM...
set -uo pipefail
status=0
for program in "$@"; do
  if ! list=$("$program" --gtest_list_tests 2>&1); then
    echo "test_names: $program --gtest_list_tests fails:" >&2
    echo "$list" >&2
    status=1
    continue
  fi
  bad=$(echo "$list" | grep -E -e '-byte object <' -e '/[0-9]+ +# GetParam\(\)' -e '/[0-9]+\. +# TypeParam')
  if [ -n "$bad" ]; then
    echo "test_names: $(basename "$program") names $(echo "$bad" | wc -l) tests by index or shows" \
         "their parameters as bytes, such as:" >&2
    echo "$bad" | head -5 | cut -c1-150 | sed 's/^ */  /' >&2
    status=1
  fi
done
[ $status -eq 0 ] && echo "test_names: $# programs, every parameterized test named and printable"
exit $status
