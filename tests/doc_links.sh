#!/usr/bin/env bash
# Every citation of the manual leads somewhere (docs/development.md#the-tests):
# fails, naming file:line, when a tracked file cites docs/PAGE.md or
# docs/PAGE.md#ANCHOR and the page does not exist or no heading of it makes
# that anchor, or when a Markdown file links (relative to itself) to a file
# that does not exist or to PAGE.md#ANCHOR, #ANCHOR, that no heading makes.
# Anchors follow GitHub's rule: the heading's text (code spans as their
# text, links as their text) in lower case, punctuation but '-' and '_'
# dropped, each space a '-'; the second heading of the same anchor gets -1,
# the third -2. Headings inside fenced code blocks are no headings.
#
#   tests/doc_links.sh [SOURCE_ROOT]
set -euo pipefail
cd "${1:-$(dirname "$0")/..}"
status=0

# The tracked files, or without git every file but the builds'.
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  mapfile -t files < <(git ls-files)
else
  mapfile -t files < <(find . -type f -not -path './.git/*' -not -path './build/*' | sed 's|^\./||')
fi
mapfile -t markdown < <(printf '%s\n' "${files[@]}" | grep -E '\.md$' || true)

# The anchors the headings of a Markdown page make, one a line.
anchors_of() {
  awk '
    /^ ? ? ?(```|~~~)/ { fenced = !fenced; next }
    fenced { next }
    /^ ? ? ?#+([ \t]|$)/ && !/^ *#######/ {
      text = $0
      sub(/^[ ]*#+[ \t]*/, "", text)
      sub(/[ \t]+#+[ \t]*$/, "", text)          # closing hashes
      sub(/[ \t]+$/, "", text)
      gsub(/\]\([^)]*\)/, "", text)               # a link counts as its text
      text = tolower(text)
      gsub(/[!-,.\/:-@[-^`{-~]/, "", text)       # ASCII punctuation but - and _
      gsub(/ /, "-", text)
      n = seen[text]++
      print (n ? text "-" n : text)
    }' "$1"
}

declare -A anchors=()
# check WHERE TARGET PATH: WHERE (file:line) cites TARGET, which names PATH
# (relative to the root) and perhaps an anchor after '#'.
check() {
  local where=$1 target=$2 path=$3 anchor=
  [[ $target == *'#'* ]] && anchor=${target#*#}
  if [ ! -e "$path" ]; then
    echo "$where: $target: no file $path" >&2
    status=1
    return
  fi
  [ -n "$anchor" ] || return 0
  if [[ $path != *.md ]]; then
    echo "$where: $target: an anchor into $path, which is not Markdown" >&2
    status=1
    return
  fi
  if [ -z "${anchors[$path]+set}" ]; then
    anchors[$path]=$'\n'"$(anchors_of "$path")"$'\n'
  fi
  if [[ ${anchors[$path]} != *$'\n'"$anchor"$'\n'* ]]; then
    echo "$where: $target: no heading of $path makes #$anchor" >&2
    status=1
  fi
}

# The root-relative citations, in any tracked text file: docs/PAGE.md[#ANCHOR]
# not preceded by a path (../docs/ is a Markdown link, checked below). Pages
# are named in lower case, so docs/PAGE.md in capitals is a placeholder.
count=0
while IFS= read -r hit; do
  file=${hit%%:*}; rest=${hit#*:}; line=${rest%%:*}; match=${rest#*:}
  target=${match#"${match%%docs/*}"}
  check "$file:$line" "$target" "${target%%#*}"
  count=$((count + 1))
done < <(printf '%s\0' "${files[@]}" |
         xargs -0 grep -HnoIE '(^|[^A-Za-z0-9_./$-])docs/[a-z0-9_-]+\.md(#[A-Za-z0-9_-]*)?' 2>/dev/null || true)

# The links of Markdown files, relative to the file: [text](TARGET), outside
# fenced code blocks, but for URLs.
while IFS= read -r hit; do
  file=${hit%%:*}; rest=${hit#*:}; line=${rest%%:*}; target=${rest#*:}
  case $target in *://*|mailto:*) continue ;; esac
  path=${target%%#*}
  if [ -z "$path" ]; then
    path=$file
  else
    path=$(realpath -m --relative-to=. "$(dirname "$file")/$path")
  fi
  check "$file:$line" "$target" "$path"
  count=$((count + 1))
done < <(for file in "${markdown[@]}"; do
           awk -v file="$file" '
             /^ ? ? ?(```|~~~)/ { fenced = !fenced; next }
             fenced { next }
             {
               text = $0
               while (match(text, /\]\([^) ]+\)/)) {
                 print file ":" NR ":" substr(text, RSTART + 2, RLENGTH - 3)
                 text = substr(text, RSTART + RLENGTH)
               }
             }' "$file"
         done)

# The SPEC the manual replaced: its sections are cited no more.
while IFS= read -r hit; do
  file=${hit%%:*}; rest=${hit#*:}; line=${rest%%:*}
  echo "$file:$line: ${rest#*:}: SPEC is gone; cite the docs/ page and heading of the rule" >&2
  status=1
done < <(printf '%s\0' "${files[@]}" |
         xargs -0 grep -HnoIE '\bSPEC( sections?)? [0-9]+' 2>/dev/null || true)

[ $count -gt 0 ] || { echo "doc_links: found no citation of the manual to check" >&2; status=1; }
[ $status -eq 0 ] && echo "doc_links: each of $count citations of the manual names a file, and a heading of it when it names an anchor"
exit $status
