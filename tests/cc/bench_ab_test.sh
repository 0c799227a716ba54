#!/usr/bin/env bash
# scripts/bench_ab.sh: a real run on cc_bench reports min / q1 / median per benchmark and
# binary, and bad arguments are refused with a message and exit code 2.
#   usage: bench_ab_test.sh SCRIPT CC_BENCH
set -uo pipefail
script=$1 bench=$2
# shellcheck source=../expect.sh
source "$(dirname "$0")/../expect.sh"
expect "one round, one benchmark" 0 "^BM_StateBytesPerFlow.*cc_bench +[0-9.]+ +[0-9.]+ +[0-9.]+ +\(3\)" \
  -- "$script" 1 StateBytes "$bench"
expect "too few arguments" 2 "usage:" -- "$script" 1 StateBytes
expect "rounds not a number" 2 "ROUNDS = 'x' is invalid" -- "$script" x StateBytes "$bench"
expect "not a program" 2 "/nonexistent is not an executable" -- "$script" 1 StateBytes /nonexistent
expect "nothing matched" 2 "matched the filter 'NoSuchBenchmark'" \
  -- "$script" 1 NoSuchBenchmark "$bench"
exit $((fails > 0))
