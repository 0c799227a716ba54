#!/usr/bin/python3
"""Plots a sweep folder written by `rocetb sweep` (lib/sweep/README.md): one PNG per
metric and varied key, in DIR/plots/<metric>-vs-<key>.png. The x axis holds the key's
values in the order --vary gave them (as typed: 50KB, 150KB); with several keys, each
combination of the other keys' values is one line. With --repeat, a point is the mean of
its repeats, the bar their range. Points that did not complete (status other than "ok")
and empty cells are left out.

usage: /usr/bin/python3 scripts/plot_sweep.py DIR
Exit status 0, 3 when matplotlib is missing (one line says the plots were skipped), 2 on
bad input.
"""
import csv
import json
import os
import re
import sys


def safe(name):
    return re.sub(r"[^A-Za-z0-9._=-]+", "_", name).strip("_")


def read(folder):
    with open(os.path.join(folder, "sweep.json")) as f:
        record = json.load(f)
    with open(os.path.join(folder, "sweep.csv"), newline="") as f:
        rows = list(csv.reader(f))
    header, rows = rows[0], rows[1:]
    keys = [a["key"] for a in record["vary"]]
    values = {a["key"]: a["values"] for a in record["vary"]}
    metrics = header[header.index("status") + 1:]
    return header, rows, keys, values, metrics


def series(header, rows, key, others, metric):
    """{(other values): {x value: [y, ...]}} over the complete points."""
    col = {h: i for i, h in enumerate(header)}
    out = {}
    for r in rows:
        if r[col["status"]] != "ok" or r[col[metric]] == "":
            continue
        group = tuple(r[col[k]] for k in others)
        out.setdefault(group, {}).setdefault(r[col[key]], []).append(float(r[col[metric]]))
    return out


def plot_one(plt, folder, header, rows, key, keys, values, metric):
    others = [k for k in keys if k != key]
    data = series(header, rows, key, others, metric)
    if not data:
        return None
    xs = values[key]
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    # Lines in the order the other keys' values were given, not as text (50KB before 150KB).
    order = lambda g: [values[k].index(v) for k, v in zip(others, g)]
    for group in sorted(data, key=order):
        pts = [(i, data[group][v]) for i, v in enumerate(xs) if v in data[group]]
        x = [i for i, _ in pts]
        mean = [sum(ys) / len(ys) for _, ys in pts]
        low = [m - min(ys) for m, (_, ys) in zip(mean, pts)]
        high = [max(ys) - m for m, (_, ys) in zip(mean, pts)]
        label = ", ".join(f"{k}={v}" for k, v in zip(others, group)) or None
        ax.errorbar(x, mean, yerr=[low, high], marker="o", capsize=3, label=label)
    ax.set_xticks(range(len(xs)))
    ax.set_xticklabels(xs)
    ax.set_xlabel(key)
    ax.set_ylabel(metric)
    ax.grid(True, alpha=0.3)
    if others:
        ax.legend(fontsize="small")
    fig.tight_layout()
    path = os.path.join(folder, "plots", f"{safe(metric)}-vs-{safe(key)}.png")
    tmp = os.path.join(folder, "plots", "." + os.path.basename(path) + ".tmp.png")
    fig.savefig(tmp, dpi=100)
    plt.close(fig)
    os.replace(tmp, path)
    return path


def main():
    if len(sys.argv) != 2:
        print("usage: plot_sweep.py SWEEP_FOLDER", file=sys.stderr)
        return 2
    folder = sys.argv[1]
    try:
        header, rows, keys, values, metrics = read(folder)
    except (OSError, ValueError, KeyError) as e:
        print(f"plot_sweep.py: {folder}: {e}: expected a folder written by rocetb sweep", file=sys.stderr)
        return 2
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("plots skipped: matplotlib is not installed (Debian: python3-matplotlib)")
        return 3
    os.makedirs(os.path.join(folder, "plots"), exist_ok=True)
    written, empty = [], []
    for metric in metrics:
        for key in keys:
            path = plot_one(plt, folder, header, rows, key, keys, values, metric)
            (written if path else empty).append(f"{metric} vs {key}")
    print(f"plots: {os.path.join(folder, 'plots')} ({len(written)} files)")
    if empty:
        print(f"not plotted (no values): {', '.join(empty)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
