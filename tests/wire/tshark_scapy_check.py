#!/usr/bin/python3
"""Integration check of the wire builders against tools nobody here wrote.

Runs wire_emit_frames (a pcapng of every frame kind plus a JSON of what was built), then:
  * tshark dissects every frame; each field (opcode, QPN, PSN, BECN via
    infiniband.reserved, ECN, DSCP, PCP, AETH syndrome and MSN, RETH, PFC vector and
    quanta) must equal what was built; no packet may be malformed, no expert warning or
    error, IPv4 checksums good;
  * scapy (scapy.contrib.roce) recomputes every ICRC, which must equal the wire bytes.
usage: tshark_scapy_check.py PATH/TO/wire_emit_frames
"""
import json
import os
import subprocess
import sys
import tempfile

FIELDS = [
    "frame.number", "infiniband.bth.opcode", "infiniband.bth.destqp", "infiniband.bth.psn",
    "infiniband.reserved", "ip.dsfield.dscp", "ip.dsfield.ecn", "vlan.priority",
    "infiniband.aeth.syndrome", "infiniband.aeth.msn", "infiniband.reth.va",
    "infiniband.reth.r_key", "infiniband.reth.dmalen", "udp.srcport", "ip.checksum.status",
    "macc.opcode", "macc.cbfc.enbv", "eth.dst", "_ws.malformed",
] + [f"macc.cbfc.pause_time.c{i}" for i in range(8)]

# --disable-heuristic rpcordma: tshark 4.0's RPC-over-RDMA heuristic claims a SEND with an
# empty payload and then throws "Malformed Packet (Exception occurred)" inside RPCoRDMA;
# a zero-length SEND Only is valid InfiniBand, and the InfiniBand layers decode cleanly.
TSHARK = ["tshark", "-o", "ip.check_checksum:TRUE", "-d", "udp.port==4791,infiniband",
          "--disable-protocol", "tftp", "--disable-heuristic", "rpcrdma_infiniband"]


def num(s):
    return int(s, 0) if s else None


def tshark_rows(pcap):
    cmd = TSHARK + ["-r", pcap, "-T", "fields", "-E", "separator=|", "-E", "occurrence=f"]
    for f in FIELDS:
        cmd += ["-e", f]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return [dict(zip(FIELDS, line.split("|"))) for line in out.splitlines()]


def expert_lines(pcap):
    out = subprocess.run(TSHARK + ["-r", pcap, "-q", "-z", "expert,warn"], check=True,
                         capture_output=True, text=True).stdout
    return [l for l in out.splitlines() if l.strip() and not l.startswith("=")]


def check_roce(b, r, errors, n):
    def eq(name, got, want):
        if got != want:
            errors.append(f"frame {n} ({b['kind']}): {name} = {got!r}, built {want!r}")
    eq("opcode", num(r["infiniband.bth.opcode"]), b["opcode"])
    eq("destqp", num(r["infiniband.bth.destqp"]), b["qpn"])
    eq("psn", num(r["infiniband.bth.psn"]), b["psn"])
    eq("byte4 (BECN)", int(r["infiniband.reserved"], 16), b["byte4"])
    eq("dscp", num(r["ip.dsfield.dscp"]), b["dscp"])
    eq("ecn", num(r["ip.dsfield.ecn"]), b["ecn"])
    eq("udp sport", num(r["udp.srcport"]), b["sport"])
    eq("ip checksum status", r["ip.checksum.status"], "1")
    eq("pcp", num(r["vlan.priority"]) if r["vlan.priority"] else -1, b["pcp"])
    if "syndrome" in b:
        eq("aeth syndrome", num(r["infiniband.aeth.syndrome"]), b["syndrome"])
        eq("aeth msn", num(r["infiniband.aeth.msn"]), b["msn"])
    if "reth" in b:
        eq("reth va", num(r["infiniband.reth.va"]), b["reth"]["va"])
        eq("reth rkey", num(r["infiniband.reth.r_key"]), b["reth"]["rkey"])
        eq("reth dmalen", num(r["infiniband.reth.dmalen"]), b["reth"]["dmalen"])


def check_pfc(b, r, errors, n):
    if num(r["macc.opcode"]) != 0x0101 or r["eth.dst"] != "01:80:c2:00:00:01":
        errors.append(f"frame {n}: not a PFC frame to 01:80:c2:00:00:01: {r}")
    if num(r["macc.cbfc.enbv"]) != b["vector"]:
        errors.append(f"frame {n}: class-enable vector {r['macc.cbfc.enbv']} != {b['vector']}")
    quanta = [num(r[f"macc.cbfc.pause_time.c{i}"]) for i in range(8)]
    if quanta != b["quanta"]:
        errors.append(f"frame {n}: quanta {quanta} != {b['quanta']}")


def check_icrcs_with_scapy(pcap, built, errors):
    from scapy.all import rdpcap
    from scapy.contrib.roce import BTH
    from scapy.layers.l2 import Ether
    checked = 0
    for n, (pkt, b) in enumerate(zip(rdpcap(pcap), built), 1):
        if not b["kind"].startswith("pfc"):
            raw = bytes(pkt)
            # Hand scapy the frame without Ethernet padding (frames under 60 bytes are
            # padded after the IPv4 packet; scapy would count the padding as payload).
            l3 = 18 if raw[12:14] == b"\x81\x00" else 14
            ip_len = int.from_bytes(raw[l3 + 2:l3 + 4], "big")
            p = Ether(raw[:l3 + ip_len])
            if BTH not in p:
                errors.append(f"frame {n}: scapy finds no BTH")
                continue
            # Wireshark 4.0 shows BTH byte 4 as one reserved byte (checked above); scapy
            # names its bits, so BECN is checked by name here.
            if p[BTH].becn != (b["byte4"] >> 6) & 1 or p[BTH].fecn != b["byte4"] >> 7:
                errors.append(f"frame {n} ({b['kind']}): scapy BECN {p[BTH].becn} FECN "
                              f"{p[BTH].fecn}, built byte 4 0x{b['byte4']:02x}")
            want = p[BTH].compute_icrc(None)
            got = raw[l3 + ip_len - 4:l3 + ip_len]  # the ICRC wire bytes
            if want != got:
                errors.append(f"frame {n} ({b['kind']}): ICRC {got.hex()} != scapy {want.hex()}")
            checked += 1
    return checked


def main():
    emit = sys.argv[1]
    with tempfile.TemporaryDirectory() as d:
        pcap, js = os.path.join(d, "frames.pcapng"), os.path.join(d, "frames.json")
        subprocess.run([emit, pcap, js], check=True)
        built = json.load(open(js))
        rows = tshark_rows(pcap)
        errors = []
        if len(rows) != len(built):
            errors.append(f"tshark read {len(rows)} frames, {len(built)} were built")
        for n, (b, r) in enumerate(zip(built, rows), 1):
            if r["_ws.malformed"]:
                errors.append(f"frame {n} ({b['kind']}): malformed")
            (check_pfc if b["kind"].startswith("pfc") else check_roce)(b, r, errors, n)
        errors += [f"expert: {l}" for l in expert_lines(pcap)]
        checked = check_icrcs_with_scapy(pcap, built, errors)
        kinds = sorted({b["kind"] for b in built})
        print(f"{len(built)} frames ({', '.join(kinds)}); {checked} ICRCs checked by scapy")
        for e in errors:
            print("FAIL:", e)
        return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
