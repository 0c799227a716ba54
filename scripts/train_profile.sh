#!/usr/bin/env bash
# Profile-guided optimisation for one build directory (default build/): builds rocetb
# instrumented (-Db_pgo=generate), runs the 40 Gb/s incast for 100 simulated ms and the
# default scenario in virtual time, then switches the directory to -Db_pgo=use so the
# next ninja rebuilds everything with the profile. Code the training does not reach
# (realtime loops, ports) is compiled as without a profile (-fprofile-partial-training,
# meson.build). If the training run fails the build goes on without a profile, saying so.
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
  meson configure "$build" -Db_pgo=use >/dev/null
  echo "train_profile: $build trained on scenarios/incast2_40g.toml and scenarios/default.toml"
else
  meson configure "$build" -Db_pgo=off >/dev/null
  echo "train_profile: the training run failed; $build is built without a profile" >&2
fi
touch "$build/.profile-trained"
