#!/bin/sh
# Compiles the capture reader + analyzer libFuzzer target with clang and runs it for a
# bounded number of inputs (a meson test when clang++ exists).
#   run_capture_fuzz.sh SOURCE_ROOT WORK_DIR [RUNS]
set -eu
src=$1
work=$2
runs=${3:-100000}
rm -rf "$work/corpus"
mkdir -p "$work/corpus"
# The seeds are the reference captures beside the repository: without them, skipped (77).
captures="${ROCETB_SHARED:-$src/../shared}/captures"
if [ ! -d "$captures" ]; then
  echo "skipped: the reference captures folder $captures is missing: set ROCETB_SHARED to the shared folder"
  exit 77
fi
flags="-std=c++20 -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined"
# DPDK headers as system includes, as in the meson build.
dpdk=$(pkg-config --cflags libdpdk | sed 's/-I/-isystem /g')
a="$src/lib/analyze"
w="$src/lib/wire"
clang++ $flags $dpdk -I"$src/lib" -I"$src" \
  "$src/tests/analyze/capture_fuzz.cc" \
  "$a/analyze_capture.cc" "$a/analyzer.cc" "$a/dissect.cc" "$a/dissected.cc" \
  "$a/icrc_ipv6.cc" "$a/link_layer.cc" "$a/malformed.cc" "$a/message_tracker.cc" \
  "$a/pfc_stats.cc" "$a/qp_stats.cc" "$a/timeline.cc" \
  "$src/pcap/capture_reader.cc" "$src/pcap/pcap_records.cc" "$src/pcap/link_type.cc" \
  "$w/opcode.cc" "$w/icrc.cc" "$w/icrc_in_place.cc" "$w/crc32_combine.cc" "$w/crc_path.cc" \
  "$w/ipv4.cc" \
  $(pkg-config --libs libdpdk libpcap fmt libisal) -o "$work/capture_fuzz"
# Seeds: every reference capture whole (option byte 0), the same as pcapng when editcap
# is installed, and each of their frames under every link type (odd option bytes).
/usr/bin/python3 - "$src" "$work/corpus" <<'PY'
import os, shutil, struct, subprocess, sys
root = os.environ.get("ROCETB_SHARED", os.path.join(sys.argv[1], "..", "shared"))
out = sys.argv[2]
n = 0
def seed(data):
    global n
    open(os.path.join(out, f"seed{n}"), "wb").write(data)
    n += 1
caps = os.path.join(root, "captures")
for name in sorted(os.listdir(caps)):
    if not name.endswith(".pcap"):
        continue
    path = os.path.join(caps, name)
    data = open(path, "rb").read()
    seed(b"\0" + data[:65536])
    if shutil.which("editcap"):
        ng = os.path.join(out, "tmp.pcapng")
        subprocess.run(["editcap", "-F", "pcapng", path, ng], check=True)
        seed(b"\0" + open(ng, "rb").read()[:65536])
        os.remove(ng)
    off = 24
    while off + 16 <= len(data) and n < 400:
        incl = struct.unpack_from("<I", data, off + 8)[0]
        frame = data[off + 16:off + 16 + incl]
        for sel in (1, 0x81, 7):
            seed(bytes([sel]) + frame)
        off += 16 + incl
PY
"$work/capture_fuzz" -runs="$runs" -seed=1 -max_len=4096 -print_final_stats=1 "$work/corpus" 2>&1 | tail -15
