#!/usr/bin/env bash
# rocetb's realtime datapath beside dpdk-testpmd on the same virtual device, the same lcore,
# the same frame size, burst (32), mbuf count and size, alternating the two ROUNDS times in one
# invocation; prints each one's median, min and max frames/s and the ratio of the medians.
#
#   tx   rocetb bench tx  (hosts with DCQCN, QPS QPs, RDMA WRITE frames with their ICRC)
#        beside  dpdk-testpmd --forward-mode=txonly --txpkts=<the same frame length>
#        both into net_null (tx frees every frame)
#   switch  rocetb bench switch (a capture of RDMA WRITE frames replayed by net_pcap with
#        infinite_rx, through one switch stage: classify, MMU, WRED, PFC, scheduler)
#        beside  dpdk-testpmd --forward-mode=io from the same net_pcap source to net_null
#   rx   rocetb bench rx (a capture of RDMA WRITE frames of QPS QPs replayed by net_pcap with
#        infinite_rx into one host's receive path: PSNs renumbered, parse, full ICRC check,
#        responders) beside the same testpmd io forwarding of that capture
#
# Usage: scripts/bench_vs_testpmd.sh [ROUNDS (3)] [SECONDS per run (2)]
# Environment: ROCETB_BUILD (default build/), ROCETB_BIN (a rocetb binary to time as it
#   is, no build; e.g. another clone's), LCORE (default 1), QPS (default 1000),
#   PAYLOAD (default 1024: 1082-byte frames), MODES (default "tx rx switch").
# Timings on a shared machine vary by a factor; alternating the tools in one invocation
# is what makes the ratio meaningful. Not part of the test suite (it measures).
set -euo pipefail
cd "$(dirname "$0")/.."

ROUNDS=${1:-3}
SECS=${2:-2}
LCORE=${LCORE:-1}
QPS=${QPS:-1000}
PAYLOAD=${PAYLOAD:-1024}
MODES=${MODES:-tx rx switch}
BUILD=${ROCETB_BUILD:-build}
ROCETB="$BUILD/apps/rocetb"
WORK=$(mktemp -d /tmp/bench_vs_testpmd.XXXXXX)
TP_PID=""

die() { echo "bench_vs_testpmd: $*" >&2; exit 2; }
cleanup() {
  if [ -n "$TP_PID" ] && kill -0 "$TP_PID" 2>/dev/null; then kill "$TP_PID" 2>/dev/null || true; fi
  rm -rf "$WORK"
}
trap cleanup EXIT

[[ "$ROUNDS" =~ ^[1-9][0-9]*$ ]] || die "ROUNDS '$ROUNDS': expected a whole number of rounds >= 1"
[[ "$SECS" =~ ^[1-9][0-9]*$ ]] || die "SECONDS '$SECS': expected whole seconds >= 1"
command -v dpdk-testpmd >/dev/null || die "dpdk-testpmd is missing: apt-get install dpdk (scripts/install-deps.sh)"
# shellcheck source=lib/build_rocetb.sh
. scripts/lib/build_rocetb.sh
if [ -n "${ROCETB_BIN:-}" ]; then
  [ -x "$ROCETB_BIN" ] || die "ROCETB_BIN '$ROCETB_BIN': expected an executable rocetb binary"
  ROCETB=$(realpath "$ROCETB_BIN")
else
  build_rocetb "$BUILD"
fi

# rocetb bench MODE ... --json: prints frames/s; the frame length goes to $WORK/frame_bytes.
rocetb_fps() {
  local mode=$1 extra=()
  case $mode in
    tx) extra=(--qps "$QPS") ;;
    switch) extra=(--keep-capture "$WORK/source.pcap") ;;
    rx) extra=(--qps "$QPS" --keep-capture "$WORK/source.pcap") ;;
  esac
  "$ROCETB" bench "$mode" --lcores "$LCORE" "${extra[@]}" --payload "$PAYLOAD" --seconds "${SECS}s" --json \
    > "$WORK/rocetb.json" 2> "$WORK/rocetb.err" || die "rocetb bench $mode failed: $(cat "$WORK/rocetb.err")"
  /usr/bin/python3 - "$WORK/rocetb.json" "$WORK/frame_bytes" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
open(sys.argv[2], "w").write("%d\n" % round(r["figures"]["frame_bytes"]))
if not r["valid"]:
    print(r["reason"], file=sys.stderr)
print("%.0f %s" % (r["figures"]["frames_per_s"], "valid" if r["valid"] else "invalid"))
PY
}

# Waits (at most 120 s) until testpmd's log shows `pattern` `count` times.
wait_for() {
  local pattern=$1 count=$2
  for _ in $(seq 1200); do
    [ "$(grep -c -- "$pattern" "$WORK/testpmd.log" || true)" -ge "$count" ] && return 0
    kill -0 "$TP_PID" 2>/dev/null || die "testpmd exited early: $(tail -5 "$WORK/testpmd.log")"
    sleep 0.1
  done
  die "testpmd did not print '$pattern' within 120 s: $(tail -5 "$WORK/testpmd.log")"
}

# testpmd, interactive, forwarding on $LCORE (main lcore 0 only reads commands): start,
# "show port stats PORT" after a 1 s warm-up and again SECS later; prints PORT's second
# Tx-pps (the port frames leave by).
# Arguments: forwarding mode, port, then EAL arguments (the vdevs), "--", testpmd's own.
testpmd_pps() {
  local fwd=$1 port=$2; shift 2
  local eal=() app=()
  while [ $# -gt 0 ] && [ "$1" != -- ]; do eal+=("$1"); shift; done
  [ $# -gt 0 ] && shift
  app=("$@")
  # One segment per frame, as rocetb's pools hold them: a data room of the frame and the
  # headroom (testpmd's default, 2048 B after the headroom, splits or drops larger frames).
  local mbuf_size=$(( $(cat "$WORK/frame_bytes") + 128 ))
  [ "$mbuf_size" -ge 2176 ] || mbuf_size=2176
  local cmd=(dpdk-testpmd -l "0,$LCORE" --no-huge -m 1024 --no-pci --no-telemetry
             --file-prefix "bench-tp-$$" "${eal[@]}" --
             -i "--forward-mode=$fwd" --nb-cores=1 --burst=32 --total-num-mbufs=9214
             "--mbuf-size=$mbuf_size" "${app[@]}")
  rm -f "$WORK/in"
  mkfifo "$WORK/in"
  timeout -s INT $((SECS + 150)) stdbuf -o0 "${cmd[@]}" < "$WORK/in" > "$WORK/testpmd.log" 2>&1 &
  TP_PID=$!
  exec 3> "$WORK/in"
  wait_for "testpmd>" 1
  echo "start" >&3
  sleep 1
  echo "show port stats $port" >&3
  wait_for "Tx-pps" 1
  sleep "$SECS"
  echo "show port stats $port" >&3
  wait_for "Tx-pps" 2
  printf 'stop\nquit\n' >&3
  exec 3>&-
  wait "$TP_PID" || true
  TP_PID=""
  local pps
  pps=$(grep "Tx-pps" "$WORK/testpmd.log" | sed -n '2s/.*Tx-pps: *\([0-9]*\).*/\1/p')
  [ -n "$pps" ] || die "no Tx-pps in testpmd's output: $(tail -5 "$WORK/testpmd.log")"
  [ "$pps" -gt 0 ] || die "testpmd --forward-mode=$fwd sent no frame: $(grep -iE 'error|fail|invalid' "$WORK/testpmd.log" | head -3)"
  echo "$pps"
}

# median, min, max of the numbers on stdin
stats() { sort -n | awk '{ v[NR] = $1 } END { m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2;
                                             printf "%.3f %.3f %.3f\n", m / 1e6, v[1] / 1e6, v[NR] / 1e6 }'; }

declare -A PEER_FWD=([tx]=txonly [rx]=io [switch]=io)
: > "$WORK/table"
for mode in $MODES; do
  [ -n "${PEER_FWD[$mode]:-}" ] || die "mode '$mode': expected one of ${!PEER_FWD[*]}"
  : > "$WORK/$mode.rocetb"; : > "$WORK/$mode.testpmd"; invalid=0
  for round in $(seq "$ROUNDS"); do
    read -r fps validity < <(rocetb_fps "$mode" 2>> "$WORK/invalid")
    echo "$fps" >> "$WORK/$mode.rocetb"
    [ "$validity" = valid ] || invalid=$((invalid + 1))
    frame_bytes=$(cat "$WORK/frame_bytes")
    if [ "$mode" = tx ]; then
      pps=$(testpmd_pps txonly 0 --vdev net_null0 -- "--txpkts=$frame_bytes")
    else  # the capture rocetb just replayed, into net_null (which makes no frames itself)
      pps=$(testpmd_pps io 1 --vdev "net_pcap0,rx_pcap=$WORK/source.pcap,infinite_rx=1" --vdev net_null0,no-rx=1)
    fi
    echo "$pps" >> "$WORK/$mode.testpmd"
    printf 'round %d %-3s rocetb %8.3f Mframes/s (%s)   testpmd %8.3f Mframes/s\n' \
      "$round" "$mode" "$(awk -v v="$fps" 'BEGIN { print v / 1e6 }')" "$validity" \
      "$(awk -v v="$pps" 'BEGIN { print v / 1e6 }')"
  done
  read -r rm rmin rmax < <(stats < "$WORK/$mode.rocetb")
  read -r tm tmin tmax < <(stats < "$WORK/$mode.testpmd")
  ratio=$(awk -v a="$rm" -v b="$tm" 'BEGIN { print a / b }')
  printf '%-6s %6s %5s  %-10s %8s %8s %8s  %-12s %8s %8s %8s  %6.3f  %s\n' "$mode" "$frame_bytes" "$LCORE" \
    "rocetb" "$rm" "$rmin" "$rmax" "testpmd" "$tm" "$tmin" "$tmax" "$ratio" \
    "$([ $invalid -eq 0 ] && echo "" || echo "($invalid rocetb runs invalid, below)")" >> "$WORK/table"
done
echo
echo "$(nproc) CPUs: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'); load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-6s %6s %5s  %-10s %8s %8s %8s  %-12s %8s %8s %8s  %6s\n' mode bytes lcore "" median min max "" median min max ratio
printf '%-6s %6s %5s  %-10s %8s %8s %8s  %-12s %8s %8s %8s  %6s\n' "" "" "" "" "Mfr/s" "" "" "" "Mfr/s" "" "" ""
cat "$WORK/table"
if [ -s "$WORK/invalid" ]; then
  echo
  echo "invalid rocetb runs (their figures are in the table):"
  sed 's/^/  /' "$WORK/invalid"
fi
