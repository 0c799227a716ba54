#!/usr/bin/python3
"""`rocetb analyze` against tools nobody here wrote.

1. Every capture in $ROCETB_SHARED/captures: the opcode mix, CE and CNP counts, QPs
   (destination QPN and address pair), NAKs by syndrome and PFC frames per priority
   that tshark dissects equal summary.json's; the ICRC of every RoCEv2 frame is
   recomputed here with zlib (the IBTA masks, written out below) and the valid count
   compared.
2. A pcapng written by `rocetb frames` (every frame kind rocetb sends), compared the same
   way; captures made here with scapy in the link types and encapsulations the reference files
   lack: Linux cooked SLL and SLL2, QinQ, raw IPv6 (LINKTYPE 229 and 101), IPv6 RoCEv2
   (whose ICRC is computed only by this file's zlib code, checking rocetb's IPv6 ICRC),
   PSN gaps, retransmissions, NAKs, PFC with a refresh and an XON; the same comparison
   with tshark plus the PSN and pause figures the frames were built to have.
3. The command's errors: a truncated file (exit 1, partial results, complete=false), a
   missing file and a bad option (exit 2, one line naming it).

usage: analyze_tshark_check.py ROCETB_BINARY
"""
import collections
import json
import os
import struct
import subprocess
import sys
import tempfile
import zlib

import logging

logging.getLogger("scapy.runtime").setLevel(logging.ERROR)  # mixed layer classes in one file
from scapy.all import (CookedLinux, CookedLinuxV2, Dot1AD, Dot1Q, Ether, IP, IPv6, Raw,
                       UDP, rdpcap, wrpcap)
from scapy.contrib.mac_control import MACControlClassBasedFlowControl

ROCETB = sys.argv[1]
SHARED = os.environ.get("ROCETB_SHARED", os.path.join(os.path.dirname(__file__), "..", "..", "..", "shared"))
TSHARK = ["tshark", "-o", "infiniband.rroce.port:4791", "--disable-protocol", "tftp",
          "--disable-heuristic", "rpcrdma_infiniband"]
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def analyze(path, out, *extra):
    r = subprocess.run([ROCETB, "analyze", path, "--out", out, *extra], capture_output=True, text=True)
    summary = None
    if os.path.exists(os.path.join(out, "summary.json")):
        summary = json.load(open(os.path.join(out, "summary.json")))
    return r, summary


def tshark_rows(path, display_filter, fields):
    cmd = TSHARK + ["-r", path, "-Y", display_filter, "-T", "fields", "-E", "separator=|"]
    for f in fields:
        cmd += ["-e", f]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    return [line.split("|") for line in out.splitlines() if line]


# ICRC (IBTA Vol. 1 Annex A17.4.5.1): CRC-32 of 8 x 0xFF + the IP packet with its variant
# fields set to ones, up to the ICRC; wire bytes are the CRC little-endian.
def icrc(ip_packet):
    b = bytearray(b"\xff" * 8 + ip_packet[:-4])
    if ip_packet[0] >> 4 == 4:
        ihl = (ip_packet[0] & 15) * 4
        b[8 + 1] = 0xFF                    # TOS
        b[8 + 8] = 0xFF                    # TTL
        b[8 + 10:8 + 12] = b"\xff\xff"     # header checksum
        udp = 8 + ihl
    else:
        b[8] |= 0x0F                       # traffic class (high nibble of byte 0 kept: version)
        b[8 + 1:8 + 4] = b"\xff\xff\xff"   # traffic class, flow label
        b[8 + 7] = 0xFF                    # hop limit
        udp = 8 + 40
    b[udp + 6:udp + 8] = b"\xff\xff"       # UDP checksum
    b[udp + 8 + 4] = 0xFF                  # BTH FECN/BECN/reserved byte
    return struct.pack("<I", zlib.crc32(bytes(b)) & 0xFFFFFFFF)


def ip_packets(path):
    """The RoCEv2 IP packets of a capture (UDP destination 4791), from scapy's dissection."""
    for p in rdpcap(path):
        for layer in (IP, IPv6):
            if layer in p and UDP in p and p[UDP].dport == 4791:
                raw = bytes(p[layer])
                n = p[IP].len if layer is IP else 40 + p[IPv6].plen
                yield raw[:n]
                break


def expected_from_tools(path):
    rows = tshark_rows(path, "udp.dstport==4791",
                       ["infiniband.bth.opcode", "infiniband.bth.destqp", "ip.src", "ip.dst",
                        "ipv6.src", "ipv6.dst", "ip.dsfield.ecn", "ipv6.tclass.ecn",
                        "infiniband.aeth.syndrome"])
    opcodes = collections.Counter()
    qps = set()
    naks = collections.Counter()
    ce = 0
    for op, qpn, s4, d4, s6, d6, ecn4, ecn6, syn in rows:
        op = int(op, 0)
        opcodes[op] += 1
        qps.add((int(qpn, 0), s4 or s6, d4 or d6))
        ce += (ecn4 or ecn6) == "3"
        if op in (0x11, 0x12) and syn and (int(syn, 0) >> 5) in (1, 3):
            naks[int(syn, 0)] += 1
    pfc = collections.defaultdict(lambda: [0, 0, 0])  # frames, xoff, xon
    prow = tshark_rows(path, "macc.opcode==0x0101",
                       ["macc.cbfc.enbv"] + [f"macc.cbfc.pause_time.c{i}" for i in range(8)])
    for enbv, *quanta in prow:
        for i in range(8):
            if int(enbv, 0) & (1 << i):
                pfc[i][0] += 1
                pfc[i][1 if int(quanta[i]) else 2] += 1
    valid = sum(1 for ip in ip_packets(path) if icrc(ip) == ip[-4:])
    return opcodes, qps, naks, ce, dict(pfc), valid


def compare(path, out):
    r, s = analyze(path, out)
    name = os.path.basename(path)
    check(r.returncode == 0 and s is not None, f"{name}: rocetb analyze exit {r.returncode}: {r.stderr}")
    if s is None:
        return None
    opcodes, qps, naks, ce, pfc, valid = expected_from_tools(path)
    got_ops = collections.Counter({int(k.split()[0], 16): v for k, v in s["opcodes"].items()})
    check(got_ops == opcodes, f"{name}: opcodes {dict(got_ops)} != tshark {dict(opcodes)}")
    got_qps = {(int(q["dest_qpn"], 16), q["src"], q["dst"]) for q in s["qps"]}
    check(got_qps == qps, f"{name}: QPs {got_qps} != tshark {qps}")
    check(s["ce_frames"] == ce, f"{name}: CE {s['ce_frames']} != tshark {ce}")
    check(s["cnps"] == opcodes[0x81], f"{name}: CNPs {s['cnps']} != tshark {opcodes[0x81]}")
    got_naks = collections.Counter()
    for q in s["qps"]:
        for k, v in q["naks"].items():
            got_naks[int(k.split()[0], 16)] += v
    check(got_naks == naks, f"{name}: NAKs {dict(got_naks)} != tshark {dict(naks)}")
    got_pfc = {p["priority"]: [p["pfc_frames"], p["xoff"], p["xon"]] for p in s["priorities"]}
    check(got_pfc == pfc, f"{name}: PFC {got_pfc} != tshark {pfc}")
    check(s["icrc"]["valid"] == valid and s["icrc"]["invalid"] == s["roce_frames"] - valid,
          f"{name}: ICRC {s['icrc']} != zlib's {valid} valid of {s['roce_frames']}")
    print(f"ok {name}: {s['roce_frames']} RoCEv2, {len(qps)} QPs, CE {ce}, CNPs {opcodes[0x81]}, "
          f"PFC {pfc}, ICRC valid {valid}")
    return s


# ---- captures built here ---------------------------------------------------------------

MAC_A, MAC_B = "02:00:00:00:00:0a", "02:00:00:00:00:0b"


def roce_ip(src, dst, opcode, qpn, psn, payload=b"", tos=0x6a, syndrome=None, v6=False, sport=49152):
    bth = struct.pack(">BBHB3sB3s", opcode, 0x40, 0xFFFF, 0, qpn.to_bytes(3, "big"), 0,
                      psn.to_bytes(3, "big"))
    ext = b""
    if syndrome is not None:
        ext = struct.pack(">B3s", syndrome, (1).to_bytes(3, "big"))
    if opcode == 0x81:
        ext = bytes(16)
    body = bth + ext + payload + bytes(4)
    if v6:
        pkt = IPv6(src=src, dst=dst, tc=tos, hlim=64) / UDP(sport=sport, dport=4791, chksum=0) / Raw(body)
    else:
        pkt = IP(src=src, dst=dst, tos=tos, id=0, flags="DF", ttl=64) / UDP(sport=sport, dport=4791, chksum=0) / Raw(body)
    b = bytearray(bytes(pkt))
    b[-4:] = icrc(bytes(b))
    return bytes(b)


def flow_v6(corrupt_one=False):
    a, b = "2001:db8::a", "2001:db8::b"
    pkts = [roce_ip(a, b, 0x00, 0x77, 0, bytes(256), v6=True),
            roce_ip(a, b, 0x01, 0x77, 1, bytes(256), v6=True, tos=0x6b),   # CE
            roce_ip(a, b, 0x02, 0x77, 2, bytes(100), v6=True),
            roce_ip(b, a, 0x81, 0x66, 0, tos=0xc2, v6=True, sport=0),       # CNP
            roce_ip(b, a, 0x11, 0x66, 2, syndrome=0x1f, v6=True)]          # ACK
    if corrupt_one:
        p = bytearray(pkts[0])
        p[70] ^= 1
        pkts[0] = bytes(p)
    return pkts


def flow_v4_retx():
    a, b = "10.0.0.1", "10.0.0.2"
    psns = [0, 1, 2, 3, 5, 6, 3, 4, 5, 6, 7]  # 4 lost, go-back-N from 3: 4 repeats
    pkts = [roce_ip(a, b, 0x0A, 0x42, p, bytes(64)) for p in psns]
    pkts.insert(5, roce_ip(b, a, 0x11, 0x43, 3, syndrome=0x60))   # NAK PSN sequence error
    pkts.insert(6, roce_ip(b, a, 0x11, 0x43, 3, syndrome=0x2e))   # RNR NAK
    return pkts


def pfc_frames():
    def pfc(prio_quanta):
        kw = {f"c{i}_enabled": 1 for i in prio_quanta}
        kw.update({f"c{i}_pause_time": q for i, q in prio_quanta.items()})
        return Ether(src=MAC_B, dst="01:80:c2:00:00:01") / MACControlClassBasedFlowControl(**kw)
    return [pfc({3: 1000}), pfc({3: 1000, 4: 200}), pfc({3: 0})]


def stamp(frames, step_us=1):
    for i, f in enumerate(frames):
        f.time = 1700000000 + i * step_us * 1e-6
    return frames


def built_captures(d):
    files = {}
    v6 = flow_v6(corrupt_one=True)
    v4 = flow_v4_retx()
    # Linux cooked v1 and v2: tcpdump -i any on a RoCE host (Soft-RoCE shows its frames there).
    sll = [CookedLinux(pkttype=4, lladdrtype=1, lladdrlen=6, src=b"\x02\0\0\0\0\x0a\0\0", proto=0x0800) / IP(p) for p in v4]
    sll += [CookedLinux(pkttype=4, lladdrtype=1, lladdrlen=6, src=b"\x02\0\0\0\0\x0a\0\0", proto=0x86dd) / IPv6(p) for p in v6]
    files["sll.pcap"] = (stamp(sll), 113)
    sll2 = [CookedLinuxV2(proto=0x86dd, ifindex=3, lladdrtype=1, pkttype=0, lladdrlen=6,
                          src=b"\x02\0\0\0\0\x0b\0\0") / IPv6(p) for p in v6]
    files["sll2.pcap"] = (stamp(sll2), 276)
    qinq = [Ether(src=MAC_A, dst=MAC_B) / Dot1AD(vlan=100) / Dot1Q(vlan=10, prio=3) / IP(p) for p in v4]
    qinq += [Ether(src=MAC_A, dst=MAC_B) / Dot1Q(vlan=10, prio=3) / IPv6(p) for p in v6]
    qinq += pfc_frames()
    qinq.append(Ether(src=MAC_A, dst=MAC_B) / IP(src="10.0.0.1", dst="10.0.0.9") / UDP(sport=4791, dport=53) / Raw(b"x" * 20))
    files["qinq.pcap"] = (stamp(qinq), 1)
    files["raw6.pcap"] = (stamp([IPv6(p) for p in v6]), 229)
    files["raw101.pcap"] = (stamp([IPv6(p) for p in v6] + [IP(p) for p in v4]), 101)
    paths = {}
    for name, (frames, linktype) in files.items():
        paths[name] = os.path.join(d, name)
        wrpcap(paths[name], frames, linktype=linktype)
    return paths


def qp(summary, qpn):
    return next(q for q in summary["qps"] if int(q["dest_qpn"], 16) == qpn)


def check_built(name, s):
    if s is None:
        return
    if name in ("sll.pcap", "qinq.pcap", "raw101.pcap"):
        data = qp(s, 0x42)
        check(data["psn_gaps"] == 1 and data["psn_missing"] == 1 and data["retransmissions"] == 4,
              f"{name}: PSN gaps/missing/retransmissions {data['psn_gaps']}/{data['psn_missing']}/"
              f"{data['retransmissions']}, built as 1/1/4")
        naks = qp(s, 0x43)["naks"]
        check(naks == {"0x60 NAK PSN sequence error": 1, "0x2e RNR NAK (timer 14)": 1}, f"{name}: NAKs {naks}")
    v6 = qp(s, 0x77)  # every built file has the IPv6 flow, its first frame corrupted
    check(v6["icrc"] == {"valid": 2, "invalid": 1, "not_checked": 0}, f"{name}: IPv6 ICRC {v6['icrc']}")
    check(v6["ce"] == 1 and v6["ce_to_cnp"]["count"] == 1, f"{name}: IPv6 CE->CNP {v6['ce_to_cnp']}")
    check(v6["messages"]["completed"] == 1, f"{name}: IPv6 messages {v6['messages']}")
    if name == "qinq.pcap":
        p = {x["priority"]: x for x in s["priorities"]}
        # 1000 quanta at 100 Gb/s = 5.12 us; refreshed after 1 us, XON 1 us later: 2 us paused.
        check(p[3]["pause_requested_ns"] == 10240 and p[3]["paused_ns"] == 2000,
              f"{name}: priority 3 pause {p[3]}")
        check(p[4]["paused_ns"] == 1024, f"{name}: priority 4 pause {p[4]}")
        check(s["other_frames"] == 1, f"{name}: other frames {s['other_frames']}")


def check_errors(d):
    ref = os.path.join(SHARED, "captures", "oferby_proxy_roce.pcap")
    cut = os.path.join(d, "cut.pcap")
    open(cut, "wb").write(open(ref, "rb").read()[:20000])
    r, s = analyze(cut, os.path.join(d, "cut"))
    check(r.returncode == 1, f"truncated: exit {r.returncode}")
    check("cut.pcap" in r.stderr and "truncated" in r.stderr and len(r.stderr.splitlines()) == 1,
          f"truncated: message {r.stderr!r}")
    check(s is not None and s["complete"] is False and s["frames"] == 41, f"truncated: summary {s and s['frames']}")
    r, _ = analyze(os.path.join(d, "missing.pcap"), os.path.join(d, "m"))
    check(r.returncode == 2 and "missing.pcap" in r.stderr, f"missing: {r.returncode} {r.stderr!r}")
    r, _ = analyze(ref, os.path.join(d, "o"), "--link-rate", "fast")
    check(r.returncode == 2 and "--link-rate 'fast'" in r.stderr, f"bad option: {r.stderr!r}")
    print("ok errors: truncated file exit 1 with partial results; missing file and bad option exit 2")


def main():
    with tempfile.TemporaryDirectory() as d:
        caps = os.path.join(SHARED, "captures")
        for name in sorted(os.listdir(caps)):
            if name.endswith((".pcap", ".pcapng")):
                compare(os.path.join(caps, name), os.path.join(d, "ref-" + name))
        # A pcapng file written by rocetb itself: one frame of every kind it sends.
        frames = os.path.join(d, "frames.pcapng")
        subprocess.run([ROCETB, "frames", "--out", frames], capture_output=True, check=True)
        compare(frames, os.path.join(d, "frames"))
        for name, path in built_captures(d).items():
            check_built(name, compare(path, os.path.join(d, "built-" + name)))
        check_errors(d)
    print(f"{len(failures)} failed" if failures else "all checks passed")
    return 1 if failures else 0


if __name__ == "__main__":
    if not os.path.isdir(os.path.join(SHARED, "captures")):
        # 77: meson's "skipped" (the reference captures live beside the repository).
        print(f"skipped: the reference captures folder {os.path.join(SHARED, 'captures')} is missing: "
              "set ROCETB_SHARED to the shared folder, or clone the repository beside it")
        sys.exit(77)
    sys.exit(main())
