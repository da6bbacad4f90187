#!/usr/bin/env python3
"""The second half of scripts/nightly.sh: reads what the run left in its
folder, groups the failures by signature, minimizes one input of each group,
and writes report.md and report.json there.

    scripts/nightly_report.py --out DIR --budget S --planck PATH --fuzz-bin DIR
                              [--minimize-seconds S] -- PLANNER-OPTIONS...

A failure's signature is the kind of violation for planck verify, the
property for the properties, the exit for the oracle, and for a fuzz target
the planner and the kind of violation when a planner target judged a plan
wrong ("planner NAME fails with KIND"), else the sanitizer's (or
libFuzzer's) kind of error with the top three frames of this project's code
in its stack. --minimize-seconds 0 groups and reports without minimizing.
Exit 1 when there is a failure, 0 otherwise.
"""

import argparse
import glob
import json
import os
import re
import shlex
import subprocess
import sys

# Frames of the sanitizers, libFuzzer and the C library: not this project's.
RUNTIME_FRAME = re.compile(
    r"^(__sanitizer|__asan|__ubsan|__lsan|__interceptor|__interception|__cxa|__gnu_cxx::__verbose|"
    r"fuzzer::|main$|abort$|raise$|gsignal$|__GI_|__libc|__pthread|_start$|malloc$|free$|operator new|"
    r"operator delete|std::terminate|std::__terminate|__clang_call_terminate)")
RUNTIME_FILE = re.compile(r"compiler-rt|/libc\.|libc\.so|libstdc\+\+|libFuzzer|/usr/include/c\+\+|^csu/|sysdeps/")
# "#3 0x55... in NAME LOCATION (BuildId: ...)": the location is one word.
FRAME = re.compile(r"^\s*#\d+ 0x[0-9a-f]+ in (.+?)(?: \(BuildId: [0-9a-f]+\))?\s*$")
# The first line of a planner target's abort (fuzz/fuzz_planners.cc).
PLANNER_FAILS = re.compile(r"^planner (.+?) fails with ([\w-]+)$", re.M)


def function_name(frame):
    """A frame's function without its parameters or template arguments."""
    name = frame.replace("(anonymous namespace)", "{anon}")
    return name.split("(", 1)[0].strip()


def crash_signature(log, target):
    """The planner and kind of violation of a planner target's abort, or the
    kind of error and top project frames of the crash report in a fuzzer's log."""
    planner = PLANNER_FAILS.search(log)
    if planner:
        return " | ".join([target, "planner " + os.path.basename(planner.group(1)), planner.group(2)])
    kind = "crash"
    for pattern, label in (
        (r"ERROR: AddressSanitizer: ([\w-]+)", "asan {}"),
        (r"ERROR: LeakSanitizer: ([\w ]+)", "leak"),
        (r"runtime error: ([^\n]*)", "ubsan {}"),
        (r"ERROR: libFuzzer: ([\w -]+)", "libfuzzer {}"),
    ):
        m = re.search(pattern, log)
        if m:
            kind = label.format(re.sub(r"\d+", "N", m.group(1).strip()))
            break
    start = log.find("ERROR:")
    frames = []
    seen = False
    for line in log[start if start >= 0 else 0:].splitlines():
        m = FRAME.match(line)
        if not m:
            if seen:  # the first stack, the error's own, has ended
                break
            continue
        seen = True
        text, _, where = m.group(1).rpartition(" ")
        if not text or not where.startswith(("/", "(")) or where.endswith(")") and not where.startswith("("):
            text, where = m.group(1), ""
        name = function_name(text)
        if RUNTIME_FRAME.match(name) or RUNTIME_FILE.search(where):
            continue
        frames.append(name)
        if len(frames) == 3:
            break
    parts = [target, kind]
    if frames:
        parts.append(" < ".join(frames))
    return " | ".join(parts)


def read(path):
    try:
        with open(path, errors="replace") as f:
            return f.read()
    except OSError:
        return ""


def run(cmd, timeout, env=None):
    """Runs a command; returns (exit status, standard output and error together)."""
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=timeout, env=env)
        return p.returncode, p.stdout.decode(errors="replace")
    except subprocess.TimeoutExpired as e:
        return None, (e.output or b"").decode(errors="replace")
    except OSError as e:  # no such program
        return None, str(e)


def scratch_prefix(args):
    """libFuzzer's -artifact_prefix for the report's own runs of a target: the
    crash inputs they write go to DIR/minimized/steps, not to the current folder."""
    steps = os.path.join(args.out, "minimized", "steps")
    os.makedirs(steps, exist_ok=True)
    return f"-artifact_prefix={steps}/"


def progress(text):
    print("nightly:   " + text, file=sys.stderr, flush=True)


def fuzz_stats(out, targets):
    """Per target: executions, executions/s, coverage and features, corpus growth."""
    stats = {}
    for target in targets:
        logs = sorted(glob.glob(os.path.join(out, "logs", target + "-[0-9]*.log")),
                      key=lambda p: int(re.search(r"-(\d+)\.log$", p).group(1)))
        execs, seconds, cov, ft, new = 0, 0.0, 0, 0, 0
        for path in logs:
            text = read(path)
            units = re.findall(r"stat::number_of_executed_units: (\d+)", text)
            rate = re.findall(r"stat::average_exec_per_sec: +(\d+)", text)
            added = re.findall(r"stat::new_units_added: +(\d+)", text)
            lines = re.findall(r"^#(\d+)\s.*?cov: (\d+) ft: (\d+)(?:.*?exec/s: (\d+))?", text, re.M)
            wall = re.findall(r"^nightly-seconds: ([0-9.]+)", text, re.M)
            n = int(units[-1]) if units else (int(lines[-1][0]) if lines else 0)
            r = int(rate[-1]) if rate else (int(lines[-1][3] or 0) if lines else 0)
            execs += n
            seconds += float(wall[-1]) if wall else (n / r if r else 0)
            new += int(added[-1]) if added else 0
            for _, c, f, _ in lines:
                cov, ft = max(cov, int(c)), max(ft, int(f))
        corpus = os.path.join(out, "corpus", target)
        stats[target] = {
            "runs": len(logs),
            "executions": execs,
            "executions_per_second": round(execs / seconds) if seconds else 0,
            "coverage": cov,
            "features": ft,
            "new_entries": new,
            "corpus_after_merge": len(os.listdir(corpus)) if os.path.isdir(corpus) else 0,
        }
    return stats


def fuzz_failures(args, targets):
    """The crash inputs libFuzzer wrote, grouped by the signature of their crash report."""
    logs = {}
    for path in glob.glob(os.path.join(args.out, "logs", "fuzz_*-[0-9]*.log")):
        text = read(path)
        for m in re.finditer(r"Test unit written to (\S+)", text):
            logs[os.path.realpath(m.group(1))] = text
    groups = {}
    for crash in sorted(glob.glob(os.path.join(args.out, "crashes", "*"))):
        name = os.path.basename(crash)
        target = next((t for t in sorted(targets, key=len, reverse=True) if name.startswith(t + "-")), None)
        if target is None or "-slow-unit-" in name:
            continue
        text = logs.get(os.path.realpath(crash))
        if text is None:  # no log names it: run the target on it once for the report
            _, text = run([os.path.join(args.fuzz_bin, target), scratch_prefix(args), crash], 60)
        sig = crash_signature(text, target)
        g = groups.setdefault(sig, {"target": target, "inputs": [], "logs": {}})
        g["inputs"].append(crash)
        g["logs"][crash] = text
    failures = []
    for sig, g in groups.items():
        smallest = min(g["inputs"], key=os.path.getsize)
        failures.append(minimize_crash(args, sig, g["target"], smallest, g["logs"][smallest], g["inputs"]))
    return failures


def planner_of(args, target, text):
    """The planner options that judge a fuzz_planners crash's schedule again."""
    if target == "fuzz_planner_lib":
        return args.planner
    m = PLANNER_FAILS.search(text)
    return ["--planner", m.group(1)] if m else []


def minimize_crash(args, sig, target, crash, log, inputs):
    """libFuzzer's -minimize_crash on one input (`log` is its crash report);
    for the planner targets, the schedule it decodes to, minimized again by
    planck minimize."""
    binary = os.path.join(args.fuzz_bin, target)
    mdir = os.path.join(args.out, "minimized")
    os.makedirs(mdir, exist_ok=True)
    minimized = os.path.join(mdir, os.path.basename(crash))
    if args.minimize_seconds > 0:
        progress(f"minimizing {os.path.basename(crash)} ({args.minimize_seconds}s at most)")
        run([binary, "-minimize_crash=1", "-runs=1000000", f"-max_total_time={args.minimize_seconds}",
             scratch_prefix(args), f"-exact_artifact_path={minimized}", crash], args.minimize_seconds + 30)
    if not os.path.isfile(minimized):
        minimized = crash
    entry = {
        "signature": sig,
        "source": target,
        "count": len(inputs),
        "inputs": inputs,
        "minimized": minimized,
        "minimized_bytes": os.path.getsize(minimized),
        "reproduce": "scripts/repro.sh " + shlex.quote(minimized) +
                     (" --planner-lib " + shlex.quote(os.environ.get("PLANCK_PLANNER_LIB", ""))
                      if target == "fuzz_planner_lib" else ""),
    }
    text = run([binary, scratch_prefix(args), minimized], 60)[1] if minimized != crash else log
    # -minimize_crash keeps any crash, not only the group's: say so when the
    # smaller input fails another way.
    now = crash_signature(text, target)
    if minimized != crash and now != sig:
        entry["minimized_signature"] = now
    if target in ("fuzz_planners", "fuzz_planner_lib"):
        m = re.search(r"^schedule v1\n(?:(?!==\d+==|MS: |INFO: |AddressSanitizer|\n).*\n)*", text, re.M)
        planner = planner_of(args, target, text)
        if m and planner:
            sched = os.path.join(mdir, os.path.basename(minimized) + ".sched")
            with open(sched, "w") as f:
                f.write(m.group(0))
            entry["schedule"] = sched
            if args.minimize_seconds <= 0:
                return entry
            small = os.path.join(mdir, os.path.basename(minimized) + ".min.sched")
            status, _ = run([args.planck, "minimize", sched, *planner, "-o", small,
                             "--time", str(args.minimize_seconds)], args.minimize_seconds + 60)
            # planck minimize judges the plan only; a failure of the target's
            # other checks (the rewrite) is reproduced from the input itself.
            if status == 1 and os.path.isfile(small):
                entry["schedule"] = small
                entry["reproduce"] = "scripts/repro.sh " + shlex.quote(small) + " " + shlex.join(planner)
                # planck minimize draws the failing plan beside the schedule.
                picture = os.path.splitext(small)[0] + ".svg"
                if os.path.isfile(picture):
                    entry["picture"] = picture
    return entry


def verify_failures(args):
    """planck verify's failures (each run stops at its first), grouped by kind."""
    groups = {}
    runs = []
    for path in sorted(glob.glob(os.path.join(args.out, "logs", "verify-*.json"))):
        try:
            with open(path) as f:
                r = json.load(f)
        except (OSError, ValueError):
            continue
        runs.append(r)
        if r.get("result") == "fail":
            fail = r["failure"]
            groups.setdefault("verify | " + fail["kind"], []).append(fail)
    failures = []
    for sig, fails in groups.items():
        best = min(fails, key=lambda f: f.get("entries_after", 0))
        failures.append({
            "signature": sig,
            "source": "verify",
            "count": len(fails),
            "inputs": [f["schedule"] for f in fails],
            "minimized": best["schedule"],
            "schedule": best["schedule"],
            "entries": best.get("entries_after"),
            "explanation": best.get("verdict", {}).get("explanation", ""),
            "picture": best.get("picture", ""),
            "reproduce": "scripts/repro.sh " + shlex.quote(best["schedule"]) + " " + shlex.join(args.planner),
        })
    summary = {
        "runs": len(runs),
        "cases": sum(r.get("cases", 0) for r in runs),
        "seconds": round(sum(r.get("seconds", 0) for r in runs), 1),
    }
    return summary, failures


def property_failures(args, env):
    log_path = env.get("properties_log", "")
    text = read(log_path)
    failed = sorted({t for t in re.findall(r"^\[  FAILED  \] (\S+)", text, re.M) if "." in t})
    files = sorted(glob.glob(os.path.join(args.out, "failures", "properties", "*.sched")))
    summary = {
        "cases_per_property": int(env.get("cases", 0) or 0),
        "tests_passed": len(re.findall(r"^\[       OK \]", text, re.M)),
        "tests_failed": len(failed),
        "finished": re.search(r"^\[==========\] \d+ tests? from .* ran\.", text, re.M) is not None,
    }
    failures = []
    for test in failed:
        prop = test.split("/")[1] if "/" in test else test
        mine = [f for f in files if prop.split(".")[-1] in os.path.basename(f)] or files
        entry = {
            "signature": "property | " + test,
            "source": "properties",
            "count": 1,
            "inputs": mine,
            "minimized": mine[0] if mine else "",
            "reproduce": (f"RC_PARAMS=\"max_success={summary['cases_per_property']}\" "
                          f"build/dev/properties/properties_test --gtest_filter='{test}'"),
        }
        if mine:
            entry["schedule"] = mine[0]
            entry["reproduce"] = "scripts/repro.sh " + shlex.quote(mine[0])
        failures.append(entry)
    return summary, failures


def oracle_results(args):
    rows = [line.split("\t", 2) for line in read(os.path.join(args.out, "logs", "oracle.tsv")).splitlines() if line]
    status = {}
    failures = []
    for path, code, text in rows:
        # One status per device; a file counts under its worst.
        found = re.findall(r"status: (\w+)", text)
        order = ["unknown", "infeasible", "feasible", "optimal"]
        key = min(found, key=order.index) if found and set(found) <= set(order) else (
            "nothing to plan" if code == "0" else "exit " + code)
        status[key] = status.get(key, 0) + 1
        if code != "0":
            failures.append({
                "signature": f"oracle | exit {code}",
                "source": "oracle",
                "count": 1,
                "inputs": [path],
                "minimized": path,
                "schedule": path,
                "explanation": text.strip()[:400],
                "reproduce": f"{args.planck} oracle {shlex.quote(path)}",
            })
    merged = {}
    for f in failures:  # one entry per signature, counting the files
        if f["signature"] in merged:
            merged[f["signature"]]["count"] += 1
            merged[f["signature"]]["inputs"] += f["inputs"]
        else:
            merged[f["signature"]] = f
    return {"files": len(rows), "status": status}, list(merged.values())


def build_summary(env):
    """The seconds each preset's build took before the budget started
    (build_seconds_PRESET in logs/run.env), their sum, and whether ccache was there."""
    presets = {k[len("build_seconds_"):]: int(v) for k, v in env.items()
               if k.startswith("build_seconds_") and v.isdigit()}
    return {"seconds": sum(presets.values()), "presets": presets, "ccache": env.get("ccache") == "yes"}


def schedule_text(path, limit=40):
    lines = read(path).splitlines()
    if len(lines) > limit:
        lines = lines[:limit] + [f"... ({len(lines) - limit} more lines)"]
    return "\n".join(lines)


def picture_link(path, out):
    """A markdown link to a picture, relative to the report's folder when it is inside it."""
    rel = os.path.relpath(path, out)
    return f"[{os.path.basename(path)}]({path if rel.startswith('..') else rel})"


def markdown(report, out):
    md = ["# Nightly report", ""]
    md.append(f"**{'FAILED' if report['failures'] else 'passed'}**: {len(report['failures'])} failure signature(s); "
              f"planner `{shlex.join(report['planner'])}`, budget {report['budget_seconds']} s, "
              f"started {report['started']}.")
    v, p, o, b = report["verify"], report["properties"], report["oracle"], report["build"]
    md += ["", "| phase | what ran |", "|---|---|"]
    if b["presets"]:
        md.append(f"| build | {b['seconds']} s: " + ", ".join(f"{n} {t} s" for n, t in b["presets"].items())
                  + f" ({'through ccache' if b['ccache'] else 'no ccache'}) |")
    md += [f"| verify | {v['cases']} cases in {v['runs']} run(s), {v['seconds']} s |",
           f"| properties | {p['tests_passed']} tests passed, {p['tests_failed']} failed, "
           f"{p['cases_per_property']} cases each{'' if p['finished'] else ' (stopped at the end of its share)'} |",
           f"| oracle | {o['files']} corpus schedules: "
           + ", ".join(f"{n} {k}" for k, n in sorted(o["status"].items())) + " |"]
    if report["fuzz"]:
        md += ["", "| fuzz target | executions | exec/s | cov | ft | new entries | corpus after merge |",
               "|---|---:|---:|---:|---:|---:|---:|"]
        for t, s in report["fuzz"].items():
            md.append(f"| {t} | {s['executions']} | {s['executions_per_second']} | {s['coverage']} | "
                      f"{s['features']} | {s['new_entries']} | {s['corpus_after_merge']} |")
    for i, f in enumerate(report["failures"], 1):
        md += ["", f"## Failure {i}: `{f['signature']}`", "",
               f"- found {f['count']} time(s) by {f['source']}",
               f"- minimized: `{f['minimized']}`"]
        if f.get("minimized_signature"):
            md.append(f"- the minimized input fails as `{f['minimized_signature']}`")
        if f.get("schedule"):
            md.append(f"- schedule: `{f['schedule']}`")
        if f.get("picture"):
            md.append(f"- picture of the failing plan: {picture_link(f['picture'], out)}")
        md.append(f"- reproduce: `{f['reproduce']}`")
        if f.get("schedule"):
            md += ["", "```", schedule_text(f["schedule"]), "```"]
        elif f.get("explanation"):
            md += ["", "```", f["explanation"], "```"]
    return "\n".join(md) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--budget", type=int, required=True)
    ap.add_argument("--planck", required=True)
    ap.add_argument("--fuzz-bin", required=True)
    ap.add_argument("--minimize-seconds", type=int, default=30)
    ap.add_argument("planner", nargs="*")
    args = ap.parse_args()
    env = dict(line.split("=", 1) for line in read(os.path.join(args.out, "logs", "run.env")).splitlines()
               if "=" in line)
    targets = sorted({re.sub(r"-(\d+|merge)\.log$", "", os.path.basename(p))
                      for p in glob.glob(os.path.join(args.out, "logs", "fuzz_*-*.log"))})

    verify, failures = verify_failures(args)
    fuzz = fuzz_stats(args.out, targets)
    failures += fuzz_failures(args, targets)
    properties, more = property_failures(args, env)
    failures += more
    oracle, more = oracle_results(args)
    failures += more

    report = {
        "result": "fail" if failures else "pass",
        "planner": args.planner,
        "budget_seconds": args.budget,
        "started": env.get("started", ""),
        "build": build_summary(env),
        "verify": verify,
        "fuzz": fuzz,
        "properties": properties,
        "oracle": oracle,
        "failures": failures,
    }
    with open(os.path.join(args.out, "report.json"), "w") as f:
        json.dump(report, f, indent=2)
        f.write("\n")
    with open(os.path.join(args.out, "report.md"), "w") as f:
        f.write(markdown(report, args.out))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
