#!/usr/bin/env bash
# Install what is missing, build, run every test suite, end with "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh || { echo "0 passed, 1 failed"; exit 1; }
# Tests that need an installed tool (chromium) fail instead of skipping when it is missing.
export ROCETB_DEPS_INSTALLED=1
# The release build without its profile-guided step (scripts/build.sh): the same code.
./scripts/build.sh --no-profile || { echo "0 passed, 1 failed"; exit 1; }

meson test -C build --print-errorlogs --num-processes 2 "$@"
status=$?
/usr/bin/python3 scripts/count_tests.py build/meson-logs/testlog.junit.xml build/meson-logs/testlog.json
exit $status
