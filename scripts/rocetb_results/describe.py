"""The scenario of a results folder in words, from effective.json (the resolved scenario:
sizes in bytes, times in ns; lib/scenario/effective.cc)."""
from collections import Counter


def size(b):
    if b is None:
        return "?"
    for unit, scale in (("MB", 1e6), ("KB", 1e3)):
        if b >= scale:
            return f"{b / scale:g} {unit}"
    return f"{b:g} B"


def duration(ns):
    if ns is None:
        return "?"
    for unit, scale in (("s", 1e9), ("ms", 1e6), ("us", 1e3)):
        if ns >= scale:
            return f"{ns / scale:g} {unit}"
    return f"{ns:g} ns"


def rate(bps):
    return f"{bps / 1e9:g} Gb/s" if bps else "?"


def _join(items):
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def topology(e):
    topo = e.get("topology", {})
    hosts, switches, links = topo.get("hosts", []), topo.get("switches", []), topo.get("links", [])
    rates = sorted({l.get("rate_bps") for l in links if l.get("rate_bps")})
    delays = sorted({l.get("propagation_ns") for l in links if l.get("propagation_ns") is not None})
    text = (f"{topo.get('kind', '?').replace('_', ' ')} topology: {len(hosts)} hosts, "
            f"{len(switches)} switch{'es' if len(switches) != 1 else ''}, {len(links)} links at "
            f"{_join(rate(r) for r in rates) if rates else '?'}")
    if delays:
        text += f", propagation {_join(duration(d) for d in delays)}"
    text += f", MTU {topo.get('mtu_bytes', '?')} B."
    return text[0].upper() + text[1:]


def switch(e):
    switches = e.get("topology", {}).get("switches", [])
    if not switches:
        return None
    s = switches[0]
    pool = s.get("buffer_pool", {})
    lossless = s.get("pfc_enable", [])
    parts = [f"Switch buffer {size(pool.get('size_bytes'))} (headroom pool {size(pool.get('xoff_bytes'))})"]
    if lossless:
        pg = (s.get("pg") or [{}] * 8)[lossless[0]]
        xoff = (f"XOFF at {size(pg.get('size_bytes', 0) + pg['static_th_bytes'])} (PG size + static_th)"
                if "static_th_bytes" in pg
                else f"dynamic threshold {pg.get('dynamic_th')}")
        parts.append(f"lossless priorities {_join(str(p) for p in lossless)} with PFC: {xoff}, "
                     f"headroom {size(pg.get('xoff_bytes'))} per PG")
    else:
        parts.append("no lossless priority (no PFC)")
    marks = []
    for q, (w, a) in enumerate(zip(s.get("wred") or [], s.get("aqm") or [])):
        if isinstance(a, dict) and "k_threshold_bytes" in a:
            marks.append(f"queue {q}: step marking at K = {size(a['k_threshold_bytes'])}")
        elif isinstance(a, dict) and a.get("name") == "pie":
            marks.append(f"queue {q}: PIE, target delay {duration(a.get('qdelay_ref_ns'))}")
        elif w:
            marks.append(f"queue {q}: ECN Kmin {size(w['green_min_threshold_bytes'])}, "
                         f"Kmax {size(w['green_max_threshold_bytes'])}, Pmax {w['green_drop_probability']} %")
    parts.append("; ".join(marks) if marks else "no ECN marking")
    more = " (every switch the same)" if len(switches) > 1 else ""
    return "; ".join(parts) + more + "."


def traffic(e):
    flows = e.get("flows", [])
    if not flows:
        return "No flows."
    kinds = Counter(f.get("traffic", "?") for f in flows)
    finite = [f["bytes"] for f in flows if isinstance(f.get("bytes"), (int, float))]
    dsts = Counter(f.get("dst") for f in flows)
    if all(isinstance(k, int) for k in kinds):  # the index of the [[traffic]] entry
        text = f"{len(flows)} flows from {len(kinds)} [[traffic]] entr{'y' if len(kinds) == 1 else 'ies'}"
    else:
        text = f"{len(flows)} flows ({_join(f'{n} {k}' for k, n in kinds.items())})"
    srcs = {f.get("src") for f in flows}
    text += f", from {len(srcs)} host{'s' if len(srcs) != 1 else ''}"
    if len(finite) == len(flows):
        text += f", {size(min(finite))} to {size(max(finite))} each, {size(sum(finite))} in all"
    elif finite:
        text += f", {len(flows) - len(finite)} long-lived and {len(finite)} of finite size"
    else:
        text += ", long-lived"
    if len(dsts) == 1:
        text += f", all to {next(iter(dsts))}"
    prios = sorted({f.get("priority") for f in flows if f.get("priority") is not None})
    if prios:
        text += f", priority {_join(str(p) for p in prios)}"
    return text + "."


def cc(e, max_params=12):
    """The algorithm and its parameters: every one as the run resolved it (cc.resolved_params,
    defaults included) with those the scenario set marked, else those the scenario set."""
    c = e.get("cc", {})
    given = c.get("params", {})
    resolved = c.get("resolved_params")
    text = f"Congestion control: {c.get('algorithm', '?')}"
    params = resolved if isinstance(resolved, dict) and resolved else given
    if params:
        shown = list(params.items())[:max_params]
        text += " with " + ", ".join(f"{k} = {v}" + (" (set)" if params is resolved and k in given else "")
                                     for k, v in shown)
        if len(params) > max_params:
            text += f" and {len(params) - max_params} more parameters (see the configuration below)"
        if params is not resolved:
            text += f" (the other parameters: the algorithm's defaults, {resolved or 'not reported'})"
    elif isinstance(resolved, str):
        text += f" (its defaults; their values {resolved})"
    else:
        text += " (no parameters)"
    return text + "."


def run(e, summary):
    r = e.get("run", {})
    return (f"{r.get('clock', summary.get('clock', '?'))} time, {duration(r.get('duration_ns', summary.get('duration_ns')))} "
            f"simulated (figures after a {duration(r.get('warmup_ns', summary.get('warmup_ns')))} warm-up), "
            f"seed {r.get('seed', summary.get('seed'))}, sampled every {duration(r.get('sample_interval_ns'))}.")


def faults(e):
    f = e.get("faults", {})
    parts = []
    for s in f.get("pfc_storms", []):
        parts.append(f"{s['host']} storms PFC pauses on priority {s['priority']} from {duration(s['start_ns'])}")
    for d in f.get("link_downs", []):
        parts.append(f"link {d['link']} down from {duration(d['from_ns'])} to {duration(d['to_ns'])}")
    for d in f.get("drops", []):
        parts.append(f"link {d['link']} drops frames with probability {d['probability']}")
    return ("Faults: " + "; ".join(parts) + ".") if parts else None


def paragraphs(folder):
    """The scenario in a few sentences: [str]."""
    e = folder.effective
    if not e:
        return ["effective.json is missing: the scenario cannot be described."]
    out = [f"Scenario {e.get('name', '?')}: " + run(e, folder.summary), topology(e), switch(e), traffic(e), cc(e),
           faults(e)]
    return [p for p in out if p]
