#!/usr/bin/env bash
# Runs the commands of the README's tour as a newcomer would: every line of
# the ```sh blocks under "## A five-minute tour", from the top of a scratch
# tree that links to the checkout, with planck on the PATH. Each must exit 0,
# or the N its line ends with as `# exit N`; and every line the tour shows
# as output must be a line they printed. Lines that run scripts/ (they
# install, build and run for minutes) and the line that sets PATH are left
# out; /tmp/ in a command is a scratch folder of the test's own.
#   tests/readme_test.sh SOURCE_DIR BUILD_DIR
# Exit 77 (skipped) without python3, which the example planners need.
set -uo pipefail
[ $# -eq 2 ] || { echo "usage: tests/readme_test.sh SOURCE_DIR BUILD_DIR" >&2; exit 2; }
src=$(cd "$1" && pwd)
build=$(cd "$2" && pwd)
command -v python3 >/dev/null || { echo "readme_test: no python3: skipped" >&2; exit 77; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/top/build" "$work/tmp"
for entry in "$src"/* "$src"/.ci; do
  [ "$(basename "$entry")" = build ] || ln -s "$entry" "$work/top/$(basename "$entry")"
done
ln -s "$build" "$work/top/build/dev"
export PATH="$build/tools:$PATH"

# The tour's commands, one a line, continuation lines joined.
mapfile -t commands < <(awk '
  /^## / { tour = ($0 == "## A five-minute tour") }
  tour && /^```sh$/ { block = 1; next }
  block && /^```$/ { block = 0; next }
  block {
    line = pending $0
    if (line ~ /\\$/) { pending = substr(line, 1, length(line) - 1); next }
    pending = ""
    if (line ~ /^[ \t]*(#|$)/ || line ~ /^(export PATH=|scripts\/)/) next
    print line
  }' "$src/README.md")
[ ${#commands[@]} -ge 10 ] || { echo "readme_test: found ${#commands[@]} commands in the tour, expected more" >&2; exit 1; }

failed=0
cd "$work/top"
: >"$work/all"
for command in "${commands[@]}"; do
  expected=0
  if [[ "$command" =~ \#[[:space:]]*exit[[:space:]]+([0-9]+)[[:space:]]*$ ]]; then expected=${BASH_REMATCH[1]}; fi
  run=${command//\/tmp\//$work/tmp/}
  bash -c "$run" >"$work/out" 2>&1
  status=$?
  cat "$work/out" >>"$work/all"
  if [ $status -ne "$expected" ]; then
    echo "FAILED: exit $status, expected $expected: $command" >&2
    tail -20 "$work/out" >&2
    failed=1
  else
    echo "ok (exit $status): $command"
  fi
done

# Every line the tour shows as output (its ``` blocks without a language;
# a file's text is shown in a ```text block) is a whole line some command
# printed: `...` stands for the start of a path and seconds taken may
# differ; in a line with no picture in it (no `|`), so may the spaces that
# align a table's columns to the width of a path.
python3 - "$src/README.md" "$work/all" "$work/tmp/" <<'PY' || failed=1
import re, sys
readme, printed, scratch = sys.argv[1:]
def norm(line):
    line = line.replace(scratch, "/tmp/")
    return re.sub(r"\b[0-9]+(\.[0-9]+)? s\b", "N s", line.rstrip())
def spaced(line):
    return re.sub(r" +", " ", line)
out = [norm(l) for l in open(printed, errors="replace")]
out_spaced = [spaced(l) for l in out]
tour = False
fence = None  # the line that opened the block the line is in
missing = checked = 0
for number, line in enumerate(open(readme), 1):
    line = line.rstrip("\n")
    if line.startswith("## "):
        tour = line == "## A five-minute tour"
    if not tour:
        continue
    if line.startswith("```"):
        fence = line if fence is None else None
        continue
    if fence != "```" or not line.strip():
        continue
    checked += 1
    want = norm(line)
    pattern = re.escape(want).replace(re.escape("..."), ".*")
    found = any(re.fullmatch(pattern, o) for o in out)
    if not found and "|" not in want:
        loose = re.escape(spaced(want)).replace(re.escape("..."), ".*")
        found = any(re.fullmatch(loose, o) for o in out_spaced)
    if not found:
        print(f"README.md:{number}: no command of the tour printed: {line}", file=sys.stderr)
        missing += 1
if checked < 20:
    print(f"README.md: the tour shows {checked} lines of output; expected more", file=sys.stderr)
    missing += 1
sys.exit(1 if missing else 0)
PY
exit $failed
