// The EAL of a `rocetb bench` process: the lcores the mode runs on (the first is the main
// lcore, the caller's thread), no PCI, no hugepages unless mounted, and the memory the
// mode's pools need. One EAL per process: tests that already run one call the modes
// directly.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/error.h"

namespace rtb::bench {

// Errors: an lcore listed twice or beyond this machine's CPUs, or the EAL's own failure.
Status start_bench_eal(const std::string& program, const std::vector<unsigned>& lcores,
                       uint64_t pool_bytes, const std::vector<std::string>& extra = {});

// Resident set size of this process now (bytes), from /proc/self/statm; 0 if unreadable.
uint64_t resident_bytes();

}  // namespace rtb::bench
