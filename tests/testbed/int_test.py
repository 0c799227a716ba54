#!/usr/bin/python3
"""HPCC INT end to end through two switches, checked from a capture with tools nobody here
wrote (tshark, zlib) and the Wireshark dissector scripts/hpcc_int.lua.

Runs `rocetb run` on a 2:1 incast over h0, h1 -> sw0 -> sw1 -> h2 with --cc hpcc and a
capture of h2's link, then, frame by frame (a pcapng reader and the record layout of
lib/wire/README.md, written here again from the README):
  * every data frame carries 2 records (the switches on its path), an ICRC that zlib
    recomputes over the masked header (the trailer is after it, not covered), and hop 1 left
    after hop 0; per hop, timestamps and tx bytes rise from frame to frame; sw0's egress (the
    bottleneck) reports a queue, sw1's (not a bottleneck) at most two frames;
  * every ACK from h2 echoes the two records of a data frame that h2 received;
  * tshark with the dissector shows exactly those records for every frame;
  * the same run with --cc dcqcn carries no trailer (the frames end with their ICRC).
usage: int_test.py PATH/TO/rocetb PATH/TO/hpcc_int.lua
"""
import os
import struct
import subprocess
import sys
import tempfile
import zlib

SCENARIO = """
name = "int_two_switch"
[run]
clock = "virtual"
duration = "1ms"
seed = 1
[topology]
kind = "explicit"
rate = "100Gbps"
hosts = [{ name = "h0" }, { name = "h1" }, { name = "h2" }]
switches = [{ name = "sw0" }, { name = "sw1" }]
links = [{ a = "h0", b = "sw0" }, { a = "h1", b = "sw0" }, { a = "sw0", b = "sw1" }, { a = "h2", b = "sw1" }]
[cc]
algorithm = "hpcc"
[[traffic]]
pattern = "incast"
receiver = "h2"
senders = ["h0", "h1"]
"""
PAYLOAD_OPCODES = set(range(0x00, 0x06)) | set(range(0x06, 0x0C))  # RC SEND, RDMA WRITE
ACK_OPCODE = 0x11


def pcapng_frames(path):
    """(frame bytes) of every Enhanced Packet Block, little-endian files (ours)."""
    data = open(path, "rb").read()
    off, out = 0, []
    while off + 12 <= len(data):
        btype, blen = struct.unpack_from("<II", data, off)
        if btype == 6:
            caplen = struct.unpack_from("<I", data, off + 20)[0]
            out.append(data[off + 28: off + 28 + caplen])
        off += blen
    return out


def icrc(ip):
    """RoCEv2 ICRC (IBTA Annex A17.3.3) over the IPv4 packet up to the ICRC at `end`."""
    m = bytearray(ip)
    m[1] = 0xFF                       # TOS
    m[8] = 0xFF                       # TTL
    m[10:12] = b"\xff\xff"            # IPv4 checksum
    ihl = (m[0] & 0x0F) * 4
    m[ihl + 6: ihl + 8] = b"\xff\xff"  # UDP checksum
    m[ihl + 8 + 4] = 0xFF             # BTH byte 4
    return zlib.crc32(b"\xff" * 8 + bytes(m)) & 0xFFFFFFFF


def decode(word):
    return {"rate": word >> 61, "time": (word >> 37) & 0xFFFFFF, "tx": (word >> 17) & 0xFFFFF,
            "qlen": word & 0x1FFFF}


def roce(frame):
    """(ip bytes, opcode, src ip, udp sport) of a RoCEv2 frame, else None."""
    if len(frame) < 14 + 20 + 8 + 12 or frame[12:14] != b"\x08\x00":
        return None
    ip_len = struct.unpack_from(">H", frame, 16)[0]
    ip = frame[14: 14 + ip_len]
    ihl = (ip[0] & 0x0F) * 4
    if ip[9] != 17 or struct.unpack_from(">H", ip, ihl + 2)[0] != 4791:
        return None
    return ip, ip[ihl + 8], ip[12:16], struct.unpack_from(">H", ip, ihl)[0]


def trailer(ip):
    """(slots, [records]) of an INT trailer at the end of `ip`, else None."""
    if ip[-4:-2] != b"IN":
        return None
    slots, hops = ip[-2], ip[-1]
    first = len(ip) - 4 - 8 * slots
    return slots, [decode(struct.unpack_from(">Q", ip, first + 8 * i)[0]) for i in range(hops)]


def run(rocetb, tmp, cc):
    scen = os.path.join(tmp, "int.toml")
    with open(scen, "w") as f:
        f.write(SCENARIO)
    out = os.path.join(tmp, cc)
    subprocess.run([rocetb, "run", scen, "--cc", cc, "--out", out, "--capture", "h2"], check=True,
                   stdout=subprocess.DEVNULL)
    return os.path.join(out, "capture-h2.pcapng")


def check_hpcc(capture, errors):
    frames = pcapng_frames(capture)
    h2 = bytes([192, 168, 1, 3])
    data, acks, last = 0, 0, {}
    seen = {}  # flow (udp sport of the data) -> set of record tuples that arrived
    echoes = []  # (frame number, records) of ACKs
    bottleneck_queue = 0
    records = {}  # frame number (1-based) -> records
    for n, frame in enumerate(frames, 1):
        r = roce(frame)
        if r is None:
            continue
        ip, opcode, src, sport = r
        t = trailer(ip)
        if t is None:
            errors.append(f"frame {n}: RoCE frame without an INT trailer")
            continue
        slots, hops = t
        records[n] = hops
        if slots != 5:
            errors.append(f"frame {n}: {slots} slots, expected 5")
        if opcode in PAYLOAD_OPCODES and src != h2:
            data += 1
            covered = len(ip) - 4 - (4 + 8 * slots)
            want = struct.unpack_from("<I", ip, covered)[0]
            if icrc(ip[:covered]) != want:
                errors.append(f"frame {n}: ICRC {want:#x}, zlib computes {icrc(ip[:covered]):#x}")
            if len(hops) != 2:
                errors.append(f"frame {n}: {len(hops)} hops, expected 2 (sw0, sw1)")
                continue
            if not 0 < (hops[1]["time"] - hops[0]["time"]) % (1 << 24) < 10_000:
                errors.append(f"frame {n}: hop 1 at {hops[1]['time']} ns, hop 0 at {hops[0]['time']} ns")
            for i, h in enumerate(hops):
                if i in last:
                    p = last[i]
                    if not 0 < (h["time"] - p["time"]) % (1 << 24) < 1_000_000:
                        errors.append(f"frame {n} hop {i}: time {h['time']} after {p['time']}")
                    if not 0 < (h["tx"] - p["tx"]) % (1 << 20) < 1_000:
                        errors.append(f"frame {n} hop {i}: tx units {h['tx']} after {p['tx']}")
                if h["rate"] != 2:
                    errors.append(f"frame {n} hop {i}: rate code {h['rate']}, expected 2 (100 Gb/s)")
                last[i] = h
            bottleneck_queue = max(bottleneck_queue, hops[0]["qlen"] * 80)
            if hops[1]["qlen"] * 80 > 2 * 1200:
                errors.append(f"frame {n}: sw1's egress (no bottleneck) reports {hops[1]['qlen'] * 80} B queued")
            seen.setdefault(sport, set()).add(tuple(tuple(sorted(h.items())) for h in hops))
        elif opcode == ACK_OPCODE and src == h2:
            acks += 1
            echoes.append((n, hops))
    for n, hops in echoes:  # after the data: the capture keeps each direction in its order
        key = tuple(tuple(sorted(h.items())) for h in hops)
        if len(hops) != 2 or not any(key in s for s in seen.values()):
            errors.append(f"frame {n}: ACK echoes records no data frame carried: {hops}")
    if data < 1000 or acks < 1000:
        errors.append(f"{data} data frames and {acks} ACKs captured, expected thousands")
    if bottleneck_queue == 0:
        errors.append("sw0's egress (the 2:1 bottleneck) never reported a queue")
    return records


def check_tshark(capture, lua, records, errors):
    fields = ["frame.number", "hpcc_int.slots", "hpcc_int.hops", "hpcc_int.time_ns",
              "hpcc_int.tx_units", "hpcc_int.qlen_units", "hpcc_int.rate_code"]
    cmd = ["tshark", "-X", "lua_script:" + lua, "-d", "udp.port==4791,infiniband", "-r", capture,
           "-Y", "hpcc_int", "-T", "fields", "-E", "separator=|"]
    for f in fields:
        cmd += ["-e", f]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout.splitlines()
    if len(out) != len(records):
        errors.append(f"tshark shows {len(out)} frames with INT, the capture has {len(records)}")
    for line in out:
        v = dict(zip(fields, line.split("|")))
        n = int(v["frame.number"])
        hops = records.get(n)
        if hops is None:
            errors.append(f"tshark: frame {n} dissected as INT, has no trailer")
            continue
        got = [[int(x) for x in v[f].split(",")] if v[f] else [] for f in fields[3:]]
        want = [[h[k] for h in hops] for k in ("time", "tx", "qlen", "rate")]
        if int(v["hpcc_int.hops"]) != len(hops) or got != want:
            errors.append(f"tshark: frame {n}: {line}, expected {want}")


def check_without_int(capture, errors):
    for n, frame in enumerate(pcapng_frames(capture), 1):
        r = roce(frame)
        if r is None:
            continue
        ip = r[0]
        if icrc(ip[:-4]) != struct.unpack_from("<I", ip, len(ip) - 4)[0]:
            errors.append(f"dcqcn frame {n}: does not end with its ICRC (a trailer?)")
            return


def main():
    rocetb, lua = sys.argv[1], sys.argv[2]
    errors = []
    with tempfile.TemporaryDirectory() as tmp:
        capture = run(rocetb, tmp, "hpcc")
        records = check_hpcc(capture, errors)
        check_tshark(capture, lua, records, errors)
        check_without_int(run(rocetb, tmp, "dcqcn"), errors)
    for e in errors[:40]:
        print(e)
    print(f"{len(errors)} errors")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
