#!/usr/bin/env bash
# scripts/build.sh refuses an unknown option in one line (exit 2) before it configures or
# builds anything, and ninja's alias `tool` (what scripts/run.sh builds) is rocetb and the
# two example plug-ins.
#   usage: build_args_test.sh BUILD_SH BUILD_DIR
set -uo pipefail
script=$1 build=$2
# shellcheck source=../expect.sh
source "$(dirname "$0")/../expect.sh"
one_line="^build.sh: unknown option '--bogus' \(expected --no-profile, or ninja targets\)$"
expect "an unknown option" 2 "$one_line" -- "$script" --bogus
expect "an unknown option after --no-profile" 2 "$one_line" -- "$script" --no-profile --bogus
expect "tool is rocetb" 0 "^ +\| apps/rocetb$" -- ninja -C "$build" -t query tool
expect "tool is the C++ plug-in" 0 "^ +\| cc_algos/rtb_cc_aimd.so$" -- ninja -C "$build" -t query tool
expect "tool is the C plug-in" 0 "^ +\| cc_algos/rtb_cc_rtt_aimd.so$" -- ninja -C "$build" -t query tool
[ "$fails" = 0 ] || { echo "$fails failed"; exit 1; }
