"""report.html: one self-contained page per results folder (every image a base64 data URI,
no script, no external resource), from the same data as the plots."""
import base64
import html
import json
import os

from . import describe, figures_table

CAPTIONS = {
    "plot-flow-rates.png": "Per-flow throughput at the receiver and the rate the congestion control set.",
    "plot-cc-state.png": "The congestion-control algorithm's own state per flow (flows.csv columns).",
    "plot-queues.png": "Egress queue depth of the deepest queues, with the marking (Kmin, Kmax) and pause (XOFF) thresholds.",
    "plot-pfc.png": "When egress queues were held by received PFC pauses, and PFC frames per port and priority.",
    "plot-cnp-marks.png": "CNPs handled by the senders and ECN marks set by the switches, per second.",
    "plot-fct.png": "Flow completion: the CDF of slowdown (or FCT) by flow size.",
}

STYLE = """
body { font-family: sans-serif; margin: 1.5em auto; max-width: 1100px; color: #222; }
h1 { font-size: 1.5em; } h2 { font-size: 1.2em; margin-top: 1.6em; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; font-size: 0.9em; }
td, th { padding: 2px 10px; border-bottom: 1px solid #eee; text-align: right; }
td:first-child, th:first-child { text-align: left; }
figure { margin: 1em 0; } figure img { max-width: 100%; border: 1px solid #ddd; }
figcaption { font-size: 0.9em; color: #555; }
pre { background: #f6f6f6; padding: 0.8em; overflow-x: auto; font-size: 0.8em; }
.warn { color: #8a4b00; } .note { color: #555; font-size: 0.9em; }
"""

FLOW_ROWS = 32


def _e(x):
    return html.escape(str(x))


def _summary_table(folder):
    out = ["<table><tr><th>figure</th><th>value</th><th>unit</th></tr>"]
    for _key, label, value, unit in figures_table.rows(folder):
        if value is None:
            continue  # the run has no such figure (completion times of long-lived flows)
        out.append(f"<tr><td>{_e(label)}</td><td>{_e(figures_table.fmt(value))}</td><td>{_e(unit)}</td></tr>")
    out.append("</table>")
    return "\n".join(out)


def _flows_table(folder):
    flows = folder.summary.get("flows", [])
    cols = [("id", "flow", 1), ("src", "src", None), ("dst", "dst", None), ("bytes", "bytes", 1),
            ("throughput_gbps", "Gb/s", 1), ("fct_ns", "FCT us", 1e3), ("cnp_handled", "CNPs", 1),
            ("retransmissions", "retx", 1)]
    out = ["<table><tr>" + "".join(f"<th>{_e(h)}</th>" for _, h, _ in cols) + "</tr>"]
    for f in flows[:FLOW_ROWS]:
        cells = []
        for key, _, scale in cols:
            v = f.get(key)
            if scale and isinstance(v, (int, float)) and not isinstance(v, bool):
                v = v / scale if scale != 1 else v
            cells.append(f"<td>{_e(figures_table.fmt(v))}</td>")
        out.append("<tr>" + "".join(cells) + "</tr>")
    out.append("</table>")
    if len(flows) > FLOW_ROWS:
        out.append(f"<p class='note'>{len(flows) - FLOW_ROWS} more flows in summary.json.</p>")
    return "\n".join(out)


def _image(folder, name):
    with open(os.path.join(folder.path, name), "rb") as f:
        data = base64.b64encode(f.read()).decode("ascii")
    caption = CAPTIONS.get(name, name)
    return (f"<figure><img alt='{_e(name)}' src='data:image/png;base64,{data}'>"
            f"<figcaption>{_e(caption)} ({_e(name)})</figcaption></figure>")


def write(folder, images, notes):
    """Writes report.html into the folder; returns its name."""
    s = folder.summary
    window = s.get("window", {})
    parts = [
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>",
        f"<title>rocetb report: {_e(folder.name)}</title><style>{STYLE}</style></head><body>",
        f"<h1>rocetb results: {_e(folder.name)}</h1>",
        "<h2>Scenario</h2>",
        *(f"<p>{_e(p)}</p>" for p in describe.paragraphs(folder)),
    ]
    run = folder.run
    if run.get("complete") is True:
        parts.append(f"<p class='note'>rocetb {_e(run.get('rocetb_version', '?'))}, commit {_e(run.get('commit', '?'))}; "
                     f"{_e(run.get('command_line', ''))}</p>")
    if s.get("valid") is False:
        parts.append(f"<p class='warn'>INVALID RUN: {_e(s.get('invalid_reason', ''))}</p>")
    parts += [
        "<h2>Summary</h2>",
        f"<p class='note'>Every figure after the warm-up, {window.get('from_ns', 0) / 1e6:g} ms to "
        f"{window.get('to_ns', 0) / 1e6:g} ms, except those marked whole run.</p>",
        _summary_table(folder),
        "<h2>Flows</h2>",
        _flows_table(folder),
        "<h2>Plots</h2>",
        *(_image(folder, name) for name in images),
        *(f"<p class='note'>{_e(n)}</p>" for n in notes),
        "<h2>Warnings</h2>",
    ]
    if folder.warnings:
        parts.append("<ul>" + "".join(f"<li class='warn'>{_e(w)}</li>" for w in folder.warnings) + "</ul>")
    else:
        parts.append("<p>None.</p>")
    effective = json.dumps(folder.effective, indent=2)
    parts += [
        "<h2>Effective configuration</h2>",
        "<details><summary>effective.json (every size in bytes, every time in ns)</summary>",
        f"<pre>{_e(effective)}</pre></details>",
        "</body></html>",
    ]
    path = os.path.join(folder.path, "report.html")
    tmp = os.path.join(folder.path, ".report.html.tmp")
    with open(tmp, "w", encoding="utf-8") as f:
        f.write("\n".join(parts) + "\n")
    os.replace(tmp, path)
    return "report.html"
