#!/usr/bin/env bash
# Configure (once) and build incrementally into build/.
#
# The build is what users run: -O3 with link-time optimisation and profile-guided
# optimisation (asserts stay on). The profile comes from scripts/train_profile.sh, which
# runs two scenarios in virtual time once per build directory; remove
# build/.profile-trained to train again after large changes (a stale profile only costs
# speed). Measured on the 40 Gb/s 2:1 incast: 1.5x the speed of -O2 (README, Performance).
#
#   ./scripts/build.sh [--no-profile] [TARGET...]
#
# TARGETs are ninja's (default: everything, tests included); scripts/run.sh builds `tool`,
# the rocetb command and the example plug-ins (apps/meson.build).
# --no-profile builds a build/ that has no profile yet without training one: the same
# -O3 and LTO, slower code. scripts/test.sh uses it: its tests need the release build's
# code, not its speed, and the instrumented build is a third of a fresh build's time. A
# later ./scripts/build.sh trains the profile and rebuilds.
set -euo pipefail
cd "$(dirname "$0")/.."
train=1
if [ "${1:-}" = --no-profile ]; then
  train=0
  shift
fi
case "${1:-}" in
  -*) echo "build.sh: unknown option '$1' (expected --no-profile, or ninja targets)" >&2; exit 2 ;;
esac
if [ ! -f build/build.ninja ]; then
  meson setup build --buildtype=release -Db_lto=true
fi
if [ "$train" = 1 ] && [ ! -f build/.profile-trained ]; then
  echo "build.sh: first build: an instrumented build, two training runs, then the optimised" \
       "build (40 minutes or so on 2 cores)" >&2
  ./scripts/train_profile.sh build
fi
# shellcheck source=lib/profile_age.sh
. scripts/lib/profile_age.sh
warn_stale_profile build
ninja -C build "$@"
