#!/usr/bin/env bash
# ThreadSanitizer on a realtime run placed on two lcores (tests/testbed/lcores_run_test.cc:
# senders on lcores 0 and 1, the switch and the receiver on 1, two "set" commands during
# the run, sampling every 20 us), then on parallel virtual time (partitions_run_test.cc:
# four leaf-spine scenarios on 2 and 3 threads, and 3 partitions on 2 threads, where
# threads take each other's partitions; partitioned_scheduler_test.cc: a thread held in
# its partition while the other runs its second one). Fails on any data race TSan reports.
#
# A separate build directory, never the release one: -fsanitize=thread, -O1 with debug
# information (readable reports), tests on, no LTO. Only the test binary and what it
# links are built (ccache makes later runs quick).
#
# No suppressions. DPDK's libraries are not instrumented, so TSan cannot see the
# release/acquire inside the rte_ring that hands a frame from one lcore to another;
# EthPort::rx/tx tell it instead (lib/core/race_detector.h; lib/testbed/README.md,
# "Checked by ThreadSanitizer", also for mbufs one lcore frees and another reuses).
#
#   ./scripts/tsan.sh [BUILD_DIR]      default: build-tsan in the source tree
#   JOBS=2 ./scripts/tsan.sh           ninja's parallel jobs (default: ninja's own)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$root/build-tsan}"
log="$(mktemp)"
trap 'rm -f "$log"' EXIT

if [ ! -f "$build/build.ninja" ]; then
  meson setup "$build" "$root" -Dbuildtype=plain -Doptimization=1 -Ddebug=true \
    -Db_sanitize=thread -Db_lto=false -Db_ndebug=false -Dtests=true >"$log" 2>&1 ||
    { cat "$log"; echo "tsan.sh: meson setup $build failed" >&2; exit 1; }
fi
ninja -C "$build" ${JOBS:+-j "$JOBS"} tests/testbed/lcores_run_test tests/testbed/partitions_run_test \
  tests/runtime/runtime_test >"$log" 2>&1 ||
  { cat "$log"; echo "tsan.sh: building $build failed" >&2; exit 1; }

# halt_on_error: the first report ends the run with exit code 66; history_size: the earlier
# access's stack is kept long enough to be printed. setarch -R: TSan's fixed shadow layout
# does not fit every address-space randomisation a kernel may use (vm.mmap_rnd_bits > 28).
export TSAN_OPTIONS="halt_on_error=1 exitcode=66 history_size=4"
export ROCETB_SOURCE_ROOT="$root"
setarch "$(uname -m)" -R "$build/tests/testbed/lcores_run_test"
setarch "$(uname -m)" -R "$build/tests/runtime/runtime_test" --gtest_filter='PartitionedScheduler.*'
exec setarch "$(uname -m)" -R "$build/tests/testbed/partitions_run_test" \
  --gtest_filter='*OnAThreadEach*:Partitioning.*'

