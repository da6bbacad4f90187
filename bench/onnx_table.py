#!/usr/bin/env python3
"""The tables of docs/onnx-networks.md from the results bench/onnx.sh gathers.

Reads RESULTS (a TSV of model, variant, what, value: import_seconds, bytes,
arena_PLANNER, valid_PLANNER, plan_seconds_PLANNER, lower_bound, optimum,
oracle_seconds; variant `plain` or `inplace`) and writes four markdown
tables: the import time per model, each planner's arena over the lower
bound and over the proven optimum, the time each planner takes to plan, and
the bytes --inplace saves.
"""

import argparse
import csv
import re
from collections import defaultdict

MIB = 1024 * 1024


def load(path):
    data = defaultdict(dict)  # (model, variant) -> what -> value
    with open(path, newline="") as f:
        reader = csv.reader(f, delimiter="\t")
        next(reader)
        for model, variant, what, value in reader:
            data[(model, variant)][what] = value
    return data


def sort_key(model):
    m = re.match(r"(.*)-b(\d+)$", model)
    return (m.group(1), int(m.group(2))) if m else (model, 0)


def variants(data, model):
    """The figures of a model imported without and with --inplace."""
    return data.get((model, "plain"), {}), data.get((model, "inplace"), {})


def table(w, columns, rows):
    """Writes a markdown table: `columns` its header, the first column
    left-aligned and the others right-aligned, then its rows of cells."""
    w("| " + " | ".join(columns) + " |")
    w("|---|" + "---:|" * (len(columns) - 1))
    for cells in rows:
        w("| " + " | ".join(cells) + " |")
    w("")


def import_rows(data, models):
    for m in models:
        plain, inplace = variants(data, m)
        if "import_seconds" not in plain:
            continue
        yield [m, f"{int(plain.get('bytes', 0)) / MIB:.1f}", f"{float(plain['import_seconds']):.3f}",
               f"{float(inplace.get('import_seconds', 'nan')):.3f}"]


def arena_rows(data, models, planners):
    for m in models:
        d = data.get((m, "plain"), {})
        if "lower_bound" not in d:
            continue
        lower = int(d["lower_bound"])
        optimum = int(d["optimum"]) if "optimum" in d else None
        arenas = {p: int(d[f"arena_{p}"]) for p in planners if f"arena_{p}" in d}
        least = min(arenas.values()) if arenas else None
        cells = []
        for p in planners:
            if p not in arenas:
                cells.append("-")
                continue
            a = arenas[p]
            text = f"{a / lower:.3f}" if lower else "-"
            if optimum:
                text += f" ({a / optimum:.3f})"
            if d.get(f"valid_{p}") != "1":
                text += " INVALID"
            cells.append(f"**{text}**" if a == least else text)
        opt = f"{optimum / lower:.3f}" if optimum and lower else "-"
        yield [m, f"{lower / MIB:.1f}", opt] + cells


def time_rows(data, models, planners):
    for m in models:
        d = data.get((m, "plain"), {})
        cells = []
        for p in planners:
            v = d.get(f"plan_seconds_{p}")
            cells.append(f"{float(v) * 1000:.0f}" if v not in (None, "nan") else "-")
        yield [m] + cells


def inplace_rows(data, models):
    for m in models:
        plain, inplace = variants(data, m)
        if "arena_bysize" not in plain or "arena_bysize" not in inplace:
            continue
        a = int(plain["arena_bysize"])
        b = int(inplace["arena_bysize"])
        saved = (a - b) / a if a else 0
        yield [m, f"{a / MIB:.2f}", f"{b / MIB:.2f}", f"{saved:.1%}", f"{int(plain['lower_bound']) / MIB:.2f}"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", required=True)
    parser.add_argument("--time", required=True)
    parser.add_argument("--planners", required=True)
    parser.add_argument("--table", required=True)
    args = parser.parse_args()
    planners = args.planners.split(",")
    data = load(args.results)
    models = sorted({m for m, _ in data}, key=sort_key)
    out = []
    w = out.append

    w("# Real networks: import, quality and speed\n")
    w("Written by `bench/onnx.sh` (torchvision models and a `torch.nn.TransformerEncoder` of 6 layers, "
      "d_model 512, sequence 128, exported with random weights by `torch.onnx.export`, opset 13, at batch 1 "
      "and 32; Debian's torch 1.13). Rerun it to refresh every figure here.\n")

    w("## Import time\n")
    w("`planck import MODEL.onnx -o MODEL.sched`, the best of three runs (wall seconds, parse, shape "
      "inference and print).\n")
    table(w, ["model", ".onnx MiB", "import s", "with --inplace s"], import_rows(data, models))

    w("## Arena against the lower bound and the optimum\n")
    w("Each cell: the planner's arena over the lower bound (the peak of live bytes, each buffer rounded to "
      f"256 bytes) and, in brackets, over the optimum the oracle proved within {args.time} s (`-` where it "
      "did not); bold, the least of the row. Schedules imported without `--inplace`.\n")
    table(w, ["model", "lower bound MiB", "optimum"] + planners, arena_rows(data, models, planners))

    w("## Time to plan\n")
    w("Milliseconds `planck plan --planner P --timings` reports for planning (reading and writing left out).\n")
    table(w, ["model"] + planners, time_rows(data, models, planners))

    w("## What in-place kernels save\n")
    w("`bysize`, the planner that uses `inplace=` declarations, on the schedule imported with and without "
      "`--inplace` (ONNX Runtime's in-place activations: docs/onnx.md); the lower bound and the optimum "
      "leave in-place sharing out, so `bysize` may go below them.\n")
    table(w, ["model", "bysize MiB", "with --inplace MiB", "saved", "lower bound MiB"], inplace_rows(data, models))
    with open(args.table, "w") as f:
        f.write("\n".join(out))


if __name__ == "__main__":
    main()
