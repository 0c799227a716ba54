"""The figures' data, extracted once from a results folder (folder.Folder).

Plots (figures.py), the report (report.py) and compare (compare.py) all take their numbers
from here, so a figure means the same thing wherever it is shown. Times are in ms, rates in
Gb/s, depths in bytes.
"""
import numpy as np

# Flows drawn one by one; the rest are drawn as one line, their sum.
TOP_FLOWS = 8
# Queues drawn one by one (the deepest).
TOP_QUEUES = 4


def _ms(ns):
    return np.asarray(ns, dtype=np.float64) / 1e6


# The most points a drawn line keeps: several per pixel column of the widest plot (12 in at
# 100 dpi), so thinning does not show.
MAX_POINTS = 4000


def thin(t, v, max_points=MAX_POINTS):
    """A line of at most about max_points points that looks the same when drawn: the samples
    are cut into max_points / 2 runs of equal length and each run keeps its lowest and its
    highest value, in time order (peaks and dips survive; min-max decimation). Drawing every
    sample of a long run costs memory and time in matplotlib for pixels nobody sees."""
    t, v = np.asarray(t), np.asarray(v)
    n = len(v)
    if n <= max_points:
        return t, v
    k = -(-n // (max_points // 2))  # samples per run
    whole = n // k * k
    runs = v[:whole].reshape(-1, k)
    base = np.arange(0, whole, k)
    keep = np.concatenate([base + runs.argmin(axis=1), base + runs.argmax(axis=1), np.arange(whole, n)])
    keep = np.unique(keep)
    return t[keep], v[keep]


def flow_info(folder):
    """{flow id: summary.json's flow record}."""
    return {int(f["id"]): f for f in folder.summary.get("flows", [])}


def flow_label(folder, fid, info=None):
    f = (info or flow_info(folder)).get(int(fid))
    if not f:
        return f"flow {int(fid)}"
    return f"flow {int(fid)} {f.get('src', '?')}\u2192{f.get('dst', '?')}"


def per_flow(folder, column):
    """{flow id: (t_ms, values)} of one flows.csv column (empty when it is absent)."""
    s = folder.flows
    if not len(s) or not s.has(column):
        return {}
    flow = s.cols["flow"].astype(np.int64)
    out = {}
    order = np.argsort(flow, kind="stable")
    ids, starts = np.unique(flow[order], return_index=True)
    bounds = list(starts[1:]) + [len(order)]
    for fid, a, b in zip(ids, starts, bounds):
        idx = order[a:b]
        out[int(fid)] = (_ms(s.cols["time_ns"][idx]), s.cols[column][idx])
    return out


def cc_state_names(folder):
    fixed = {"time_ns", "flow", "cc_rate_gbps", "throughput_gbps", "bytes_received", "cnp_handled"}
    return [n for n in folder.flows.names if n not in fixed]


def ranked_flows(folder, series):
    """Flow ids, the most bytes first (mean of the series when the summary has none)."""
    info = flow_info(folder)

    def weight(fid):
        b = info.get(fid, {}).get("bytes_total")
        if isinstance(b, (int, float)):
            return float(b)
        return float(np.mean(series[fid][1])) if len(series[fid][1]) else 0.0

    return sorted(series, key=lambda fid: (-weight(fid), fid))


def split_top(folder, series, top=TOP_FLOWS):
    """(the `top` flows to draw one by one, the others)."""
    ranked = ranked_flows(folder, series)
    return ranked[:top], ranked[top:]


def summed(series, fids):
    """The sum of several flows' series on the union of their sample times (t_ms, values)."""
    if not fids:
        return np.empty(0), np.empty(0)
    times = np.unique(np.concatenate([series[f][0] for f in fids]))
    total = np.zeros_like(times)
    for f in fids:
        t, v = series[f]
        total[np.searchsorted(times, t)] += v
    return times, total


def queue_series(folder):
    """{(sw, port, queue): {"t": ms, "depth": bytes, "marked": cumulative, "drops": cumulative,
    "paused": 0/1, "pfc_tx": cumulative PFC frames sent for that priority or None}} from
    queues.csv."""
    s = folder.queues
    if not len(s):
        return {}
    key = s.cols["switch"].astype(np.int64) * 1_000_000 + s.cols["port"].astype(np.int64) * 100 + s.cols["queue"].astype(np.int64)
    order = np.argsort(key, kind="stable")
    ids, starts = np.unique(key[order], return_index=True)
    bounds = list(starts[1:]) + [len(order)]
    out = {}
    for k, a, b in zip(ids, starts, bounds):
        idx = order[a:b]
        out[(int(k // 1_000_000), int(k % 1_000_000 // 100), int(k % 100))] = {
            "t": _ms(s.cols["time_ns"][idx]),
            "depth": s.cols["depth_bytes"][idx],
            "marked": s.cols["ecn_marked"][idx],
            "drops": s.cols["drops"][idx],
            "paused": s.cols["paused"][idx],
            # Added to queues.csv later: folders written before have no such column.
            "pfc_tx": s.cols["pfc_tx_frames"][idx] if s.has("pfc_tx_frames") else None,
        }
    return out


def queue_label(folder, key):
    sw, port, queue = key
    return f"{folder.switch_name(sw)} {folder.port_name(sw, port)} q{queue}"


def congested_queues(folder, queues, top=TOP_QUEUES):
    """The queues that held data at some sample, deepest first: (drawn, how many in all)."""
    busy = [k for k, q in queues.items() if len(q["depth"]) and q["depth"].max() > 0]
    busy.sort(key=lambda k: (-queues[k]["depth"].max(), k))
    return busy[:top], len(busy)


def thresholds(folder, key):
    """The queue's marking and pause thresholds in bytes, from effective.json:
    [(label, bytes)]. Kmin/Kmax: the queue's WRED green thresholds (or its step AQM's K);
    XOFF: the lossless PG's reserved size plus its static threshold (an ingress threshold,
    per PG: where the switch sends PFC XOFF upstream; scenarios/README.md, `static_th`), only
    for a lossless queue with a static threshold."""
    sw, _port, queue = key
    cfg = folder.switch_config(sw)
    if not cfg:
        return []
    out = []
    wred = (cfg.get("wred") or [None] * 8)[queue] if queue < len(cfg.get("wred") or []) else None
    aqm = (cfg.get("aqm") or [None] * 8)[queue] if queue < len(cfg.get("aqm") or []) else None
    if isinstance(aqm, dict) and "k_threshold_bytes" in aqm:
        out.append(("K (step marking)", aqm["k_threshold_bytes"]))
    elif wred:
        out.append(("Kmin (WRED green min)", wred["green_min_threshold_bytes"]))
        out.append(("Kmax (WRED green max)", wred["green_max_threshold_bytes"]))
    if queue in (cfg.get("pfc_enable") or []):
        tc_to_pg = (cfg.get("qos_maps") or {}).get("tc_to_pg") or list(range(8))
        pg_index = tc_to_pg[queue] if queue < len(tc_to_pg) else queue
        pgs = cfg.get("pg") or []
        if pg_index < len(pgs) and "static_th_bytes" in pgs[pg_index]:
            pg = pgs[pg_index]
            out.append(("XOFF (ingress PG size + static_th)", pg.get("size_bytes", 0) + pg["static_th_bytes"]))
    return out


def intervals(t, active):
    """[(start_ms, width_ms)] of the runs of samples where `active` holds: each sample
    stands for the interval since the previous one."""
    if not len(t):
        return []
    step = np.diff(t, prepend=t[0] - (t[1] - t[0] if len(t) > 1 else 0.0))
    out = []
    start = None
    for i in range(len(t)):
        if active[i] and start is None:
            start = t[i] - step[i]
        if not active[i] and start is not None:
            out.append((start, t[i - 1] - start))
            start = None
    if start is not None:
        out.append((start, t[-1] - start))
    return out


def pause_intervals(q):
    """When a received PFC pause held the queue (at the samples)."""
    return intervals(q["t"], q["paused"] > 0)


def pfc_sent_intervals(q):
    """When the port sent PFC frames for the queue's priority (the sample intervals in which
    it sent at least one: the switch pausing its neighbour); [] without the column."""
    if q.get("pfc_tx") is None or not len(q["pfc_tx"]):
        return []
    sent = np.diff(q["pfc_tx"], prepend=q["pfc_tx"][0]) > 0
    return intervals(q["t"], sent)


def rate_per_s(t_ms, cumulative):
    """Events per second between samples of a cumulative counter: (t_ms, rate)."""
    if len(t_ms) < 2:
        return np.empty(0), np.empty(0)
    dt_s = np.diff(t_ms) / 1e3
    dv = np.diff(cumulative)
    with np.errstate(divide="ignore", invalid="ignore"):
        r = np.where(dt_s > 0, dv / dt_s, 0.0)
    return t_ms[1:], r


def total_rate(parts):
    """The sum of several (t_ms, rate) series sampled at the same ticks."""
    parts = [p for p in parts if len(p[0])]
    if not parts:
        return np.empty(0), np.empty(0)
    times = np.unique(np.concatenate([p[0] for p in parts]))
    total = np.zeros_like(times)
    for t, r in parts:
        total[np.searchsorted(times, t)] += r
    return times, total


def cnp_rate(folder):
    """CNPs handled by all senders per second: (t_ms, rate)."""
    return total_rate([rate_per_s(t, v) for t, v in per_flow(folder, "cnp_handled").values()])


def mark_rate(folder, queues):
    """ECN marks per second over every sampled queue: (t_ms, rate)."""
    return total_rate([rate_per_s(q["t"], q["marked"]) for q in queues.values()])


# Size buckets for completion times (bytes, upper bound exclusive), as the HPCC paper
# groups WebSearch flows (Li et al., SIGCOMM 2019, figure 11).
SIZE_BUCKETS = [(0, 10_000, "< 10 KB"), (10_000, 100_000, "10-100 KB"), (100_000, 1_000_000, "100 KB-1 MB"),
                (1_000_000, 10_000_000, "1-10 MB"), (10_000_000, float("inf"), ">= 10 MB")]


def completion(folder):
    """Finished flows' completion figures: {"kind": "slowdown" | "fct", "why": str,
    "flows": [(size_bytes, value)]}, or None when no flow finished.

    slowdown: summary.json's fct_slowdown, else FCT over the ideal (size at the slowest
    link of the flow's two hosts plus the base RTT) when the summary gives base_rtt_ns;
    otherwise the FCT itself, in us, and `why` says so."""
    flows = [f for f in folder.summary.get("flows", []) if f.get("fct_ns") is not None and f.get("size_bytes")]
    if not flows:
        return None
    if all(f.get("fct_slowdown") is not None for f in flows):
        return {"kind": "slowdown", "why": "fct_slowdown from summary.json",
                "flows": [(f["size_bytes"], float(f["fct_slowdown"])) for f in flows]}
    rates = host_rates(folder)
    if all(f.get("base_rtt_ns") is not None for f in flows) and rates:
        out = []
        for f in flows:
            rate = min(rates.get(f["src"], 0) or 0, rates.get(f["dst"], 0) or 0)
            if rate <= 0:
                break
            ideal_ns = f["size_bytes"] * 8 / rate * 1e9 + f["base_rtt_ns"]
            out.append((f["size_bytes"], f["fct_ns"] / ideal_ns))
        else:
            return {"kind": "slowdown", "why": "FCT over size at the hosts' line rate plus base RTT", "flows": out}
    return {"kind": "fct", "why": "summary.json has no slowdown or base RTT per flow: FCT shown instead of slowdown",
            "flows": [(f["size_bytes"], f["fct_ns"] / 1e3) for f in flows]}


def host_rates(folder):
    """{host name: its link's rate in b/s} from effective.json."""
    topo = folder.effective.get("topology", {})
    hosts = {h["name"] for h in topo.get("hosts", [])}
    out = {}
    for link in topo.get("links", []):
        for end in ("a", "b"):
            node = link.get(end, {}).get("node")
            if node in hosts:
                out[node] = link.get("rate_bps")
    return out


def by_bucket(flows):
    """[(label, values sorted)] of the size buckets that hold flows."""
    out = []
    for lo, hi, label in SIZE_BUCKETS:
        v = sorted(x for size, x in flows if lo <= size < hi)
        if v:
            out.append((label, v))
    return out
