#!/usr/bin/python3
"""scripts/bench_vs_ns3.sh refuses bad input in one line before it builds or runs anything,
and scripts/ns3_side_by_side.py puts a real rocetb run beside a simulator's stats.txt (the
format of ../shared/peers/hpcc-ns3/stats_hook.cc), refusing one that lacks a figure.

    bench_vs_ns3_check.py ROCETB SOURCE_ROOT
"""
import os
import subprocess
import sys
import tempfile

ROCETB, ROOT = sys.argv[1], sys.argv[2]
SCRIPT = os.path.join(ROOT, "scripts", "bench_vs_ns3.sh")
SIDE = os.path.join(ROOT, "scripts", "ns3_side_by_side.py")
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)


def refused(env_extra, args, needle):
    env = dict(os.environ, **env_extra)
    p = subprocess.run(["bash", SCRIPT] + args, env=env, capture_output=True, text=True, timeout=60)
    lines = [l for l in p.stderr.splitlines() if l.strip()]
    check(p.returncode == 2, f"{env_extra} {args}: exit {p.returncode}, expected 2")
    check(len(lines) == 1 and needle in lines[0], f"{env_extra} {args}: stderr {lines!r}, expected one line with {needle!r}")


refused({}, ["x"], "ROUNDS 'x': expected a whole number")
refused({"CASES": "c"}, ["1"], "CASES 'c': expected")
refused({"ROCETB_BIN": "/nonexistent/rocetb"}, ["1"], "ROCETB_BIN '/nonexistent/rocetb': expected an executable")

STATS = """# window [0.001000 s, 0.002000 s]; data frame on wire 1048 B (payload 1000 B)
flow 0 src 0 dst 8 sport 10000 acked_bytes 15022000 goodput_window_gbps 12.6036 goodput_whole_run_gbps 12.0176 final_rate_gbps 13.2710 alpha 0.0076
flow 1 src 1 dst 8 sport 10000 acked_bytes 13256000 goodput_window_gbps 11.0080 goodput_whole_run_gbps 10.6048 final_rate_gbps 12.3486 alpha 0.0038
total goodput_window_gbps 23.6116 goodput_whole_run_gbps 22.6224 jain_window 0.995000
queue node 9 port 9 window_mean_bytes 288979 p50 198072 p99 1380216 max 1515408 | whole_run_mean 316823 max 2152592 | samples 9000 every 1000 ns
switch_dequeued data_pkts 110187 ce_marked 3722 acks 110163 acks_with_cnp 3722
pfc pause_events 0 resume_events 0
"""
with tempfile.TemporaryDirectory() as tmp:
    out = os.path.join(tmp, "run")
    r = subprocess.run([ROCETB, "run", os.path.join(ROOT, "scenarios", "hpcc_match_incast8_100g.toml"),
                        "--set", "run.duration=2ms", "--out", out, "--no-plots", "--quiet"],
                       capture_output=True, text=True, timeout=300)
    check(r.returncode == 0, f"rocetb run: exit {r.returncode}: {r.stderr[-300:]}")
    stats = os.path.join(tmp, "stats.txt")
    with open(stats, "w") as f:
        f.write(STATS)
    p = subprocess.run(["/usr/bin/python3", SIDE, "(b) test", out, stats], capture_output=True, text=True)
    check(p.returncode == 0, f"side by side: exit {p.returncode}: {p.stderr}")
    rows = {l.split("  ")[1].strip(): l for l in p.stdout.splitlines() if l.startswith("  ") and l.strip()}
    check("0.001 - 0.002" in rows.get("window, s", ""), f"window row: {rows.get('window, s')!r}")
    check("288.9 / 1380" in rows.get("queue mean / p99, KB", "") or "289.0 / 1380" in rows.get("queue mean / p99, KB", ""),
          f"queue row: {rows.get('queue mean / p99, KB')!r}")
    check("12.60, 11.01" in rows.get("flow rates, Gb/s", ""), f"flow row: {rows.get('flow rates, Gb/s')!r}")
    check("3722" in rows.get("CE marks (whole run)", ""), f"marks row: {rows.get('CE marks (whole run)')!r}")
    with open(stats, "w") as f:
        f.write("".join(l + "\n" for l in STATS.splitlines() if not l.startswith("total")))
    p = subprocess.run(["/usr/bin/python3", SIDE, "(b) test", out, stats], capture_output=True, text=True)
    check(p.returncode != 0 and "no 'total' figure" in p.stderr, f"missing total: exit {p.returncode}: {p.stderr!r}")

for f in failures:
    print("FAIL:", f)
print(f"{'ok' if not failures else 'failed'}: {len(failures)} failures")
sys.exit(1 if failures else 0)
