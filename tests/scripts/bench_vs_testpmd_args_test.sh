#!/usr/bin/env bash
# scripts/bench_vs_testpmd.sh with ROCETB_BIN times that binary as it is: it refuses one
# that is not executable in one line (exit 2), and with one that is it builds nothing
# (ROCETB_BUILD points nowhere) and goes on to check its other input.
#   usage: bench_vs_testpmd_args_test.sh SCRIPT ROCETB
set -uo pipefail
script=$1 rocetb=$2
# shellcheck source=../expect.sh
source "$(dirname "$0")/../expect.sh"
expect "a ROCETB_BIN that is not there" 2 \
  "^bench_vs_testpmd: ROCETB_BIN '/nonexistent/rocetb': expected an executable rocetb binary$" \
  -- env ROCETB_BUILD=/nonexistent ROCETB_BIN=/nonexistent/rocetb "$script" 1 1
expect "ROCETB_BIN is used without a build" 2 "^bench_vs_testpmd: mode 'bogus': expected one of" \
  -- env ROCETB_BUILD=/nonexistent ROCETB_BIN="$rocetb" MODES=bogus "$script" 1 1
[ "$fails" = 0 ] || { echo "$fails failed"; exit 1; }
