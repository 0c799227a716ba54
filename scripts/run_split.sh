#!/usr/bin/env bash
# Runs a realtime scenario split across processes ([realtime.process.<role>] in the
# scenario; scenarios/README.md), one `rocetb run --process ROLE` each, and merges their
# results into one folder (`rocetb merge`: OUT/summary.json, flows.csv, queues.csv, and each
# process's run.ROLE.json and effective.ROLE.json beside its folder OUT/ROLE).
#
#   ./scripts/run_split.sh [--netns] [--capture ROLE:IFACE] SCENARIO OUT [rocetb run args...]
#
# --netns      every role runs in a network namespace of its own (created here, named
#              rtb<pid>-<role>); each cable between two af_packet ports becomes a veth pair
#              with its ends in the two namespaces, named as the ports' iface= say. Root.
# --capture    tshark records interface IFACE in ROLE's namespace into OUT/capture.pcapng.
#
# Without --netns the processes share the host's network (memif sockets). Processes that
# serve memif sockets start first; every process is told the same start instant
# (realtime.start_at_unix_ms) so that they begin together. RTB_RUN_ID (default: this
# script's pid) is exported for ${RTB_RUN_ID} in device strings. Namespaces, veths and
# processes are removed on exit, also on failure or Ctrl-C. Exit status: 0 when every
# process and the merge succeeded.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
rocetb="${ROCETB:-$root/build/apps/rocetb}"
netns=0
capture=""
while [ $# -gt 0 ]; do
  case "$1" in
    --netns) netns=1; shift ;;
    --capture) capture="$2"; shift 2 ;;
    *) break ;;
  esac
done
if [ $# -lt 2 ]; then
  echo "usage: $0 [--netns] [--capture ROLE:IFACE] SCENARIO OUT [rocetb run args...]" >&2
  exit 2
fi
scenario="$1"
out="$2"
shift 2
[ -x "$rocetb" ] || { echo "run_split: $rocetb not found: run ./scripts/build.sh first" >&2; exit 2; }
export RTB_RUN_ID="${RTB_RUN_ID:-$$}"

mapfile -t plan < <(/usr/bin/python3 "$here/split_plan.py" "$scenario")
roles=() sockets=() veths=()
for line in "${plan[@]}"; do
  read -r kind rest <<<"$line"
  case "$kind" in
    role) roles+=("$rest") ;;
    socket) sockets+=("$rest") ;;
    veth) veths+=("$rest") ;;
  esac
done

pids=()
namespaces=()
capture_pid=""
cleanup() {
  for p in "${pids[@]}" $capture_pid; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  for ns in "${namespaces[@]}"; do ip netns delete "$ns" 2>/dev/null || true; done
}
trap cleanup EXIT INT TERM

ns_of() { echo "rtb${RTB_RUN_ID}-$1"; }
in_ns() {  # ROLE COMMAND...: becomes COMMAND in the role's namespace (or here), so that
           # `in_ns ... &` leaves the command's own pid in $!
  local role="$1"
  shift
  if [ "$netns" = 1 ]; then exec ip netns exec "$(ns_of "$role")" "$@"; else exec "$@"; fi
}

if [ "$netns" = 1 ]; then
  for role in "${roles[@]}"; do
    ip netns add "$(ns_of "$role")"
    namespaces+=("$(ns_of "$role")")
    ip -n "$(ns_of "$role")" link set lo up
  done
  for v in "${veths[@]}"; do
    read -r ra ia rb ib <<<"$v"
    ip link add "$ia" netns "$(ns_of "$ra")" type veth peer name "$ib" netns "$(ns_of "$rb")"
    for end in "$ra $ia" "$rb $ib"; do
      read -r r i <<<"$end"
      # No IPv6 chatter (router solicitations) on the cables: only rocetb's frames.
      ip netns exec "$(ns_of "$r")" sysctl -qw "net.ipv6.conf.$i.disable_ipv6=1"
      ip -n "$(ns_of "$r")" link set "$i" mtu 1500 up
    done
  done
fi

mkdir -p "$out"
if [ -n "$capture" ]; then
  in_ns "${capture%%:*}" tshark -q -i "${capture#*:}" -w "$out/capture.pcapng" >"$out/tshark.log" 2>&1 &
  capture_pid=$!
  sleep 2  # tshark opens the interface
fi

start_ms=$(( $(date +%s%3N) + ${RTB_START_DELAY_MS:-12000} ))
started=0
for role in "${roles[@]}"; do
  in_ns "$role" "$rocetb" run "$scenario" --process "$role" --out "$out/$role" \
    --set "realtime.start_at_unix_ms=$start_ms" "$@" >"$out/$role.log" 2>&1 &
  pids+=($!)
  started=$((started + 1))
  # Clients need the servers' memif sockets: wait for them after the first process.
  if [ "$started" = 1 ] && [ ${#sockets[@]} -gt 0 ]; then
    for s in "${sockets[@]}"; do
      for _ in $(seq 100); do
        ss -xl | grep -q -- "$s" && break
        sleep 0.1
      done
    done
  fi
done

status=0
for i in "${!pids[@]}"; do
  if ! wait "${pids[$i]}"; then
    echo "run_split: process ${roles[$i]} failed; its output:" >&2
    tail -5 "$out/${roles[$i]}.log" >&2
    status=1
  fi
done
pids=()
if [ -n "$capture_pid" ]; then
  sleep 1
  kill -INT "$capture_pid" 2>/dev/null || true
  wait "$capture_pid" 2>/dev/null || true
  capture_pid=""
fi
[ "$status" = 0 ] || exit 1

dirs=()
for role in "${roles[@]}"; do dirs+=("$out/$role"); done
# rocetb merge writes into a folder of its own; its files then join the parts in OUT.
rm -rf "$out/.merged"
"$rocetb" merge "${dirs[@]}" --out "$out/.merged" | grep -v '^results: '
mv "$out/.merged"/* "$out"/
rmdir "$out/.merged"
echo "results: $out"
