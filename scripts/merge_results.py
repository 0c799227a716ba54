#!/usr/bin/env python3
"""Merges the results folders of a realtime run split across processes (one per role,
written by `rocetb run --process ROLE`) into one folder with the same files as a single
run (design.md "Results"):

  summary.json  flows joined (the sender's process knows qpn, FCT, CNPs handled,
                retransmissions; the receiver's the bytes delivered), switches and hosts
                from the process that had them, totals recomputed as summary.cc computes
                them (lib/testbed/README.md, "summary.json"), "valid" only when every
                process was valid (their reasons joined), "roles" listing the processes;
  flows.csv     the sender's and the receiver's columns joined per flow and sample index;
  queues.csv    every process's rows; effective.json and run.json per role
                (effective.<role>.json, run.<role>.json).

usage: merge_results.py OUT ROLE_DIR [ROLE_DIR ...]
"""
import csv
import json
import os
import shutil
import sys


def load(d, name):
    with open(os.path.join(d, name)) as f:
        return json.load(f)


def jain(x):
    s, q = sum(x), sum(v * v for v in x)
    return 1.0 if q == 0 else s * s / (len(x) * q)


def active(f, window):
    """The part of the window flow f ran in: (from, to) in ns, to <= from when none."""
    lo = max(f["start_ns"], window["from_ns"])
    hi = window["to_ns"] if f.get("fct_ns") is None else min(f["start_ns"] + f["fct_ns"], window["to_ns"])
    return lo, max(lo, hi)


def merge_flows(summaries, window):
    flows = {}
    for s in summaries:
        for f in s["flows"]:
            m = flows.setdefault(f["id"], dict(f))
            for k, v in f.items():
                if m.get(k) is None and v is not None:
                    m[k] = v
    out = [flows[i] for i in sorted(flows)]
    for f in out:  # what needs both sides: the receiver's bytes, the sender's completion
        lo, hi = active(f, window)
        if f.get("bytes") is not None:
            f["throughput_gbps"] = f["bytes"] * 8 / (hi - lo) if hi > lo else None
        if f.get("fct_ns") and f.get("size_bytes") is not None:
            f["goodput_gbps"] = f["size_bytes"] * 8 / f["fct_ns"]
    return out


def fairness(flows, window):
    """Jain's index as summary.cc computes it: over the flows that ran in the window, only
    when they all ran together for a while."""
    ran = [(f, active(f, window)) for f in flows if f.get("throughput_gbps") is not None]
    ran = [(f, a) for f, a in ran if a[1] > a[0]]
    if not ran or min(a[1] for _, a in ran) <= max(a[0] for _, a in ran):
        return None
    return jain([f["throughput_gbps"] for f, _ in ran])


def goodput(flows, window):
    """The window's bytes over the window, or until the last completion when all finished."""
    to = window["to_ns"]
    if flows and all(f.get("fct_ns") is not None for f in flows):
        to = min(to, max(window["from_ns"], max(f["start_ns"] + f["fct_ns"] for f in flows)))
    span = to - window["from_ns"]
    delivered = sum(f["bytes"] or 0 for f in flows)
    return (delivered * 8 / span if span > 0 else 0.0), span


def nearest_rank(sorted_x, p):
    rank = (len(sorted_x) * p + 99) // 100
    return sorted_x[max(rank, 1) - 1]


def percentiles(x):
    x = sorted(x)
    return {"p50": nearest_rank(x, 50), "p95": nearest_rank(x, 95), "p99": nearest_rank(x, 99)}


def fct_slowdown(flows, groups=20):
    """The FCT slowdown figures as summary_fct.cc computes them: overall, and by size in
    groups of equal flow count (the HPCC simulator's fct_analysis.py, step 5 %)."""
    done = sorted(((f["size_bytes"], f["fct_slowdown"]) for f in flows if f.get("fct_slowdown") is not None),
                  key=lambda t: t[0])
    if not done:
        return None
    x = [s for _, s in done]
    j = {"flows": len(x), "mean": sum(x) / len(x), **percentiles(x), "max": max(x), "by_size": []}
    n = len(done)
    for g in range(groups):
        lo, hi = g * n // groups, (g + 1) * n // groups
        if hi > lo:
            j["by_size"].append({"size_max_bytes": done[hi - 1][0], "flows": hi - lo,
                                 **percentiles([s for _, s in done[lo:hi]])})
    return j


def merge_summary(summaries, roles):
    first = summaries[0]
    j = {k: first[k] for k in ("scenario", "clock", "seed", "duration_ns", "warmup_ns", "window")}
    j["roles"] = roles
    j["valid"] = all(s.get("valid", True) for s in summaries)
    reasons = [f"{r}: {s['invalid_reason']}" for r, s in zip(roles, summaries) if not s.get("valid", True)]
    j["invalid_reason"] = "; ".join(reasons) if reasons else None
    j["flows"] = merge_flows(summaries, j["window"])
    j["switches"] = [sw for s in summaries for sw in s["switches"]]
    j["hosts"] = sorted((h for s in summaries for h in s["hosts"]), key=lambda h: h["name"])
    # The mark rate over data frames through queues that mark (their ecn_mark_rate is set).
    queues = [q for sw in j["switches"] for p in sw["ports"] for q in p["queues"] if q["ecn_mark_rate"] is not None]
    data = sum(q["data_frames"] for q in queues)
    marked = sum(q["data_ecn_marked"] for q in queues)
    add = lambda key: sum(s["totals"][key] for s in summaries)
    rate, span = goodput(j["flows"], j["window"])
    j["totals"] = {
        "goodput_gbps": rate,
        "goodput_span_ns": span,
        "jain_fairness": fairness(j["flows"], j["window"]),
        "ecn_mark_rate": marked / data if data else 0.0,
        "ecn_marked_data_frames": marked,
    }
    for key in ("cnp_sent", "pfc_frames", "drops", "retransmissions", "ecn_marked_total", "cnp_sent_total",
                "pfc_frames_total", "drops_total", "retransmissions_total"):
        j["totals"][key] = add(key)
    j["fct_slowdown"] = fct_slowdown(j["flows"])
    return j


def merge_flow_rows(dirs):
    """Joins per (flow, sample index): cc columns from the sender, bytes from the receiver."""
    rows, header = {}, None
    for d in dirs:
        with open(os.path.join(d, "flows.csv")) as f:
            r = csv.reader(f)
            h = next(r)
            header = h if header is None or len(h) > len(header) else header
            seen = {}
            for row in r:
                flow = row[1]
                k = (int(flow), seen.get(flow, 0))
                seen[flow] = k[1] + 1
                m = rows.setdefault(k, row + [""] * (len(h) - len(row)))
                if int(row[4]) > 0 or float(row[3]) > 0:  # the receiver's side
                    m[3], m[4] = row[3], row[4]
                if float(row[2]) > 0:  # the sender's side
                    m[2], m[5] = row[2], row[5]
                    m[6:] = row[6:]
    return header, [rows[k] for k in sorted(rows, key=lambda k: (k[1], k[0]))]


def main(out, dirs):
    roles = [os.path.basename(os.path.normpath(d)) for d in dirs]
    os.makedirs(out, exist_ok=True)
    summaries = [load(d, "summary.json") for d in dirs]
    with open(os.path.join(out, "summary.json"), "w") as f:
        json.dump(merge_summary(summaries, roles), f, indent=2)
        f.write("\n")
    header, rows = merge_flow_rows(dirs)
    with open(os.path.join(out, "flows.csv"), "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(header)
        w.writerows(rows)
    with open(os.path.join(out, "queues.csv"), "w") as f:
        for i, d in enumerate(dirs):
            with open(os.path.join(d, "queues.csv")) as q:
                lines = q.readlines()
            f.writelines(lines if i == 0 else lines[1:])
    for r, d in zip(roles, dirs):
        for name in ("run.json", "effective.json"):
            if os.path.exists(os.path.join(d, name)):
                shutil.copy(os.path.join(d, name), os.path.join(out, name.replace(".json", f".{r}.json")))


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit("usage: merge_results.py OUT ROLE_DIR [ROLE_DIR ...]")
    main(sys.argv[1], sys.argv[2:])
