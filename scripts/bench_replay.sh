#!/usr/bin/env bash
# `rocetb replay --to net_null0 --top-speed` (a capture of 1,082-byte RoCEv2 frames replayed
# from memory, order kept, one lcore) beside `dpdk-testpmd --forward-mode=txonly` (frames of
# the same length from its mempool) on net_null, the same lcore and burst (32), alternating
# the two ROUNDS times in one invocation; prints each one's median, min and max frames/s and
# the ratio of the medians; then the replay's timing error (p50, p99, p99.9, max) at
# --rate 10Gbps and --rate 100Gbps.
#
# Usage: scripts/bench_replay.sh [ROUNDS (3)] [SECONDS per run (2)]
# Environment: ROCETB_BUILD (default build/), LCORE (default 1), FRAMES (frames in the
#   capture, default 4096), CAPTURE (replay this file instead of building one).
# Runs under `chrt -f 10` (a real-time priority, so the lcore keeps its core) when allowed.
# The kernel throttles real-time threads that spin: by default they get 950 ms of every
# second (/proc/sys/kernel/sched_rt_runtime_us), then wait 50 ms. Frames due in that pause
# are up to 50 ms late, which is the machine's doing: the timing-error runs last
# RATE_SECONDS (default 0.4 s, below the 950 ms budget) so that they measure the replay.
# Not part of the test suite (it measures).
set -euo pipefail
cd "$(dirname "$0")/.."

ROUNDS=${1:-3}
SECS=${2:-2}
LCORE=${LCORE:-1}
FRAMES=${FRAMES:-4096}
RATE_SECONDS=${RATE_SECONDS:-0.4}
BUILD=${ROCETB_BUILD:-build}
ROCETB="$BUILD/apps/rocetb"
WORK=$(mktemp -d /tmp/bench_replay.XXXXXX)
TP_PID=""

die() { echo "bench_replay: $*" >&2; exit 2; }
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
build_rocetb "$BUILD"
RT=()
if command -v chrt >/dev/null && chrt -f 10 true 2>/dev/null; then RT=(chrt -f 10); fi

# The capture: RDMA WRITE MIDDLE frames with 1,024-byte payloads (1,082 bytes, valid ICRCs),
# written by the source of `rocetb bench switch` (lib/bench/source_capture.h).
if [ -z "${CAPTURE:-}" ]; then
  CAPTURE="$WORK/roce_1082.pcap"
  "$ROCETB" bench switch --frames "$FRAMES" --payload 1024 --seconds 10ms --keep-capture "$CAPTURE" \
    --json > /dev/null 2> "$WORK/capture.err" || die "building the capture failed: $(cat "$WORK/capture.err")"
fi
[ -r "$CAPTURE" ] || die "capture '$CAPTURE' is not readable"

# rocetb replay ... --json: prints the value at the JSON path given (python expression on r).
replay_json() {
  local expr=$1; shift
  "${RT[@]}" "$ROCETB" replay "$CAPTURE" --to net_null0 --lcore "$LCORE" --json "$@" \
    > "$WORK/replay.json" 2> "$WORK/replay.err" || die "rocetb replay $* failed: $(cat "$WORK/replay.err")"
  /usr/bin/python3 -c "import json, sys; r = json.load(open(sys.argv[1])); print($expr)" "$WORK/replay.json"
}
frames_in_capture=$(replay_json 'r["capture"]["frames"]' --top-speed)
frame_bytes=$(replay_json 'round(r["capture"]["bytes"] / r["capture"]["frames"])' --top-speed)
# Passes that last about $2 seconds at $1 frames/s (at least one).
loops_for() { awk -v s="$2" -v fps="$1" -v n="$frames_in_capture" 'BEGIN { l = int(s * fps / n); print (l < 1 ? 1 : l) }'; }

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

# testpmd txonly into net_null on $LCORE (main lcore 0 only reads commands), as
# scripts/bench_vs_testpmd.sh runs it: "show port stats 0" after a 1 s warm-up and SECS
# later; prints the second Tx-pps.
testpmd_pps() {
  local cmd=(dpdk-testpmd -l "0,$LCORE" --no-huge -m 1024 --no-pci --no-telemetry
             --file-prefix "bench-replay-tp-$$" --vdev net_null0 --
             -i --forward-mode=txonly --nb-cores=1 --burst=32 --total-num-mbufs=9214
             "--txpkts=$frame_bytes")
  rm -f "$WORK/in"
  mkfifo "$WORK/in"
  timeout -s INT $((SECS + 150)) stdbuf -o0 "${RT[@]}" "${cmd[@]}" < "$WORK/in" > "$WORK/testpmd.log" 2>&1 &
  TP_PID=$!
  exec 3> "$WORK/in"
  wait_for "testpmd>" 1
  echo "start" >&3
  sleep 1
  echo "show port stats 0" >&3
  wait_for "Tx-pps" 1
  sleep "$SECS"
  echo "show port stats 0" >&3
  wait_for "Tx-pps" 2
  printf 'stop\nquit\n' >&3
  exec 3>&-
  wait "$TP_PID" || true
  TP_PID=""
  local pps
  pps=$(grep "Tx-pps" "$WORK/testpmd.log" | sed -n '2s/.*Tx-pps: *\([0-9]*\).*/\1/p')
  [ -n "$pps" ] || die "no Tx-pps in testpmd's output: $(tail -5 "$WORK/testpmd.log")"
  echo "$pps"
}

# median, min, max of the numbers on stdin, in millions
stats() { sort -n | awk '{ v[NR] = $1 } END { m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2;
                                             printf "%.3f %.3f %.3f\n", m / 1e6, v[1] / 1e6, v[NR] / 1e6 }'; }

loops=$(loops_for 50e6 "$SECS")
: > "$WORK/rocetb"; : > "$WORK/testpmd"
for round in $(seq "$ROUNDS"); do
  fps=$(replay_json 'r["sent"]["frames_per_s"]' --top-speed --loop "$loops")
  echo "$fps" >> "$WORK/rocetb"
  pps=$(testpmd_pps)
  echo "$pps" >> "$WORK/testpmd"
  printf 'round %d  rocetb replay %8.3f Mframes/s   testpmd txonly %8.3f Mframes/s\n' "$round" \
    "$(awk -v v="$fps" 'BEGIN { print v / 1e6 }')" "$(awk -v v="$pps" 'BEGIN { print v / 1e6 }')"
done
read -r rm rmin rmax < <(stats < "$WORK/rocetb")
read -r tm tmin tmax < <(stats < "$WORK/testpmd")

echo
echo "$(nproc) CPUs: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'); load $(cut -d' ' -f1-3 /proc/loadavg); ${RT[*]:-no chrt}"
echo "capture: $frames_in_capture frames of $frame_bytes bytes; lcore $LCORE; burst 32"
printf '%-28s %8s %8s %8s\n' "Mframes/s" median min max
printf '%-28s %8s %8s %8s\n' "rocetb replay --top-speed" "$rm" "$rmin" "$rmax"
printf '%-28s %8s %8s %8s\n' "testpmd txonly" "$tm" "$tmin" "$tmax"
printf 'ratio (medians) %.3f\n' "$(awk -v a="$rm" -v b="$tm" 'BEGIN { print a / b }')"

echo
echo "timing error, runs of $RATE_SECONDS s:"
printf '%-10s %10s %10s %10s %10s %10s %12s\n' rate frames "p50 ns" "p99 ns" "p99.9 ns" "max ns" "wire Gb/s"
for rate in 10Gbps 100Gbps; do
  fps=$(awk -v r="${rate%Gbps}" -v b="$frame_bytes" 'BEGIN { print r * 1e9 / ((b + 24) * 8) }')
  line=$(replay_json '"%d %.0f %.0f %.0f %.0f %.2f" % (r["timing_error"]["frames"], r["timing_error"]["p50_ns"], r["timing_error"]["p99_ns"], r["timing_error"]["p999_ns"], r["timing_error"]["max_ns"], r["sent"]["wire_gbps"])' \
    --rate "$rate" --loop "$(loops_for "$fps" "$RATE_SECONDS")")
  printf '%-10s %10s %10s %10s %10s %10s %12s\n' "$rate" $line
done
