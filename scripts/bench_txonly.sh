#!/usr/bin/env bash
# Realtime TX frames/s of one rocetb host stage beside dpdk-testpmd, in one invocation
# (issue 8): "frames per second of one host TX stage into net_null with DCQCN on 1,000 QPs,
# beside dpdk-testpmd --forward-mode=txonly on the same device and core with the same
# frame size".
#
#   1. host_tx_bench (tests/ethport/host_tx_bench.cc): one host, 1,000 QPs under DCQCN,
#      real RoCEv2 frames over a 400 Gb/s WireLink into an EthBridge on net_null0, polled
#      by the realtime scheduler on lcore 1 for SECONDS; frames/s = bridge tx_frames / wall s.
#   2. dpdk-testpmd, interactive, forwarding lcore 1 (main lcore 0 only reads commands),
#      txonly into net_null0 with frames of the size step 1 measured: "start", one
#      "show port stats 0" after a 1 s warm-up, another SECONDS later; testpmd's Tx-pps of
#      the second is the rate over those SECONDS (its own TSC, rte_get_tsc_hz).
#
# Usage: scripts/bench_txonly.sh [seconds (5)] [qps (1000)]
# Environment: ROCETB_BUILD (build folder, default build/; built with scripts/build.sh
# when it has no build.ninja, else just this target with ninja), LCORE (default 1).
# Timings on a shared machine are not meaningful beyond a factor: both tools print whether
# they had the core (host_tx_bench's stall line); run it on an idle machine.
set -euo pipefail
cd "$(dirname "$0")/.."

SECONDS_RUN=${1:-5}
QPS=${2:-1000}
LCORE=${LCORE:-1}
BUILD=${ROCETB_BUILD:-build}
BENCH="$BUILD/tests/ethport/host_tx_bench"
WORK=$(mktemp -d /tmp/bench_txonly.XXXXXX)
TP_PID=""

cleanup() {
  if [ -n "$TP_PID" ] && kill -0 "$TP_PID" 2>/dev/null; then kill "$TP_PID" 2>/dev/null || true; fi
  rm -rf "$WORK"
}
trap cleanup EXIT

die() { echo "bench_txonly: $*" >&2; exit 1; }

build() {
  if [ -f "$BUILD/build.ninja" ]; then
    ninja -C "$BUILD" tests/ethport/host_tx_bench >/dev/null
  elif [ "$BUILD" = build ]; then
    ./scripts/build.sh >/dev/null
  else
    die "$BUILD has no build.ninja: run 'meson setup $BUILD' first, or leave ROCETB_BUILD unset"
  fi
  [ -x "$BENCH" ] || die "$BENCH was not built (is the tests option off? meson configure -Dtests=true)"
}

# Prints the host bench's output and leaves "frame_bytes frames_per_s" in $WORK/host.
run_host() {
  echo "== host_tx_bench --lcore $LCORE --qps $QPS --seconds $SECONDS_RUN --mtu 1024"
  "$BENCH" --lcore "$LCORE" --qps "$QPS" --seconds "$SECONDS_RUN" --mtu 1024 | tee "$WORK/host.log"
  sed -n 's/^result .*frame_bytes=\([0-9]*\) .*frames_per_s=\([0-9]*\).*/\1 \2/p' \
    "$WORK/host.log" > "$WORK/host"
  [ -s "$WORK/host" ] || die "host_tx_bench printed no result line (see above)"
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

# testpmd txonly on the forwarding lcore $LCORE; leaves its Tx-pps in $WORK/testpmd.
run_testpmd() {
  local frame_bytes=$1
  command -v dpdk-testpmd >/dev/null || die "dpdk-testpmd is missing: apt-get install dpdk (scripts/install-deps.sh)"
  local cmd=(dpdk-testpmd -l "0,$LCORE" --no-huge -m 1024 --no-pci --no-telemetry
             --file-prefix "bench-tp-$$" --vdev net_null0 --
             -i --forward-mode=txonly "--txpkts=$frame_bytes" --nb-cores=1 --total-num-mbufs=8192)
  echo "== ${cmd[*]}  (start; show port stats 0 after 1 s and again $SECONDS_RUN s later)"
  mkfifo "$WORK/in"
  # stdbuf: testpmd's printf output reaches the log as it is printed, not at exit.
  timeout -s INT $((SECONDS_RUN + 150)) stdbuf -o0 "${cmd[@]}" < "$WORK/in" > "$WORK/testpmd.log" 2>&1 &
  TP_PID=$!
  exec 3> "$WORK/in"
  wait_for "testpmd>" 1
  echo "start" >&3
  sleep 1
  echo "show port stats 0" >&3
  wait_for "Tx-pps" 1
  sleep "$SECONDS_RUN"
  echo "show port stats 0" >&3
  wait_for "Tx-pps" 2
  printf 'stop\nquit\n' >&3
  exec 3>&-
  wait "$TP_PID" || true
  TP_PID=""
  grep -E "forwarding lcore|Logical Core|packet len|Tx-pps|TX-packets" "$WORK/testpmd.log" | tail -6
  grep "Tx-pps" "$WORK/testpmd.log" | sed -n '2s/.*Tx-pps: *\([0-9]*\).*/\1/p' > "$WORK/testpmd"
  [ -s "$WORK/testpmd" ] || die "no Tx-pps in testpmd's output: $(tail -5 "$WORK/testpmd.log")"
}

build
run_host
read -r FRAME_BYTES HOST_FPS < "$WORK/host"
run_testpmd "$FRAME_BYTES"
read -r TP_PPS < "$WORK/testpmd"

row() { awk -v t="$1" -v b="$FRAME_BYTES" -v c="$LCORE" -v f="$2" \
  'BEGIN { printf "%-40s %11s %5s %10.3f\n", t, b, c, f / 1e6 }'; }
echo
printf '%-40s %11s %5s %10s\n' tool "frame bytes" core Mframes/s
row "rocetb host (DCQCN, $QPS QPs) + bridge" "$HOST_FPS"
row "dpdk-testpmd --forward-mode=txonly" "$TP_PPS"
