#!/usr/bin/python3
"""One case's results from rocetb and the HPCC ns-3 simulator, side by side.

    ns3_side_by_side.py TITLE ROCETB_RESULTS_FOLDER NS3_STATS_TXT

rocetb: the folder's summary.json (lib/results/README.md): flows' throughput after the
warm-up, Jain's index, the busiest egress queue's mean and p99 (sampled every
sample_interval), CE marks and CNPs over the whole run, PFC frames. The simulator: the
stats.txt its `third_stats` writes (../shared/peers/hpcc-ns3/stats_hook.cc): acked payload
per flow in the window, the receiver's egress queue sampled every 1 us, CE-marked data
packets and CNP-flagged ACKs at the switch, PFC pause events. Both rates are payload
goodput; the line rates differ (1000 B in 1048 B there, 1024 B in 1106 B on the wire here).
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rocetb_results.folder import Folder, ResultsError  # noqa: E402


def ns3_stats(path):
    """The simulator's stats.txt as a dict; a line that does not parse is an error."""
    out = {"flows": [], "queues": []}
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            words = line.split()
            if not words:
                continue
            kind = words[0]

            def num(key):
                try:
                    return float(words[words.index(key) + 1])
                except (ValueError, IndexError):
                    raise ValueError(f"{path}:{n}: '{key}' has no number after it: {line.strip()}") from None

            if kind == "#":
                m = re.search(r"window \[([0-9.]+) s, ([0-9.]+) s\]", line)
                if m:
                    out["window"] = (float(m.group(1)), float(m.group(2)))
            elif kind == "flow":
                out["flows"].append(num("goodput_window_gbps"))
            elif kind == "total":
                out["total"] = num("goodput_window_gbps")
                out["jain"] = num("jain_window")
            elif kind == "queue":
                out["queues"].append((num("window_mean_bytes"), num("p99")))
            elif kind == "switch_dequeued":
                out["marks"] = num("ce_marked")
                out["cnps"] = num("acks_with_cnp")
            elif kind == "pfc":
                out["pfc"] = num("pause_events")
    for key in ("total", "jain", "marks", "cnps", "pfc"):
        if key not in out:
            raise ValueError(f"{path}: no '{key}' figure (not a third_stats output?)")
    return out


def rocetb_figures(folder):
    s = Folder(folder).summary
    rates = [f["throughput_gbps"] or 0.0 for f in s["flows"]]
    ports = [p for sw in s["switches"] for p in sw["ports"] if p.get("queue_bytes")]
    busiest = max(ports, key=lambda p: p["queue_bytes"]["mean"] or 0.0)
    t = s["totals"]
    return {
        "window": (s["warmup_ns"] / 1e9, s["duration_ns"] / 1e9),
        "flows": rates,
        "total": t["goodput_gbps"],
        "jain": t["jain_fairness"],
        "queue": (busiest["queue_bytes"]["mean"], busiest["queue_bytes"]["p99"]),
        "marks": t["ecn_marked_total"],
        "cnps": t["cnp_sent_total"],
        "pfc": t["pfc_frames_total"],
    }


def rates(values):
    if len(values) <= 4:
        return ", ".join(f"{v:.2f}" for v in values)
    return f"{min(values):.2f} - {max(values):.2f}"


def main(argv):
    if len(argv) != 4:
        sys.exit("usage: ns3_side_by_side.py TITLE ROCETB_RESULTS_FOLDER NS3_STATS_TXT")
    title, folder, stats = argv[1:]
    try:
        r = rocetb_figures(folder)
        n = ns3_stats(stats)
    except (ResultsError, ValueError, OSError, KeyError) as e:
        sys.exit(f"ns3_side_by_side: {e}")
    nq = max(n["queues"]) if n["queues"] else (float("nan"), float("nan"))
    rows = [
        ("window, s", "%.3f - %.3f" % r["window"], "%.3f - %.3f" % n.get("window", (float("nan"),) * 2)),
        ("flow rates, Gb/s", rates(r["flows"]), rates(n["flows"])),
        ("sum, Gb/s", f"{r['total']:.2f}", f"{n['total']:.2f}"),
        ("Jain", f"{r['jain']:.5f}", f"{n['jain']:.5f}"),
        ("queue mean / p99, KB", f"{r['queue'][0] / 1e3:.1f} / {r['queue'][1] / 1e3:.0f}",
         f"{nq[0] / 1e3:.1f} / {nq[1] / 1e3:.0f}"),
        ("CE marks (whole run)", f"{r['marks']:.0f}", f"{n['marks']:.0f}"),
        ("CNPs (whole run)", f"{r['cnps']:.0f}", f"{n['cnps']:.0f} (CNP-flagged ACKs)"),
        ("PFC (whole run)", f"{r['pfc']:.0f} frames", f"{n['pfc']:.0f} pause events"),
    ]
    print(f"{title}: results side by side")
    print(f"  {'':24} {'rocetb':>24}   {'ns-3':<24}")
    for name, a, b in rows:
        print(f"  {name:24} {a:>24}   {b:<24}")
    print()


if __name__ == "__main__":
    main(sys.argv)
