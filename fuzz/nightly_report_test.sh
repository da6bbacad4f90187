#!/usr/bin/env bash
# The nightly report's triage on recorded crash reports, with no fuzzing and
# no minimizing: the folder a nightly run leaves (logs/TARGET-N.log, crashes/)
# is laid out from fuzz/testdata, and scripts/nightly_report.py must group
# the crashes by signature, count them, pick the smallest input of a group,
# take its schedule out of the crash report, and say how to reproduce it;
# and the seconds each preset's build took (logs/run.env), with their sum.
#
# A planck verify run's failure (logs/verify-1.json) is reported with a link
# to the picture of its plan, relative to the report.
#
# fuzz/testdata holds two libFuzzer logs as recorded: fuzz_planner_lib on
# examples/c/first_fit.c built with FIRST_FIT_BUG_FLAG, and a small libFuzzer
# program with a planted heap overflow under AddressSanitizer; each with the
# crash input it wrote.
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
data=$src/fuzz/testdata
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
mkdir -p "$out/logs" "$out/crashes"

# record TARGET RUN CRASH-NAME INPUT: one fuzzing run that ended in a crash.
record() {
  cp "$4" "$out/crashes/$3"
  sed -e "s#@CRASH@#$out/crashes/$3#" -e "s#@PREFIX@#$out/crashes/$1-#" -e "s#@CORPUS@#$out/work/$1#g" \
    "$data/$1.log" >"$out/logs/$1-$2.log"
}
# The library's crash twice (the nightly run restarts the target after a
# crash), the second time on a longer input: one failure, counted twice.
record fuzz_planner_lib 1 fuzz_planner_lib-crash-1 "$data/fuzz_planner_lib.crash"
{ cat "$data/fuzz_planner_lib.crash"; printf 'more bytes'; } >"$out/longer"
record fuzz_planner_lib 2 fuzz_planner_lib-crash-2 "$out/longer"
record fuzz_example 1 fuzz_example-crash-1 "$data/fuzz_example.crash"
printf '%s\n' started=2000-01-01T00:00:00Z ccache=yes build_seconds_dev=95 build_seconds_fuzz=140 \
  build_seconds_fuzz-fast=41 >"$out/logs/run.env"

mkdir -p "$out/failures/verify-seed1"
for ext in sched plan svg; do : >"$out/failures/verify-seed1/invalid-overlap-08-range.$ext"; done
cat >"$out/logs/verify-1.json" <<JSON
{"command": "verify", "result": "fail", "cases": 8,
 "failure": {"kind": "invalid-overlap", "schedule": "$out/failures/verify-seed1/invalid-overlap-08-range.sched",
             "plan": "$out/failures/verify-seed1/invalid-overlap-08-range.plan",
             "picture": "$out/failures/verify-seed1/invalid-overlap-08-range.svg", "entries_after": 3,
             "verdict": {"kind": "invalid-overlap", "explanation": "overlap: proj and act"}},
 "seconds": 1.5}
JSON

status=0
python3 "$src/scripts/nightly_report.py" --out "$out" --budget 180 --planck /nonexistent/planck \
  --fuzz-bin /nonexistent --minimize-seconds 0 -- --planner-lib /lib/first_fit_bug_flag.so >/dev/null 2>&1 || status=$?
[ "$status" -eq 1 ] || { echo "nightly_report.py exits $status, not 1, on a folder with crashes" >&2; exit 1; }

python3 - "$out" <<'PY'
import json, os, sys
out = sys.argv[1]
report = json.load(open(os.path.join(out, "report.json")))
md = open(os.path.join(out, "report.md")).read()
problems = []
def expect(ok, what):
    if not ok:
        problems.append(what)

expect(report["result"] == "fail", "result is not fail")
by_sig = {f["signature"]: f for f in report["failures"]}
lib = by_sig.get("fuzz_planner_lib | planner first_fit_bug_flag.so | invalid-not-placed")
asan = by_sig.get("fuzz_example | asan heap-buffer-overflow | "
                  "planck::{anon}::read_past < planck::sum_blocks < LLVMFuzzerTestOneInput")
expect(len(report["failures"]) == 3, f"{len(report['failures'])} signatures, not 3: {sorted(by_sig)}")
verify = by_sig.get("verify | invalid-overlap")
expect(verify is not None and verify["picture"].endswith("invalid-overlap-08-range.svg"),
       f"the verify failure's picture: {verify}")
expect("- picture of the failing plan: [invalid-overlap-08-range.svg](failures/verify-seed1/invalid-overlap-08-range.svg)"
       in md, "report.md does not link the verify failure's picture")
expect(lib is not None, f"no signature of the library's violation among {sorted(by_sig)}")
expect(asan is not None, f"no signature of the overflow among {sorted(by_sig)}")
if lib:
    expect(lib["count"] == 2, f"the library's failure counted {lib['count']} times, not 2")
    expect(lib["minimized"].endswith("fuzz_planner_lib-crash-1"), "the smallest input is not the one reported")
    sched = open(lib["schedule"]).read().splitlines()
    expect(sched == ["schedule v1", "buffer t0 CPU float64 424", "loop flag=t0 {", "}"],
           f"the schedule taken from the crash report is {sched}")
    expect(lib["reproduce"].startswith("scripts/repro.sh ") and "--planner-lib" in lib["reproduce"],
           f"reproduce is {lib['reproduce']!r}")
if asan:
    expect(asan["count"] == 1 and "schedule" not in asan, "the overflow's failure is not one input without a schedule")
stats = report["fuzz"]["fuzz_planner_lib"]
expect(stats["runs"] == 2 and stats["executions"] == 2 * 7773, f"fuzz_planner_lib stats {stats}")
expect(stats["new_entries"] == 2 * 184 and stats["features"] > 0, f"fuzz_planner_lib stats {stats}")
expect("## Failure 1: `" in md and "## Failure 3: `" in md, "report.md lacks its failure sections")
expect("loop flag=t0 {" in md, "report.md does not show the schedule")
expect("| fuzz_planner_lib | 15546 |" in md, "report.md lacks the fuzz_planner_lib row")
build = report["build"]
expect(build == {"seconds": 276, "presets": {"dev": 95, "fuzz": 140, "fuzz-fast": 41}, "ccache": True},
       f"build {build}")
expect("| build | 276 s: dev 95 s, fuzz 140 s, fuzz-fast 41 s (through ccache) |" in md,
       "report.md lacks the build's row")
for p in problems:
    print("nightly_report_test: " + p, file=sys.stderr)
sys.exit(1 if problems else 0)
PY
echo "nightly_report_test: crashes grouped, counted and reported"
