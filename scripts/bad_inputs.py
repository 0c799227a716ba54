#!/usr/bin/python3
"""A careless or hostile user's campaign against the rocetb command.

Runs every bad input below through the binary (one process each, with a time limit) and
sorts the outcomes:
  clear     exit 2 (or 1 for a run that started) with one line on stderr naming what was wrong
  unclear   refused, but in more than one line, or in none
  accepted  exit 0: the input was taken (listed, so that a wrong acceptance is seen; a
            capture whose flipped byte lands in a frame's payload is still a capture)
  crash     killed by a signal (SIGSEGV, SIGABRT, ...)
  hang      still running at the time limit (killed)

  scripts/bad_inputs.py [--rocetb build/apps/rocetb] [--timeout 30] [--show clear,...]

The cases are scenario keys given bad values through --set on a short default run, whole
scenario files that are not TOML or not files at all, command-line options out of range,
plug-ins that break the loading contract, and corrupt captures for analyze and replay. It
prints one line per case that is not clear, then the counts.
"""
import argparse
import os
import signal
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHORT = ["--set", "run.duration=200us", "--no-plots", "--quiet"]

# key -> bad values (as TOML text after '=')
BAD_VALUES = {
    "run.duration": ['"0s"', '"-1ms"', '"10"', '"1 parsec"', '"99999h"', '1', '""', '"NaNms"'],
    "run.seed": ['-1', '"one"', '1.5', '18446744073709551616'],
    "run.warmup": ['"1s"', '"-5us"', '"x"'],
    "run.sample_interval": ['"0ns"', '"1ns"', '"1h"', '"abc"'],
    "run.max_memory": ['"1KB"', '"-1GB"', '"lots"'],
    "run.clock": ['"sundial"', '3', '""'],
    "topology.kind": ['"torus"', '7'],
    "topology.hosts": ['0', '1', '100000', '-3', '"nine"', '2.5'],
    "topology.rate": ['"0Gbps"', '"1000000Tbps"', '"-1Gbps"', '"fast"', '100'],
    "topology.cable_length_m": ['-1', '1e7', '"2m"', 'nan', 'inf'],
    "topology.mtu": ['100', '100000', '"jumbo"'],
    "host.path_mtu": ['1000', '8192', '0', '"1024B"'],
    "host.verb": ['"read"', '""'],
    "host.local_ack_timeout": ['0', '32', '-1'],
    "host.retry_cnt": ['8', '-1'],
    "host.ack_turnaround": ['"-1ns"', '"soon"'],
    "switch.pfc_enable": ['[8]', '[-1]', '"3,4"', '[3, 3]'],
    "switch.buffer_pool.size": ['"0B"', '"4GB"', '"-1MB"', '"big"'],
    "switch.buffer_pool.xoff": ['"100MB"', '"x"'],
    "switch.pg_lossless.xoff": ['"0B"', '"1TB"'],
    "switch.wred_profile.green_min_threshold": ['"2MB"', '"-1KB"', '40000'],
    "switch.wred_profile.green_max_threshold": ['"1KB"', '"huge"'],
    "switch.wred_profile.green_drop_probability": ['101', '-1', '"5%"'],
    "switch.wred_profile.ecn": ['"ecn_some"', '1'],
    "cc.algorithm": ['"cubic"', '""', '"../../etc/passwd"', '3'],
    "cc.params.rp_gd": ['50', '-1', '"x"'],
    "cc.params.rp_dce_tcp_g": ['4', '2048'],
    "cc.params.rp_initial_alpha_value": ['1025', '-3'],
    "cc.params.rp_rf_reset_ratio": ['1'],
    "cc.params.rp_time_reset": ['0', '"300us"'],
    "cc.params.nonexistent": ['1'],
    "traffic[0].pattern": ['"broadcast"', '""'],
    "traffic[0].senders": ['0', '9', '-1', '1000'],
    "traffic[0].receiver": ['"h99"', '""', '"sw0"'],
    "traffic[0].bytes": ['"0B"', '"-1MB"', '"1EB"', '"lots"'],
    "traffic[0].start": ['"-1ms"', '"later"'],
    "name": ['""', '"../../../../tmp/escaped"', '"a/b"', '"\\u0000"'],
    "nosuch.key": ['1'],
    "realtime.start_at_unix_ms": ['99999999999999', '-1'],
    "realtime.max_lateness": ['"0s"', '"-1us"'],
}

BAD_SETS = [
    "run.duration", "=5", "run..duration=1", "traffic[99].bytes=1", "traffic[-1].bytes=1",
    "traffic[x].bytes=1", "run.duration=\"1ms", "run.duration=[", "a.b.c.d.e.f=1",
    "run.duration=\udcff\udcfe", "name=\"\udcff\"",  # bytes 0xff 0xfe: not UTF-8
    "run=1", "topology=\"x\"", "[run]=1",
]


def scenario_cases(tmp):
    default = os.path.join(ROOT, "scenarios", "default.toml")
    cases = []
    for key, values in BAD_VALUES.items():
        for v in values:
            cases.append((f"--set {key}={v}", ["run", default, "--set", f"{key}={v}"] + SHORT))
    for s in BAD_SETS:
        cases.append((f"--set {s!r}", ["run", default, "--set", s] + SHORT))
    files = {
        "empty.toml": b"",
        "binary.toml": bytes(range(256)) * 4,
        "truncated.toml": open(default, "rb").read()[:300],
        "not_utf8.toml": b'name = "\xff\xfe"\n',
        "dup_key.toml": b'name = "a"\nname = "b"\n',
        "deep.toml": b"a = " + b"[" * 100000 + b"]" * 100000 + b"\n",
        "long_line.toml": b'name = "' + b"x" * 5_000_000 + b'"\n',
    }
    for name, data in files.items():
        path = os.path.join(tmp, name)
        with open(path, "wb") as f:
            f.write(data)
        cases.append((f"scenario {name}", ["run", path] + SHORT))
    fifo = os.path.join(tmp, "fifo.toml")
    os.mkfifo(fifo)
    cases += [
        ("scenario is a FIFO", ["run", fifo] + SHORT),
        ("scenario is a directory", ["run", tmp] + SHORT),
        ("scenario is /dev/zero", ["run", "/dev/zero"] + SHORT),
        ("scenario missing", ["run", os.path.join(tmp, "missing.toml")] + SHORT),
        ("cdf is /dev/zero", ["run", default, "--set", 'traffic[0].pattern="poisson"',
                              "--set", 'traffic[0].cdf="/dev/zero"'] + SHORT),
        ("cdf is a FIFO", ["run", default, "--set", 'traffic[0].pattern="poisson"',
                           "--set", f'traffic[0].cdf="{fifo}"'] + SHORT),
    ]
    return cases


def option_cases(tmp):
    default = os.path.join(ROOT, "scenarios", "default.toml")
    nonempty = os.path.join(tmp, "nonempty")
    os.makedirs(nonempty, exist_ok=True)
    open(os.path.join(nonempty, "keep"), "w").close()
    data_symbol = os.path.join(tmp, "data_symbol.so")
    c = os.path.join(tmp, "data_symbol.c")
    with open(c, "w") as f:
        f.write("int rtb_cc_plugin_ops = 3;\n")
    built = subprocess.run(["cc", "-shared", "-fPIC", "-o", data_symbol, c]).returncode == 0
    # A results folder whose summary.json is not one, for rocetb merge.
    not_summary = os.path.join(tmp, "not_summary")
    os.makedirs(not_summary, exist_ok=True)
    with open(os.path.join(not_summary, "summary.json"), "w") as f:
        f.write('{"schema_version": 1, "scenario": 7}\n')
    not_elf = os.path.join(tmp, "not_elf.so")
    with open(not_elf, "w") as f:
        f.write("hello\n")
    cases = [
        ("--seed -1", ["run", default, "--seed", "-1"] + SHORT),
        ("--seed text", ["run", default, "--seed", "x"] + SHORT),
        ("--out non-empty", ["run", default, "--out", nonempty] + SHORT),
        ("--out unwritable", ["run", default, "--out", "/proc/rocetb"] + SHORT),
        ("--out not UTF-8", ["run", default, "--out", os.path.join(tmp, "\udcff")] + SHORT),
        ("--cc missing", ["run", default, "--cc", "./missing.so"] + SHORT),
        ("--cc not ELF", ["run", default, "--cc", not_elf] + SHORT),
        ("unknown subcommand", ["fly"]),
        ("unknown option", ["run", default, "--turbo"]),
        ("bench tx qps 0", ["bench", "tx", "--qps", "0"]),
        ("bench tx payload 1", ["bench", "tx", "--payload", "1"]),
        ("bench nosuch mode", ["bench", "nosuch"]),
        ("plan bad rate", ["plan", "--rate", "fast"]),
        ("sweep bad vary", ["sweep", default, "--vary", "run.duration"]),
        ("compare missing", ["compare", os.path.join(tmp, "a"), os.path.join(tmp, "b")]),
        ("merge missing", ["merge", os.path.join(tmp, "a"), "--out", os.path.join(tmp, "merged")]),
        ("merge bad summary", ["merge", not_summary, not_summary, "--out", os.path.join(tmp, "merged")]),
        ("merge no --out", ["merge", not_summary]),
    ]
    if built:
        cases.append(("--cc data symbol", ["run", default, "--cc", data_symbol] + SHORT))
    return cases


def capture_cases(tmp):
    shared = os.path.join(ROOT, "..", "shared", "captures", "oferby_proxy_roce.pcap")
    if not os.path.exists(shared):
        return []
    data = open(shared, "rb").read()
    variants = {
        "incl_len_huge.pcap": data[:32] + b"\xf0\xff\xff\xff" + data[36:],
        "incl_len_zero.pcap": data[:32] + b"\x00\x00\x00\x00" + data[36:],
        "truncated.pcap": data[: len(data) // 2 + 7],
        "header_only.pcap": data[:24],
        "bad_magic.pcap": b"\x00\x01\x02\x03" + data[4:],
        "flipped.pcap": data[:60] + bytes([data[60] ^ 0xFF]) + data[61:],
        "empty.pcap": b"",
    }
    cases = []
    for name, blob in variants.items():
        path = os.path.join(tmp, name)
        with open(path, "wb") as f:
            f.write(blob)
        cases.append((f"analyze {name}", ["analyze", path]))
        cases.append((f"replay {name}", ["replay", path, "--to", "net_null0", "--top-speed"]))
    return cases


def classify(proc_rc, err, timed_out):
    if timed_out:
        return "hang"
    if proc_rc < 0:
        return "crash"
    if proc_rc == 0:
        return "accepted"
    lines = [l for l in err.decode("utf-8", "replace").splitlines() if l.strip()]
    lines = [l for l in lines if not l.startswith(("warning:", "note:"))]
    return "clear" if len(lines) == 1 else "unclear"


def run_case(rocetb, argv, timeout, cwd):
    p = subprocess.Popen([rocetb] + argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                         cwd=cwd, start_new_session=True)
    try:
        _, err = p.communicate(timeout=timeout)
        return p.returncode, err, False
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        _, err = p.communicate()
        return p.returncode, err, True


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rocetb", default=os.path.join(ROOT, "build", "apps", "rocetb"))
    ap.add_argument("--timeout", type=float, default=30)
    ap.add_argument("--show", default="unclear,accepted,crash,hang")
    args = ap.parse_args()
    args.rocetb = os.path.abspath(args.rocetb)
    show = set(args.show.split(","))
    counts = {k: 0 for k in ("clear", "unclear", "accepted", "crash", "hang")}
    with tempfile.TemporaryDirectory() as tmp:
        cases = scenario_cases(tmp) + option_cases(tmp) + capture_cases(tmp)
        for label, argv in cases:
            rc, err, timed_out = run_case(args.rocetb, argv, args.timeout, tmp)
            kind = classify(rc, err, timed_out)
            counts[kind] += 1
            if kind in show:
                first = err.decode("utf-8", "replace").strip().splitlines()[:3]
                print(f"{kind:8} {label}: exit {rc}: {' | '.join(first)[:300]}")
    tried = sum(counts.values())
    print(f"{tried} tried: " + ", ".join(f"{v} {k}" for k, v in counts.items()))
    return 1 if counts["crash"] or counts["hang"] else 0


if __name__ == "__main__":
    sys.exit(main())
