#!/usr/bin/env bash
# rocetb's virtual time beside the HPCC ns-3 simulator (alibaba-edu/High-Precision-Congestion-
# Control, the peer in ../shared/peers/hpcc-ns3) on the simulator's own two DCQCN incasts,
# alternating the two ROUNDS times in one invocation; prints each one's wall time (median,
# min, max) and max RSS, the ratio of the medians, and both simulators' results side by side.
#
#   a  2:1 incast at 40 Gb/s, 1 simulated second    scenarios/hpcc_match_incast2_40g.toml
#   b  8:1 incast at 100 Gb/s, 10 simulated ms      scenarios/hpcc_match_incast8_100g.toml
#
# The rocetb scenarios match the simulator's config.txt (run.py --cc dcqcn) as far as the
# models allow; each one's header lists what cannot match, and cc_algos/dcqcn/README.md
# ("dcqcn against the HPCC simulator") explains the differences in the results.
# The simulator is timed as its stock `third`; its results come from one extra run of
# `third_stats` (the same program with end-of-run counters). rocetb is timed as
# `rocetb run SCENARIO --no-plots --quiet` (it still writes summary.json, the CSVs and the
# report); its results are that run's summary.json (virtual time is deterministic).
#
# Usage: scripts/bench_vs_ns3.sh [ROUNDS (3)]
# Environment:
#   CASES        which cases, default "a b"
#   HPCC_DEST    where the simulator is (or gets) built, outside this repository
#                (default $HOME/hpcc); built once by the peer's build.sh (about 4 minutes)
#   ROCETB_SHARED  the shared folder (default ../shared beside this repository)
#   ROCETB_BUILD the rocetb build directory (default build/, built by scripts/build.sh:
#                release, LTO and a trained profile, the build users run)
#   ROCETB_BIN   a rocetb binary to time as it is (no build; e.g. another clone's)
# Timings on a shared machine vary by tens of percent; alternating the two in one
# invocation is what makes the ratio meaningful. Not part of the test suite (it measures).
set -euo pipefail
cd "$(dirname "$0")/.."
REPO=$PWD

ROUNDS=${1:-3}
CASES=${CASES:-a b}
SHARED=${ROCETB_SHARED:-$REPO/../shared}
PEER=$SHARED/peers/hpcc-ns3
HPCC_DEST=${HPCC_DEST:-$HOME/hpcc}
BUILD=${ROCETB_BUILD:-build}
ROCETB="$REPO/$BUILD/apps/rocetb"
[[ "$BUILD" = /* ]] && ROCETB="$BUILD/apps/rocetb"
WORK=$(mktemp -d /tmp/bench_vs_ns3.XXXXXX)
trap 'rm -rf "$WORK"' EXIT

die() { echo "bench_vs_ns3: $*" >&2; exit 2; }

[[ "$ROUNDS" =~ ^[1-9][0-9]*$ ]] || die "ROUNDS '$ROUNDS': expected a whole number of rounds >= 1"
[ -f "$PEER/build.sh" ] || die "$PEER/build.sh is missing: set ROCETB_SHARED to the shared folder that holds peers/hpcc-ns3"
[ -x /usr/bin/time ] || die "/usr/bin/time is missing: apt-get install time"
for c in $CASES; do
  case $c in a|b) ;; *) die "CASES '$CASES': expected 'a', 'b' or 'a b'" ;; esac
done

# rocetb, as users build it.
# shellcheck source=lib/build_rocetb.sh
. scripts/lib/build_rocetb.sh
if [ -n "${ROCETB_BIN:-}" ]; then
  [ -x "$ROCETB_BIN" ] || die "ROCETB_BIN '$ROCETB_BIN': expected an executable rocetb binary"
  ROCETB=$(realpath "$ROCETB_BIN")
else
  build_rocetb "$BUILD"
fi

# The simulator, built once outside the repository.
SIM=$HPCC_DEST/simulation
if [ ! -x "$SIM/build/scratch/third" ] || [ ! -x "$SIM/build/scratch/third_stats" ]; then
  echo "bench_vs_ns3: building the HPCC simulator into $HPCC_DEST (once, about 4 minutes)" >&2
  DEST=$HPCC_DEST "$PEER/build.sh" > "$WORK/peer-build.log" 2>&1 ||
    die "the simulator's build failed; last lines: $(tail -3 "$WORK/peer-build.log" | tr '\n' ' ')"
fi
export LD_LIBRARY_PATH=$SIM/build${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}

declare -A SCEN=([a]=scenarios/hpcc_match_incast2_40g.toml [b]=scenarios/hpcc_match_incast8_100g.toml)
declare -A PEERDIR=([a]=a_incast2_40g [b]=b_incast8_100g)
declare -A WARMUP=([a]=0.1 [b]=0.001)   # the measurement window's start, as the scenarios' warm-up
declare -A TITLE=([a]="(a) 2:1 @ 40 Gb/s, 1 s" [b]="(b) 8:1 @ 100 Gb/s, 10 ms")

# timed DIR CMD...: runs CMD in DIR under /usr/bin/time -v; prints "wall_s max_rss_kib".
timed() {
  local dir=$1; shift
  ( cd "$dir" && /usr/bin/time -v -o time.txt "$@" > stdout.txt 2> stderr.txt ) ||
    die "'$*' in $dir failed: $(tail -3 "$dir/stderr.txt" | tr '\n' ' ')"
  awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, a, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + a[i]; w = s }
              /Maximum resident set size/ { r = $2 } END { print w, r }' "$dir/time.txt"
}

# peer_dir CASE NAME: a fresh folder with the simulator's inputs for CASE.
peer_dir() {
  local d=$WORK/$1/$2
  rm -rf "$d"; mkdir -p "$d"
  cp "$PEER/scenarios/${PEERDIR[$1]}"/{config.txt,topology.txt,flow.txt,trace.txt} "$d/"
  echo "$d"
}

# median min max of the numbers on stdin
stats() { sort -g | awk '{ v[NR] = $1 } END { m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2;
                                             printf "%.3f %.3f %.3f\n", m, v[1], v[NR] }'; }

: > "$WORK/table"
for c in $CASES; do
  mkdir -p "$WORK/$c"
  : > "$WORK/$c/rocetb.wall"; : > "$WORK/$c/ns3.wall"; : > "$WORK/$c/rocetb.rss"; : > "$WORK/$c/ns3.rss"
  for round in $(seq "$ROUNDS"); do
    rd=$WORK/$c/rocetb-$round; mkdir -p "$rd"
    read -r rw rr < <(timed "$rd" "$ROCETB" run "$REPO/${SCEN[$c]}" --out "$rd/out" --no-plots --quiet)
    nd=$(peer_dir "$c" "ns3-$round")
    read -r nw nr < <(timed "$nd" "$SIM/build/scratch/third" config.txt)
    echo "$rw" >> "$WORK/$c/rocetb.wall"; echo "$rr" >> "$WORK/$c/rocetb.rss"
    echo "$nw" >> "$WORK/$c/ns3.wall"; echo "$nr" >> "$WORK/$c/ns3.rss"
    printf 'round %d %s: rocetb %7.2f s %7.1f MiB   ns-3 %7.2f s %7.1f MiB\n' "$round" "$c" \
      "$rw" "$(awk -v k="$rr" 'BEGIN { print k / 1024 }')" "$nw" "$(awk -v k="$nr" 'BEGIN { print k / 1024 }')"
  done
  sd=$(peer_dir "$c" stats)
  STATS_WARMUP_S=${WARMUP[$c]} STATS_OUT=stats.txt timed "$sd" "$SIM/build/scratch/third_stats" config.txt >/dev/null
  read -r rm rmin rmax < <(stats < "$WORK/$c/rocetb.wall")
  read -r nm nmin nmax < <(stats < "$WORK/$c/ns3.wall")
  read -r rrss _ < <(sort -n "$WORK/$c/rocetb.rss" | tail -1)
  read -r nrss _ < <(sort -n "$WORK/$c/ns3.rss" | tail -1)
  printf '%-28s %8.2f %8.2f %8.2f %7.1f   %8.2f %8.2f %8.2f %7.1f   %6.2fx  %5.2fx\n' "${TITLE[$c]}" \
    "$rm" "$rmin" "$rmax" "$(awk -v k="$rrss" 'BEGIN { print k / 1024 }')" \
    "$nm" "$nmin" "$nmax" "$(awk -v k="$nrss" 'BEGIN { print k / 1024 }')" \
    "$(awk -v a="$nm" -v b="$rm" 'BEGIN { print a / b }')" \
    "$(awk -v a="$rrss" -v b="$nrss" 'BEGIN { print a / b }')" >> "$WORK/table"
  /usr/bin/python3 "$REPO/scripts/ns3_side_by_side.py" "${TITLE[$c]}" "$WORK/$c/rocetb-$ROUNDS/out" \
    "$sd/stats.txt" >> "$WORK/results"
done

echo
echo "$(nproc) CPUs: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'); load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "rocetb: $("$ROCETB" --version | head -1); ns-3: $SIM/build/scratch/third; $ROUNDS rounds, alternating"
printf '%-28s %8s %8s %8s %7s   %8s %8s %8s %7s   %7s  %6s\n' "" "rocetb" "" "" "" "ns-3" "" "" "" "speed" "RSS"
printf '%-28s %8s %8s %8s %7s   %8s %8s %8s %7s   %7s  %6s\n' case "wall s" min max "MiB" "wall s" min max "MiB" "ns3/rtb" "rtb/ns3"
cat "$WORK/table"
echo
cat "$WORK/results"
