"""The summary figures of a results folder as rows (key, label, value, unit), in the order
the report and `rocetb compare` show them. Every value comes from summary.json
(lib/results/README.md, its one schema); None when the run has no such figure."""
import numpy as np


def _pct(values, q):
    return float(np.percentile(values, q, method="inverted_cdf")) if values else None


def rows(folder):
    s = folder.summary
    t = s.get("totals", {})
    flows = s.get("flows", [])
    thr = [f["throughput_gbps"] for f in flows if f.get("throughput_gbps") is not None]
    fct = [f["fct_ns"] / 1e3 for f in flows if f.get("fct_ns") is not None]
    slow = [f["fct_slowdown"] for f in flows if f.get("fct_slowdown") is not None]
    out = [
        ("totals.goodput_gbps", "goodput", t.get("goodput_gbps"), "Gb/s"),
        ("totals.jain_fairness", "Jain's fairness index", t.get("jain_fairness"), ""),
        ("flows.throughput_gbps.min", "flow throughput, lowest", min(thr) if thr else None, "Gb/s"),
        ("flows.throughput_gbps.max", "flow throughput, highest", max(thr) if thr else None, "Gb/s"),
        ("flows.finished", "flows finished", len(fct), f"of {len(flows)}"),
        ("flows.fct_us.p50", "FCT p50", _pct(fct, 50), "us"),
        ("flows.fct_us.p99", "FCT p99", _pct(fct, 99), "us"),
        ("flows.fct_slowdown.p50", "FCT slowdown p50", _pct(slow, 50), ""),
        ("flows.fct_slowdown.p99", "FCT slowdown p99", _pct(slow, 99), ""),
        ("totals.ecn_mark_rate", "ECN mark rate (data frames)", t.get("ecn_mark_rate"), ""),
        ("totals.ecn_marked_data_frames", "ECN-marked data frames", t.get("ecn_marked_data_frames"), "frames"),
        ("totals.cnp_sent", "CNPs sent", t.get("cnp_sent"), ""),
        ("totals.pfc_frames", "PFC frames sent", t.get("pfc_frames"), ""),
        ("totals.drops", "drops", t.get("drops"), "frames"),
        ("totals.retransmissions", "retransmissions", t.get("retransmissions"), "frames"),
    ]
    ports = [p for sw in s.get("switches", []) for p in sw.get("ports", [])]
    p99 = [p["queue_bytes"]["p99"] for p in ports if isinstance(p.get("queue_bytes"), dict)]
    qmax = [p["queue_bytes"]["max"] for p in ports if isinstance(p.get("queue_bytes"), dict)]
    pause = [sum(p.get("pause_ns") or []) for p in ports]
    out += [
        ("switches.ports.queue_bytes.p99.max", "queue depth p99, deepest port", max(p99) if p99 else None, "bytes"),
        ("switches.ports.queue_bytes.max.max", "queue depth max, deepest port", max(qmax) if qmax else None, "bytes"),
        ("switches.ports.pause_ns.sum", "switch queues held by received PFC, summed", sum(pause) / 1e3 if ports else None, "us"),
    ]
    for sw in s.get("switches", []):
        out.append((f"switches.{sw.get('name')}.buffer_peak_bytes", f"{sw.get('name')} shared buffer peak",
                    sw.get("buffer_peak_bytes"), "bytes"))
    out += [
        ("totals.pfc_frames_total", "PFC frames, whole run", t.get("pfc_frames_total"), ""),
        ("totals.cnp_sent_total", "CNPs, whole run", t.get("cnp_sent_total"), ""),
        ("totals.drops_total", "drops, whole run", t.get("drops_total"), "frames"),
    ]
    if "valid" in s:
        out.append(("valid", "valid (realtime)", s.get("valid"), ""))
    return out


def fmt(value):
    """A figure as the tables show it."""
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        if value == int(value) and abs(value) >= 1000:
            return f"{int(value):,}"
        if abs(value) >= 100:
            return f"{value:,.1f}"
        return f"{value:.4g}"
    return str(value)
