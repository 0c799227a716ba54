#!/usr/bin/env python3
"""Merges the results folders of a realtime run split across processes (one per role,
written by `rocetb run --process ROLE`) into one folder with the same files as a single
run (design.md "Results"):

  summary.json  flows joined (the sender's process knows qpn, FCT, CNPs handled,
                retransmissions; the receiver's the bytes delivered), switches and hosts
                from the process that had them, totals recomputed, "valid" only when every
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


def merge_flows(summaries):
    flows = {}
    for s in summaries:
        for f in s["flows"]:
            m = flows.setdefault(f["id"], dict(f))
            for k, v in f.items():
                if m.get(k) is None and v is not None:
                    m[k] = v
    out = [flows[i] for i in sorted(flows)]
    for f in out:  # a finished flow's throughput needs both sides: size over FCT
        if f.get("fct_ns") and f.get("bytes") is not None:
            f["throughput_gbps"] = f["bytes"] * 8 / f["fct_ns"]
    return out


def merge_summary(summaries, roles):
    first = summaries[0]
    j = {k: first[k] for k in ("scenario", "clock", "seed", "duration_ns", "warmup_ns")}
    j["roles"] = roles
    j["valid"] = all(s.get("valid", True) for s in summaries)
    reasons = [f"{r}: {s['invalid_reason']}" for r, s in zip(roles, summaries) if not s.get("valid", True)]
    j["invalid_reason"] = "; ".join(reasons) if reasons else None
    j["flows"] = merge_flows(summaries)
    j["switches"] = [sw for s in summaries for sw in s["switches"]]
    j["hosts"] = sorted((h for s in summaries for h in s["hosts"]), key=lambda h: h["name"])
    ports = [p for sw in j["switches"] for p in sw["ports"]]
    marked = sum(p["ecn_marked"] for p in ports)
    forwarded = sum(p["tx_frames"] for p in ports)
    add = lambda key: sum(s["totals"][key] for s in summaries)
    j["totals"] = {
        "goodput_gbps": add("goodput_gbps"),  # each process counts the bytes its receivers got
        "jain_fairness": jain([f["throughput_gbps"] or 0.0 for f in j["flows"]]),
        "ecn_mark_rate": marked / forwarded if forwarded else 0.0,
        "cnp_sent": add("cnp_sent"),
        "pfc_frames": add("pfc_frames"),
        "drops": add("drops"),
        "retransmissions": add("retransmissions"),
    }
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
