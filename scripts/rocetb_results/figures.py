"""The plots of one results folder (matplotlib, Agg: no display needed).

Each function draws one PNG from series.py's data and returns its file name, or None when
the run has nothing of that kind (the reason goes to `notes`).
"""
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from . import series  # noqa: E402

DPI = 100
COLORS = plt.get_cmap("tab10").colors
STYLES = ["-", "--", ":", "-."]


def flow_style(i):
    """Colour and line style of the i-th flow drawn: ten colours, then dashed, ..."""
    return {"color": COLORS[i % len(COLORS)], "linestyle": STYLES[(i // len(COLORS)) % len(STYLES)]}


def _save(fig, folder, name):
    path = os.path.join(folder.path, name)
    tmp = os.path.join(folder.path, f".{name}.tmp")
    fig.savefig(tmp, dpi=DPI, format="png")
    plt.close(fig)
    os.replace(tmp, path)
    return name


def _warmup(ax, folder):
    w = folder.summary.get("window", {}).get("from_ns")
    if w:
        ax.axvspan(0, w / 1e6, color="0.92", zorder=0, label="warm-up (not in summary)")


def _legend(ax, **kw):
    handles, labels = ax.get_legend_handles_labels()
    if handles:
        ax.legend(fontsize="small", loc=kw.pop("loc", "upper right"), framealpha=0.85, **kw)


def flow_rates(folder, notes):
    thr = series.per_flow(folder, "throughput_gbps")
    rate = series.per_flow(folder, "cc_rate_gbps")
    if not thr:
        notes.append("flow rates: flows.csv has no samples")
        return None
    info = series.flow_info(folder)
    top, rest = series.split_top(folder, thr)
    fig, (a1, a2) = plt.subplots(2, 1, figsize=(10, 7), sharex=True)
    for i, fid in enumerate(top):
        label = series.flow_label(folder, fid, info)
        a1.plot(*series.thin(*thr[fid]), label=label, linewidth=1.2, **flow_style(i))
        if fid in rate:
            a2.plot(*series.thin(*rate[fid]), label=label, linewidth=1.2, **flow_style(i))
    if rest:
        a1.plot(*series.thin(*series.summed(thr, rest)), color="0.35", linewidth=1.5,
                label=f"{len(rest)} other flows (sum)")
        t, total = series.summed(rate, [f for f in rest if f in rate])
        if len(t):
            a2.plot(*series.thin(t, total / len(rest)), color="0.35", linewidth=1.5, label=f"{len(rest)} other flows (mean)")
    for ax in (a1, a2):
        _warmup(ax, folder)
        ax.grid(alpha=0.3)
    algorithm = folder.effective.get("cc", {}).get("algorithm", "?")
    shown = f"{len(top)} of {len(thr)} flows, most bytes first" if rest else f"{len(thr)} flows"
    a1.set_title(f"{folder.name}: per-flow throughput at the receiver ({shown})")
    a1.set_ylabel("throughput (Gb/s)")
    a2.set_title(f"rate set by the congestion control ({algorithm})")
    a2.set_ylabel("CC rate (Gb/s)")
    a2.set_xlabel("simulated time (ms)")
    _legend(a1, ncol=2 if len(top) > 4 else 1)
    fig.tight_layout()
    return _save(fig, folder, "plot-flow-rates.png")


def cc_state(folder, notes, max_fields=4):
    names = series.cc_state_names(folder)
    if not names:
        notes.append("CC state: the algorithm reports no state fields")
        return None
    shown = names[:max_fields]
    info = series.flow_info(folder)
    first = series.per_flow(folder, shown[0])
    top, rest = series.split_top(folder, first)
    fig, axes = plt.subplots(len(shown), 1, figsize=(10, 2.6 * len(shown) + 0.6), sharex=True, squeeze=False)
    for ax, name in zip(axes[:, 0], shown):
        data = series.per_flow(folder, name)
        for i, fid in enumerate(top):
            ax.plot(*series.thin(*data[fid]), label=series.flow_label(folder, fid, info), linewidth=1.1, **flow_style(i))
        _warmup(ax, folder)
        ax.set_ylabel(name, fontsize="small")
        ax.grid(alpha=0.3)
    algorithm = folder.effective.get("cc", {}).get("algorithm", "?")
    extra = f"; {len(rest)} more flows not drawn" if rest else ""
    more = f"; {len(names) - len(shown)} more fields in flows.csv" if len(names) > len(shown) else ""
    axes[0, 0].set_title(f"{folder.name}: {algorithm} state per flow ({len(top)} flows{extra}{more})")
    axes[-1, 0].set_xlabel("simulated time (ms)")
    _legend(axes[0, 0], ncol=2 if len(top) > 4 else 1)
    fig.tight_layout()
    return _save(fig, folder, "plot-cc-state.png")


def queue_depths(folder, notes, queues=None):
    queues = series.queue_series(folder) if queues is None else queues
    drawn, busy = series.congested_queues(folder, queues)
    if not drawn:
        notes.append("queue depth: no sampled queue ever held data")
        return None
    fig, axes = plt.subplots(len(drawn), 1, figsize=(12, 2.4 * len(drawn) + 1.0), sharex=True, squeeze=False)
    for ax, key in zip(axes[:, 0], drawn):
        q = queues[key]
        ax.plot(*series.thin(q["t"], q["depth"] / 1e3), color="tab:blue", linewidth=1.2, label="depth")
        marks = series.thresholds(folder, key)
        # A threshold far above everything else (XOFF over a shallow queue) is named, not
        # drawn: the depth would be squashed to the bottom of the plot.
        top = max([q["depth"].max()] + [v for label, v in marks if not label.startswith("XOFF")]) * 1.15
        for (label, value), color in zip(marks, ("tab:orange", "tab:red", "tab:purple")):
            if value > 2 * top > 0:
                ax.plot([], [], color=color, linestyle="--", label=f"{label} {value / 1e3:g} KB (above the plot)")
            else:
                ax.axhline(value / 1e3, color=color, linestyle="--", linewidth=1.1, label=f"{label} {value / 1e3:g} KB")
        _warmup(ax, folder)
        ax.set_title(series.queue_label(folder, key), fontsize="medium")
        ax.set_ylabel("depth (KB)")
        ax.grid(alpha=0.3)
        _legend(ax, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    more = f" ({len(drawn)} deepest of {busy} that held data)" if busy > len(drawn) else ""
    fig.suptitle(f"{folder.name}: egress queue depth{more}")
    axes[-1, 0].set_xlabel("simulated time (ms)")
    fig.tight_layout()
    return _save(fig, folder, "plot-queues.png")


def _pfc_counts(folder):
    """[(label, sent per priority, received per priority)] of every switch port and host
    that sent or received a PFC frame in the window."""
    out = []
    for sw in folder.summary.get("switches", []):
        for p in sw.get("ports", []):
            tx, rx = p.get("pfc_tx_frames") or [0] * 8, p.get("pfc_rx_frames") or [0] * 8
            if sum(tx) or sum(rx):
                out.append((f"{sw.get('name')} {p.get('name')}", tx, rx))
    for h in folder.summary.get("hosts", []):
        tx = h.get("tx_pfc_frames") or 0
        tx = tx if isinstance(tx, list) else [0] * 8
        rx = h.get("rx_pfc_frames") or [0] * 8
        if sum(tx) or sum(rx):
            out.append((h.get("name"), tx, rx))
    return out


def _pause_rows(folder, queues):
    """The timeline's rows: (label, priority, intervals, received) for every port that sent
    PFC frames (the switch pausing its neighbour) and every egress queue a received pause
    held, in switch/port order."""
    rows = []
    for key, q in sorted(queues.items()):
        sent = series.pfc_sent_intervals(q)
        if sent:
            rows.append((f"{folder.switch_name(key[0])} {folder.port_name(key[0], key[1])} sent p{key[2]}", key[2],
                         sent, False))
        held = series.pause_intervals(q)
        if held:
            rows.append((f"{series.queue_label(folder, key)} held", key[2], held, True))
    return rows


def pfc(folder, notes, queues=None, max_rows=24):
    queues = series.queue_series(folder) if queues is None else queues
    rows = _pause_rows(folder, queues)
    counts = _pfc_counts(folder)
    fig, (a1, a2) = plt.subplots(2, 1, figsize=(10, 7.5), gridspec_kw={"height_ratios": [3, 2]})
    for i, (_label, prio, iv, received) in enumerate(rows[:max_rows]):
        a1.broken_barh(iv, (i - 0.4, 0.8), color=COLORS[prio % len(COLORS)], alpha=0.45 if received else 1.0,
                       hatch="//" if received else None)
    if rows:
        a1.set_yticks(range(min(max_rows, len(rows))))
        a1.set_yticklabels([r[0] for r in rows[:max_rows]], fontsize="x-small")
        a1.invert_yaxis()
        for p in sorted({r[1] for r in rows}):
            a1.plot([], [], color=COLORS[p % len(COLORS)], linewidth=6, label=f"priority {p}")
        _legend(a1)
        more = f"; {len(rows) - max_rows} more rows not drawn" if len(rows) > max_rows else ""
        a1.set_title(f"{folder.name}: PFC per port and priority\nsample intervals in which a port sent "
                     f"PFC frames (solid); egress queues held by a received pause (hatched){more}", fontsize="medium")
    else:
        a1.text(0.5, 0.5, "no port sent PFC frames and no queue was held by a pause at any sample", ha="center",
                va="center", transform=a1.transAxes)
        a1.set_yticks([])
        a1.set_title(f"{folder.name}: PFC pause timeline")
    end = folder.summary.get("duration_ns")
    if end:
        a1.set_xlim(0, end / 1e6)
    _warmup(a1, folder)
    a1.set_xlabel("simulated time (ms)")
    if counts:
        shown = counts[:16]
        x = np.arange(len(shown))
        bottom_tx = np.zeros(len(shown))
        bottom_rx = np.zeros(len(shown))
        for p in range(8):
            tx = np.array([c[1][p] if p < len(c[1]) else 0 for c in shown], dtype=float)
            rx = np.array([c[2][p] if p < len(c[2]) else 0 for c in shown], dtype=float)
            if tx.sum():
                a2.bar(x - 0.2, tx, 0.4, bottom=bottom_tx, color=COLORS[p % len(COLORS)], label=f"sent, priority {p}")
                bottom_tx += tx
            if rx.sum():
                a2.bar(x + 0.2, rx, 0.4, bottom=bottom_rx, color=COLORS[p % len(COLORS)], hatch="//",
                       edgecolor="white", label=f"received, priority {p}")
                bottom_rx += rx
        a2.set_xticks(x)
        a2.set_xticklabels([c[0] for c in shown], rotation=30, ha="right", fontsize="x-small")
        a2.set_ylabel("PFC frames")
        more = f"; {len(counts) - 16} more not drawn" if len(counts) > 16 else ""
        a2.set_title(f"PFC frames after the warm-up, per port: sent (left) and received (right, hatched){more}",
                     fontsize="medium")
        _legend(a2)
    else:
        a2.text(0.5, 0.5, "no PFC frame sent or received after the warm-up", ha="center", va="center",
                transform=a2.transAxes)
        a2.set_xticks([])
        a2.set_yticks([])
    fig.tight_layout()
    return _save(fig, folder, "plot-pfc.png")


def cnp_marks(folder, notes, queues=None):
    queues = series.queue_series(folder) if queues is None else queues
    t_cnp, cnp = series.cnp_rate(folder)
    t_mark, marks = series.mark_rate(folder, queues)
    if not len(t_cnp) and not len(t_mark):
        notes.append("CNP and mark rates: fewer than two samples")
        return None
    fig, (a1, a2) = plt.subplots(2, 1, figsize=(10, 6), sharex=True)
    if len(t_cnp):
        a1.plot(*series.thin(t_cnp, cnp / 1e3), color="tab:red", linewidth=1.2, label="CNPs handled, all senders")
    if len(t_mark):
        a2.plot(*series.thin(t_mark, marks / 1e3), color="tab:green", linewidth=1.2, label="ECN marks, all sampled queues")
        drawn, _ = series.congested_queues(folder, queues)
        for i, key in enumerate(drawn):
            t, r = series.rate_per_s(queues[key]["t"], queues[key]["marked"])
            if len(r) and r.max() > 0:
                a2.plot(*series.thin(t, r / 1e3), linewidth=0.9, linestyle="--", color=COLORS[(i + 3) % len(COLORS)],
                        label=series.queue_label(folder, key))
    for ax in (a1, a2):
        _warmup(ax, folder)
        ax.grid(alpha=0.3)
        _legend(ax)
    a1.set_title(f"{folder.name}: CNPs handled by the senders (rate over each sample interval)")
    a1.set_ylabel("CNPs (thousands/s)")
    a2.set_title("ECN CE marks set by the switches (every frame kind)")
    a2.set_ylabel("marks (thousands/s)")
    a2.set_xlabel("simulated time (ms)")
    fig.tight_layout()
    return _save(fig, folder, "plot-cnp-marks.png")


def completion(folder, notes):
    c = series.completion(folder)
    if c is None:
        notes.append("completion times: no flow of finite size finished")
        return None
    buckets = series.by_bucket(c["flows"])
    fig, ax = plt.subplots(figsize=(10, 5.5))
    all_values = sorted(v for _, v in c["flows"])
    ax.plot(all_values, np.arange(1, len(all_values) + 1) / len(all_values), color="black", linewidth=2,
            drawstyle="steps-post", label=f"all ({len(all_values)} flows)")
    if len(buckets) > 1:
        for i, (label, v) in enumerate(buckets):
            ax.plot(v, np.arange(1, len(v) + 1) / len(v), drawstyle="steps-post", linewidth=1.3,
                    color=COLORS[i % len(COLORS)], label=f"{label} ({len(v)} flows)")
    if c["kind"] == "slowdown":
        ax.set_xlabel("slowdown (FCT / ideal FCT)")
        ax.set_title(f"{folder.name}: flow completion slowdown by size ({c['why']})")
    else:
        ax.set_xlabel("flow completion time (us)")
        ax.set_title(f"{folder.name}: flow completion time by size", fontsize="medium")
        ax.text(0.99, 0.03, c["why"], transform=ax.transAxes, ha="right", fontsize="small", color="0.3")
        notes.append("completion times: " + c["why"])
    if all_values[0] > 0 and all_values[-1] / all_values[0] > 50:
        ax.set_xscale("log")
    ax.set_ylabel("fraction of flows")
    ax.set_ylim(0, 1.02)
    ax.grid(alpha=0.3)
    _legend(ax, loc="lower right" if c["kind"] == "slowdown" else "center right")
    fig.tight_layout()
    return _save(fig, folder, "plot-fct.png")


def all_figures(folder, notes):
    """Every plot of the folder: [file names written]."""
    queues = series.queue_series(folder)
    written = [
        flow_rates(folder, notes),
        cc_state(folder, notes),
        queue_depths(folder, notes, queues),
        pfc(folder, notes, queues),
        cnp_marks(folder, notes, queues),
        completion(folder, notes),
    ]
    return [w for w in written if w]
