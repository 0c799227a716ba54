#!/usr/bin/env python3
"""Reads a split realtime scenario (scenarios/README.md, [realtime.process.<role>]) and
prints what scripts/run_split.sh needs, one item per line:

  role ROLE                    each process, servers first (memif role=server)
  socket PATH                  memif sockets the servers create (with ${VAR} expanded)
  veth ROLE_A IFACE_A ROLE_B IFACE_B
                               af_packet ports at the two ends of one cable
Errors go to stderr with exit status 2.
"""
import os
import re
import sys
import tomllib


def expand(text):
    def var(m):
        if m.group(1) not in os.environ:
            sys.exit(f"split_plan: ${{{m.group(1)}}} in '{text}' is not set in the environment")
        return os.environ[m.group(1)]
    return re.sub(r"\$\{([^}]*)\}", var, text)


def args_of(device):
    return dict(kv.split("=", 1) for kv in device.split(",")[1:] if "=" in kv)


def main(path):
    with open(path, "rb") as f:
        scenario = tomllib.load(f)
    processes = scenario.get("realtime", {}).get("process", {})
    if not processes:
        sys.exit(f"split_plan: {path} has no [realtime.process.<role>] tables: nothing to split")
    ends = {}  # cable (sorted node names) -> [(role, iface)]
    servers, others, sockets = [], [], []
    for role, p in processes.items():
        is_server = False
        for port in p.get("ports", []):
            device = expand(port["device"])
            a = args_of(device)
            if device.startswith("net_memif") and a.get("role", "server") == "server":
                is_server = True
                sockets.append(a.get("socket", "/run/memif.sock"))
            if device.startswith("net_af_packet"):
                ends.setdefault(tuple(sorted(port["link"])), []).append((role, a["iface"]))
        (servers if is_server else others).append(role)
    for role in servers + others:
        print("role", role)
    for s in sockets:
        print("socket", s)
    for cable, pair in sorted(ends.items()):
        if len(pair) != 2:
            sys.exit(f"split_plan: cable {'-'.join(cable)} has {len(pair)} af_packet ends: expected 2")
        print("veth", *pair[0], *pair[1])


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: split_plan.py SCENARIO")
    main(sys.argv[1])
