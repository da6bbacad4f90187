#!/usr/bin/env bash
# planck draw's SVG as a browser gets it: for a valid plan, the README's
# failing plan, a plan of model v2 and one of model v3 (streams, events,
# local buffers), the file parses as XML (python3's
# xml.etree), and librsvg's rsvg-convert renders it to a PNG of the width
# and height the SVG says. Exit 77 (skipped) without rsvg-convert or python3.
#   draw/svg_render_test.sh SOURCE_DIR PLANCK
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: draw/svg_render_test.sh SOURCE_DIR PLANCK" >&2; exit 2; }
src=$(cd "$1" && pwd)
planck=$2
command -v python3 >/dev/null || { echo "svg_render_test: no python3: skipped" >&2; exit 77; }
command -v rsvg-convert >/dev/null || {
  echo "svg_render_test: no rsvg-convert (Debian: librsvg2-bin, scripts/bootstrap.sh): skipped" >&2
  exit 77
}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$src"

draw() {  # draw NAME EXPECTED-EXIT SCHEDULE PLAN
  local status=0
  "$planck" draw "$3" "$4" -o "$work/$1.svg" >/dev/null || status=$?
  [ "$status" -eq "$2" ] || { echo "svg_render_test: planck draw $3 $4 exits $status, not $2" >&2; exit 1; }
}
draw valid 0 corpus/schedules/08-range.sched corpus/schedules/08-range.plan
draw invalid 1 corpus/schedules/08-range.sched draw/testdata/08-range-loops.plan
draw v2 0 corpus/schedules/v2/25-lanes.sched corpus/schedules/v2/25-lanes.plan
draw v3 0 examples/schedules/pipeline-v3.sched draw/testdata/pipeline-v3.plan

for name in valid invalid v2 v3; do
  svg=$work/$name.svg
  read -r width height < <(python3 - "$svg" <<'PY'
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
assert root.tag == "{http://www.w3.org/2000/svg}svg", root.tag
titles = root.findall(".//{http://www.w3.org/2000/svg}rect/{http://www.w3.org/2000/svg}title")
assert titles, "no rectangle has a title"
print(root.get("width"), root.get("height"))
PY
  ) || { echo "svg_render_test: $name.svg is not well-formed SVG" >&2; exit 1; }
  rsvg-convert -o "$work/$name.png" "$svg" || { echo "svg_render_test: rsvg-convert fails on $name.svg" >&2; exit 1; }
  read -r w h < <(python3 - "$work/$name.png" <<'PY'
import struct, sys
data = open(sys.argv[1], "rb").read(24)
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
print(*struct.unpack(">II", data[16:24]))
PY
  )
  [ "$w" = "$width" ] && [ "$h" = "$height" ] || {
    echo "svg_render_test: $name.png is ${w}x$h, the SVG says ${width}x$height" >&2
    exit 1
  }
done
echo "svg_render_test: 4 pictures parse as XML and render to their size"
