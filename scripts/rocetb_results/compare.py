"""`rocetb compare A B [C ...]`: results folders side by side.

The summary figures (figures_table.py) in one table with each folder's relative difference
to the first, the effective configurations' differences (keys that differ), and overlay
plots of per-flow rate and queue depth (series.py) in an output folder.
"""
import os
import re

from . import figures_table, series
from .folder import Folder, ResultsError

# A relative difference above this is highlighted (colour on a terminal).
HIGHLIGHT = 0.05


def load(paths):
    if len(paths) < 2:
        raise ResultsError(f"give at least two results folders to compare (got {len(paths)})")
    return [Folder(p) for p in paths]


def relative(a, b):
    """(b - a) / |a|, or None when it means nothing (missing, not numbers, a = 0 and b != 0)."""
    if not isinstance(a, (int, float)) or not isinstance(b, (int, float)) or isinstance(a, bool) or isinstance(b, bool):
        return None
    if a == 0:
        return 0.0 if b == 0 else None
    return (b - a) / abs(a)


def table(folders, color):
    """The table's lines: a legend of the folders, then one row per figure."""
    letters = [chr(ord("A") + i) for i in range(len(folders))]
    lines = [f"{l} = {f.path}" for l, f in zip(letters, folders)]
    per = [{k: (label, v, unit) for k, label, v, unit in figures_table.rows(f)} for f in folders]
    keys = []
    for p in per:
        keys += [k for k in p if k not in keys]
    head = ["figure"] + letters + [f"{l} vs A" for l in letters[1:]] + ["unit"]
    rows = []
    for k in keys:
        label = next(p[k][0] for p in per if k in p)
        unit = next(p[k][2] for p in per if k in p)
        values = [p[k][1] if k in p else None for p in per]
        if all(v is None for v in values):
            continue  # no folder has it (completion times of long-lived flows)
        diffs = [relative(values[0], v) for v in values[1:]]
        changed = any(d is None and v != values[0] for d, v in zip(diffs, values[1:])) or any(
            d is not None and abs(d) > HIGHLIGHT for d in diffs)
        cells = [label] + [figures_table.fmt(v) for v in values]
        cells += ["-" if d is None else f"{d * 100:+.1f}%" for d in diffs] + [unit]
        rows.append((cells, changed))
    widths = [max(len(c) for c in col) for col in zip(head, *(r[0] for r in rows))]

    def line(cells):
        return "  ".join(c.ljust(w) if i == 0 or i == len(cells) - 1 else c.rjust(w)
                         for i, (c, w) in enumerate(zip(cells, widths))).rstrip()

    lines.append(line(head))
    for cells, changed in rows:
        text = line(cells)
        lines.append(f"\033[1;33m{text}\033[0m" if changed and color else text)
    return lines


def flatten(value, prefix=""):
    """{dotted key: leaf value}; list elements as key[i]."""
    out = {}
    if isinstance(value, dict):
        for k, v in value.items():
            out.update(flatten(v, f"{prefix}.{k}" if prefix else str(k)))
    elif isinstance(value, list) and value and any(isinstance(v, (dict, list)) for v in value):
        for i, v in enumerate(value):
            out.update(flatten(v, f"{prefix}[{i}]"))
    else:
        out[prefix] = value
    return out


# Not configuration: what the loader concluded from it (warnings.txt has them).
IGNORED = {"warnings"}


def config_diff(folders):
    """The effective-configuration keys whose values differ between the folders, with the
    same change at several list positions (every switch, every lossless queue) shown once:
    [(key pattern, [value per folder])]."""
    flat = [{k: v for k, v in flatten(f.effective).items() if k.split(".")[0].split("[")[0] not in IGNORED}
            for f in folders]
    keys = []
    for fl in flat:
        keys += [k for k in fl if k not in keys]
    missing = object()
    grouped = {}
    for k in keys:
        values = [fl.get(k, missing) for fl in flat]
        if all(v == values[0] for v in values[1:]):
            continue
        pattern = re.sub(r"\[\d+\]", "[*]", k)
        shown = tuple("(absent)" if v is missing else repr(v) if isinstance(v, str) else str(v) for v in values)
        indices = re.findall(r"\[(\d+)\]", k)
        grouped.setdefault((pattern, shown), []).append(indices)
    out = []
    for (pattern, shown), indices in grouped.items():
        key = pattern
        for pos in range(pattern.count("[*]")):
            found = sorted({int(ix[pos]) for ix in indices})
            key = key.replace("[*]", "[" + ",".join(str(i) for i in found) + "]", 1)
        out.append((key, list(shown)))
    return out


def out_dir(folders, given):
    if given:
        os.makedirs(given, exist_ok=True)
        return given
    name = "compare-" + "-vs-".join(re.sub(r"[^A-Za-z0-9_.=,-]", "_", f.name)[:40] for f in folders[:3])
    base = os.path.join("results", name)
    path, n = base, 1
    while os.path.exists(path):
        n += 1
        path = f"{base}-{n}"
    os.makedirs(path)
    return path


def overlay_flows(folders, out, plt, colors):
    rates = [series.per_flow(f, "throughput_gbps") for f in folders]
    if not any(rates):
        return None
    top = series.ranked_flows(folders[0], rates[0])[:4] if rates[0] else []
    fig, axes = plt.subplots(1 + len(top), 1, figsize=(10, 2.6 * (1 + len(top)) + 0.6), sharex=True, squeeze=False)
    ax0 = axes[0, 0]
    for i, (f, r) in enumerate(zip(folders, rates)):
        t, total = series.summed(r, list(r))
        if len(t):
            ax0.plot(t, total, color=colors[i], linewidth=1.3, label=f"{chr(65 + i)}: {f.name}")
    ax0.set_title("all flows: total throughput at the receivers")
    ax0.set_ylabel("Gb/s")
    ax0.legend(fontsize="small", loc="lower right")
    info = series.flow_info(folders[0])
    for ax, fid in zip(axes[1:, 0], top):
        for i, r in enumerate(rates):
            if fid in r:
                ax.plot(*r[fid], color=colors[i], linewidth=1.1, label=chr(65 + i))
        ax.set_title(series.flow_label(folders[0], fid, info) + " (by flow id in every folder)", fontsize="medium")
        ax.set_ylabel("Gb/s")
        ax.legend(fontsize="small", loc="lower right")
    for ax in axes[:, 0]:
        ax.grid(alpha=0.3)
    axes[-1, 0].set_xlabel("time (ms)")
    fig.tight_layout()
    return _save(fig, out, "compare-flow-rates.png", plt)


def overlay_queues(folders, out, plt, colors):
    queues = [series.queue_series(f) for f in folders]
    keys = []
    for f, q in zip(folders, queues):
        keys += [k for k in series.congested_queues(f, q, 3)[0] if k not in keys]
    keys = keys[:3]
    if not keys:
        return None
    fig, axes = plt.subplots(len(keys), 1, figsize=(10, 2.8 * len(keys) + 0.6), sharex=True, squeeze=False)
    for ax, key in zip(axes[:, 0], keys):
        same = {}  # (threshold, bytes) -> the folders that have it: a shared one is drawn once
        for i, (f, q) in enumerate(zip(folders, queues)):
            if key in q:
                ax.plot(q[key]["t"], q[key]["depth"] / 1e3, color=colors[i], linewidth=1.1, label=f"{chr(65 + i)} depth")
            for label, value in series.thresholds(f, key):
                same.setdefault((label.split(" ")[0], value), []).append(i)
        for (label, value), who in same.items():
            ax.axhline(value / 1e3, color=colors[who[0]] if len(who) == 1 else "0.4", linestyle="--", linewidth=0.8,
                       label=f"{','.join(chr(65 + i) for i in who)} {label} {value / 1e3:g} KB")
        ax.set_title(series.queue_label(folders[0], key), fontsize="medium")
        ax.set_ylabel("depth (KB)")
        ax.grid(alpha=0.3)
        ax.legend(fontsize="x-small", loc="upper right", ncol=len(folders))
    axes[-1, 0].set_xlabel("time (ms)")
    fig.suptitle("egress queue depth (dashed: the thresholds, grey where the folders share one)")
    fig.tight_layout()
    return _save(fig, out, "compare-queues.png", plt)


def overlay_fct(folders, out, plt, colors):
    """FCT slowdown against flow size, one line per folder, as the HPCC paper's Figure 11
    (Li et al., SIGCOMM 2019): summary.json fct_slowdown.by_size, groups of equal flow count,
    each drawn at its largest size."""
    groups = [(f.summary.get("fct_slowdown") or {}).get("by_size") or [] for f in folders]
    if not any(groups):
        return None
    fig, axes = plt.subplots(1, 3, figsize=(15, 4.6), sharex=True, squeeze=False)
    for ax, q in zip(axes[0], ("p50", "p95", "p99")):
        for i, (f, g) in enumerate(zip(folders, groups)):
            if g:
                ax.plot([b["size_max_bytes"] for b in g], [b[q] for b in g], color=colors[i], marker="o",
                        markersize=3, linewidth=1.2, label=f"{chr(65 + i)}: {f.name}")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_title(f"{q} FCT slowdown", fontsize="medium")
        ax.set_xlabel("flow size (bytes, largest of each group)")
        ax.grid(alpha=0.3, which="both")
    axes[0, 0].set_ylabel("FCT / ideal FCT alone")
    axes[0, 0].legend(fontsize="x-small", loc="upper left")
    fig.suptitle("flow completion slowdown by flow size (groups of equal flow count)")
    fig.tight_layout()
    return _save(fig, out, "compare-fct.png", plt)


def _save(fig, out, name, plt):
    fig.savefig(os.path.join(out, name), dpi=100)
    plt.close(fig)
    return name


def plots(folders, out):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    colors = plt.get_cmap("tab10").colors
    drawn = (overlay_flows(folders, out, plt, colors), overlay_queues(folders, out, plt, colors),
             overlay_fct(folders, out, plt, colors))
    return [p for p in drawn if p]
