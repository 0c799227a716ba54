#!/usr/bin/env bash
# rocetb carries DPDK and its drivers itself (meson.build, dpdk_static_dep): it needs no
# shared librte_* library, its EAL loads no driver plug-in as it starts, and the drivers a
# run opens (net_null here) are in it.
#   usage: static_dpdk_test.sh ROCETB SOURCE_ROOT
set -uo pipefail
rocetb=$1 root=$2
# shellcheck source=../expect.sh
source "$(dirname "$0")/../expect.sh"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

needed=$(readelf -d "$rocetb" | grep NEEDED)
if grep -q 'librte_' <<<"$needed"; then
  echo "FAIL rocetb needs shared DPDK libraries:"; grep 'librte_' <<<"$needed"; fails=$((fails + 1))
else
  echo "ok   no shared DPDK library needed"
fi

# glibc's loader names every shared object it maps (LD_DEBUG=files).
loaded=$(LD_DEBUG=files "$rocetb" run "$root/scenarios/default.toml" --out "$out/run" --no-plots --quiet \
  --set run.duration=2us --set run.warmup=0s --set run.sample_interval=1us 2>&1)
rc=$?
if [ "$rc" != 0 ]; then
  echo "FAIL a virtual run: exit $rc"; tail -5 <<<"$loaded"; fails=$((fails + 1))
elif grep -q 'file=.*pmds-' <<<"$loaded"; then
  echo "FAIL the EAL loaded driver plug-ins:"; grep -m3 'file=.*pmds-' <<<"$loaded"; fails=$((fails + 1))
else
  echo "ok   a virtual run loads no driver plug-in"
fi

expect "net_null is in rocetb" 0 "frames_per_s" -- \
  "$rocetb" bench tx --lcores 0 --qps 16 --seconds 200ms --warmup 50ms
[ "$fails" = 0 ] || { echo "$fails failed"; exit 1; }
