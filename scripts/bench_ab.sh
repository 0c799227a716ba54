#!/usr/bin/env bash
# Compares Google Benchmark binaries side by side on a shared, noisy machine: runs each
# binary in turn, ROUNDS times (3 repetitions of 0.15 s each per run), and prints, per
# benchmark and binary, the minimum, lower quartile and median CPU time of all samples.
# A busy phase then slows every binary alike instead of whichever ran during it.
#   usage: scripts/bench_ab.sh ROUNDS FILTER BINARY...
#   e.g.   scripts/bench_ab.sh 8 'Pacer.*/(1|1000000)$' old/cc_bench build/tests/cc/cc_bench
set -euo pipefail
if [ $# -lt 3 ]; then
  echo "usage: $0 ROUNDS FILTER BINARY..." >&2
  exit 2
fi
rounds=$1 filter=$2
shift 2
case $rounds in
  '' | *[!0-9]* | 0) echo "bench_ab: ROUNDS = '$rounds' is invalid: expected a whole number >= 1" >&2
                     exit 2 ;;
esac
for bin in "$@"; do
  [ -x "$bin" ] || { echo "bench_ab: $bin is not an executable benchmark program" >&2; exit 2; }
done
samples=$(mktemp)
trap 'rm -f "$samples"' EXIT
for _ in $(seq "$rounds"); do
  for bin in "$@"; do
    "$bin" --benchmark_filter="$filter" --benchmark_min_time=0.15 --benchmark_repetitions=3 \
        --benchmark_format=csv 2>/dev/null |
      awk -F, -v bin="$bin" '$1 ~ /^"/ && $1 !~ /_(mean|median|stddev|cv)"$/ { print bin "," $1 "," $4 }' \
      >> "$samples"
  done
done
if [ ! -s "$samples" ]; then
  echo "bench_ab: no benchmark of $* matched the filter '$filter'" >&2
  exit 2
fi
/usr/bin/python3 - "$samples" <<'PY'
import collections, statistics, sys
runs = collections.defaultdict(list)
for line in open(sys.argv[1]):
    binary, name, cpu = line.rstrip("\n").rsplit(",", 2)
    runs[(name.strip('"'), binary)].append(float(cpu))
print(f"{'benchmark':40s} {'binary':40s} {'min':>9s} {'q1':>9s} {'median':>9s}  ns (samples)")
for (name, binary), v in runs.items():
    v.sort()
    print(f"{name:40s} {binary[-40:]:40s} {v[0]:9.1f} {v[len(v) // 4]:9.1f} {statistics.median(v):9.1f}  ({len(v)})")
PY
