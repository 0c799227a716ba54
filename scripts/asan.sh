#!/usr/bin/env bash
# AddressSanitizer and UndefinedBehaviorSanitizer over the unit suites: core, wire, the
# congestion-control algorithms and plug-in loader, the switch, the hosts, the scenario
# reader and the virtual-time runtime. Fails on the first report: a read or write out of
# bounds, a use after free, a leak at exit, or undefined behaviour (signed overflow, a
# misaligned or null access, a bad shift or conversion).
#
# A separate build directory, never the release one: -fsanitize=address,undefined, -O0
# with debug information (readable reports), tests on, no LTO. Only the test binaries,
# the plug-ins they load and what they link are built. -O0 rather than -O1: the build is
# nearly all of this suite's time (at -O1, 27 minutes on 2 cores, 37 s of them tests; -O0
# compiles the heaviest sources in half the time), and unoptimised tests run slower, so
# each suite gets four times its usual timeout.
#
# No suppressions. DPDK's libraries are not instrumented: ASan checks rocetb's own
# accesses, including those into mbufs (DPDK's memory is ordinary mapped memory under
# --no-huge), and the leak check covers what rocetb allocates with malloc/new.
#
#   ./scripts/asan.sh [BUILD_DIR]      default: build-asan in the source tree
#   JOBS=2 ./scripts/asan.sh           ninja's parallel jobs (default: ninja's own)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$root/build-asan}"
log="$(mktemp)"
trap 'rm -f "$log"' EXIT

if [ ! -f "$build/build.ninja" ]; then
  meson setup "$build" "$root" -Dbuildtype=plain -Doptimization=0 -Ddebug=true \
    -Db_sanitize=address,undefined -Db_lto=false -Db_ndebug=false -Dtests=true >"$log" 2>&1 ||
    { cat "$log"; echo "asan.sh: meson setup $build failed" >&2; exit 1; }
fi
suites=(core wire cc switch host_logic host scenario runtime)
targets=(tests/core/core_test tests/wire/wire_test tests/cc/cc_test tests/switch/switch_test
         tests/host/host_logic_test tests/host/host_test tests/scenario/scenario_test
         tests/runtime/runtime_test)
# The plug-ins cc_test loads.
plugins=$(cd "$build" && ninja -t targets all | sed -n 's/^\(\(cc_algos\|tests\/cc\)\/[^:]*\.so\): .*/\1/p')
# shellcheck disable=SC2086
ninja -C "$build" ${JOBS:+-j "$JOBS"} "${targets[@]}" $plugins >"$log" 2>&1 ||
  { cat "$log"; echo "asan.sh: building $build failed" >&2; exit 1; }

export ASAN_OPTIONS="detect_leaks=1 halt_on_error=1 abort_on_error=0"
export UBSAN_OPTIONS="halt_on_error=1 print_stacktrace=1"
exec meson test -C "$build" --no-rebuild --print-errorlogs --timeout-multiplier 4 "${suites[@]}"
