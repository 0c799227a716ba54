#!/usr/bin/env bash
# Profile-guided optimisation for one build directory (default build/): builds rocetb
# instrumented (-Db_pgo=generate), runs the 40 Gb/s incast for 100 simulated ms and the
# default scenario in virtual time, and `rocetb bench tx`, `rx` and `switch` for 300 ms
# each in realtime (net_null and net_pcap on lcore 0: hosts sending at line rate, a
# host's receive path, a switch stage between ports), then switches the directory to
# -Db_pgo=use so the next ninja rebuilds everything with the profile. Code the training
# does not reach is compiled as without a profile (-fprofile-partial-training,
# meson.build). If the virtual training runs fail the build goes on without a profile; if
# only the realtime ones fail, with the virtual profile; either way it says so.
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build}"
meson configure "$build" -Db_pgo=generate >/dev/null
ninja -C "$build" apps/rocetb
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
find "$build" -name '*.gcda' -delete
if "$build/apps/rocetb" run scenarios/incast2_40g.toml --set run.duration=100ms \
      --set run.warmup=10ms --out "$out/incast" >/dev/null &&
   "$build/apps/rocetb" run scenarios/default.toml --out "$out/default" >/dev/null; then
  realtime="rocetb bench tx, rx and switch"
  for mode in tx rx switch; do
    if ! "$build/apps/rocetb" bench "$mode" --lcores 0 --seconds 300ms >/dev/null; then
      echo "train_profile: rocetb bench $mode failed: realtime code is trained only as far as it got" >&2
      realtime="part of the realtime benchmarks"
    fi
  done
  meson configure "$build" -Db_pgo=use >/dev/null
  echo "train_profile: $build trained on scenarios/incast2_40g.toml, scenarios/default.toml and $realtime"
else
  meson configure "$build" -Db_pgo=off >/dev/null
  echo "train_profile: the training run failed; $build is built without a profile" >&2
fi
git rev-parse HEAD > "$build/.profile-trained" 2>/dev/null || touch "$build/.profile-trained"
