#!/usr/bin/env python3
"""The quality table and chart from the results bench/quality.sh gathers.

Reads RESULTS/instances.tsv (group, file), RESULTS/stats/PLANNER.json
(`planck stats --json`, one per planner, the files in that order) and
RESULTS/oracle/N.json (`planck oracle --json`, the Nth file). Per instance,
every figure is summed over its devices: the lower bound is the peak of
live bytes, each buffer rounded as the planners round it (`planck stats`),
the optimum the oracle's least arena when it proved it on every device, the
arena the planner's. Per group and planner: the geometric mean of arena /
lower bound over the instances, and of arena / optimum over those proven.

An interval problem's optimum is at alignment 1, while the planners give
each row a whole number of 256-byte blocks (docs/planners.md#rule-4-sizes); where that
rounding alone lifts the lower bound past the optimum (rows of a few bytes),
the optimum says nothing about the packing and the instance is not counted
as proven. Writes a markdown table and, with matplotlib, an SVG chart.
"""

import argparse
import csv
import json
import math
import os
import sys


def geomean(ratios):
    return math.exp(sum(math.log(r) for r in ratios) / len(ratios)) if ratios else None


def load(results):
    with open(os.path.join(results, "instances.tsv"), newline="") as f:
        instances = [(row[0], row[1]) for row in csv.reader(f, delimiter="\t")]
    planners = []
    arenas = {}  # planner -> file -> (arena, valid)
    lower = {}  # file -> lower bound
    stats_dir = os.path.join(results, "stats")
    with os.scandir(stats_dir) as entries:
        names = sorted(e.name for e in entries if e.name.endswith(".json"))
    for name in names:
        with open(os.path.join(stats_dir, name)) as f:
            stats = json.load(f)
        planner = name[: -len(".json")]
        planners.append(planner)
        arenas[planner] = {
            entry["schedule"]: (sum(d["arena"] for d in entry["devices"]), entry["valid"]) for entry in stats["files"]
        }
        for entry in stats["files"]:
            lower.setdefault(entry["schedule"], sum(d["lower_bound"] for d in entry["devices"]))
    bounds = []  # per instance: (lower bound, optimum or None)
    for n, (_, path) in enumerate(instances, start=1):
        with open(os.path.join(results, "oracle", f"{n}.json")) as f:
            oracle = json.load(f)
        devices = oracle["devices"]
        bound = lower.get(path, 0)
        proven = devices and all(d["status"] == "optimal" and d["upper_bound"] is not None for d in devices)
        optimum = sum(d["upper_bound"] for d in devices) if proven else None
        bounds.append((bound, optimum if optimum is not None and optimum >= bound else None))
    return instances, planners, arenas, bounds


def planner_order(planners, listed):
    """The order `planck planners` lists them in, as far as known."""
    return [p for p in listed if p in planners] + sorted(p for p in planners if p not in listed)


def summarize(instances, planners, arenas, bounds):
    groups = []  # in first appearance
    for group, _ in instances:
        if group not in groups:
            groups.append(group)
    rows = []
    for group in groups:
        members = [(path, bounds[i]) for i, (g, path) in enumerate(instances) if g == group]
        # Instances with nothing to plan say nothing about a planner.
        members = [(path, lb, opt) for path, (lb, opt) in members if lb > 0]
        if not members:
            continue
        row = {"group": group, "instances": len(members), "proven": sum(opt is not None for _, _, opt in members),
               "optimum": geomean([opt / lb for _, lb, opt in members if opt is not None]), "cells": {}}
        for p in planners:
            results = [(arenas[p][path], lb, opt) for path, lb, opt in members if path in arenas[p]]
            row["cells"][p] = {
                "lower": geomean([a / lb for (a, _), lb, _ in results]),
                "optimum": geomean([a / opt for (a, _), _, opt in results if opt is not None]),
                "invalid": sum(not valid for (_, valid), _, _ in results),
            }
        rows.append(row)
    return rows


def table(rows, planners, timeout, seeds):
    out = [
        "| instances | n | proven | optimum | " + " | ".join(planners) + " |",
        "|---|---:|---:|---:|" + "---:|" * len(planners),
    ]
    for r in rows:
        best = min(r["cells"][p]["lower"] for p in planners)
        cells = []
        for p in planners:
            c = r["cells"][p]
            text = f"{c['lower']:.3f}"
            if c["optimum"] is not None:
                text += f" ({c['optimum']:.3f})"
            if c["invalid"]:
                text += f" INVALID {c['invalid']}"
            cells.append(f"**{text}**" if c["lower"] <= best * (1 + 1e-9) else text)
        optimum = f"{r['optimum']:.3f}" if r["optimum"] is not None else "-"
        out.append(f"| {r['group']} | {r['instances']} | {r['proven']} | {optimum} | " + " | ".join(cells) + " |")
    out.append("")
    out.append(
        "Each cell: the geometric mean of the planner's arena over the lower bound (the peak of live bytes, "
        "each buffer rounded to 256 bytes), and in brackets over the optimum, on the instances whose optimum "
        f"the oracle proved within {timeout:g} s (column `proven`); bold, the least of the row. `optimum`: the "
        "optimum over the lower bound on those. Interval problems (CSV) whose rows of a few bytes round past "
        "their alignment-1 optimum count against the lower bound only. "
        f"Model shapes: {seeds} seed(s) of each size in bench/quality.sh."
    )
    if any(r["group"].startswith("onnx") for r in rows):
        out.append("")
        out.append(
            "`onnx`: real networks imported by bench/onnx.sh (docs/onnx-networks.md has each one). The lower bound "
            "and the optimum leave in-place sharing out, so on `onnx --inplace` the planners that use the "
            "`inplace=` declarations (bysize, and best and optimal through it) go below 1."
        )
    return "\n".join(out) + "\n"


def chart(rows, planners, path, timeout):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    matplotlib.rcParams["svg.hashsalt"] = "planck"  # the same ids on every run
    groups = [r["group"] for r in rows]
    height = 0.8 / len(planners)
    colors = plt.get_cmap("tab10").colors
    fig, axes = plt.subplots(1, 2, figsize=(12, 0.55 * len(groups) * len(planners) / 3 + 2), sharey=True)
    panels = [("lower", "arena above the lower bound (peak), %"),
              ("optimum", f"arena above the optimum, %\n(instances proven within {timeout:g} s)")]
    for ax, (key, title) in zip(axes, panels):
        for k, p in enumerate(planners):
            ys, widths = [], []
            for i, r in enumerate(rows):
                ratio = r["cells"][p][key]
                if ratio is None:
                    continue
                ys.append(i + (k - (len(planners) - 1) / 2) * height)
                widths.append((ratio - 1) * 100)
            ax.barh(ys, widths, height=height, color=colors[k % len(colors)], label=p)
            for y, w in zip(ys, widths):
                ax.text(max(w, 0) * 1.05 + 0.05, y, f"{w:.1f}", va="center", fontsize=6)
        ax.set_xscale("symlog", linthresh=10)
        ax.set_xlim(left=0)
        ax.set_title(title, fontsize=10)
        ax.grid(axis="x", alpha=0.3)
        ax.set_yticks(range(len(groups)))
        ax.set_yticklabels([f"{r['group']} ({r['proven']}/{r['instances']} proven)" for r in rows])
    axes[0].invert_yaxis()  # the axes share it: the first group on top
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="upper center", bbox_to_anchor=(0.5, 0.955), ncol=len(planners), fontsize=9,
               title="planner (shorter bars are better)", title_fontsize=8, frameon=False)
    fig.suptitle("Planck planners: memory above the least possible, per instance group (geometric mean)", fontsize=11)
    fig.tight_layout(rect=(0, 0, 1, 0.9))
    fig.savefig(path, format="svg", metadata={"Date": None})


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", required=True)
    parser.add_argument("--table", required=True)
    parser.add_argument("--svg")
    parser.add_argument("--time", "--timeout", dest="time", type=float, default=5)
    parser.add_argument("--seeds", type=int, default=2)
    parser.add_argument("--planners", default="", help="the column order, comma-separated; others come after")
    args = parser.parse_args()
    instances, planners, arenas, bounds = load(args.results)
    planners = planner_order(planners, args.planners.split(","))
    rows = summarize(instances, planners, arenas, bounds)
    with open(args.table, "w") as f:
        f.write(table(rows, planners, args.time, args.seeds))
    if args.svg:
        try:
            chart(rows, planners, args.svg, args.time)
        except ImportError:
            sys.exit("quality_chart.py: no matplotlib for the chart (apt-get install -y python3-matplotlib)")


if __name__ == "__main__":
    main()
