#!/bin/sh
# Compiles the libFuzzer parser target with clang and runs it for a bounded number of
# inputs (a meson test when clang++ exists; the full fuzz build is -Dfuzz=true).
#   run_parser_fuzz.sh SOURCE_ROOT WORK_DIR [RUNS]
set -eu
src=$1
work=$2
runs=${3:-200000}
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
clang++ $flags $dpdk -I"$src/lib" -I"$src" \
  "$src/tests/wire/parser_fuzz.cc" \
  "$src/lib/wire/parser.cc" "$src/lib/wire/parse_error.cc" "$src/lib/wire/opcode.cc" \
  "$src/lib/wire/icrc.cc" "$src/lib/wire/icrc_in_place.cc" "$src/lib/wire/crc32_combine.cc" \
  "$src/lib/wire/crc_path.cc" "$src/lib/wire/ipv4.cc" \
  $(pkg-config --libs libdpdk libisal) -o "$work/parser_fuzz"
# Seeds: the reference captures' frames, prefixed with an option byte.
/usr/bin/python3 - "$src" "$work/corpus" <<'PY'
import os, struct, sys
root = os.environ.get("ROCETB_SHARED", os.path.join(sys.argv[1], "..", "shared"))
out = sys.argv[2]
n = 0
for name in ("scapy_roce_reference.pcap", "pfc_reference.pcap", "external_roce_vectors.pcap"):
    data = open(os.path.join(root, "captures", name), "rb").read()
    off = 24
    while off + 16 <= len(data):
        incl = struct.unpack_from("<I", data, off + 8)[0]
        frame = data[off + 16:off + 16 + incl]
        for sel in (0, 2, 6):
            open(os.path.join(out, f"seed{n}"), "wb").write(bytes([sel]) + frame)
            n += 1
        off += 16 + incl
PY
"$work/parser_fuzz" -runs="$runs" -seed=1 -max_len=2048 -print_final_stats=1 "$work/corpus" 2>&1 | tail -15
