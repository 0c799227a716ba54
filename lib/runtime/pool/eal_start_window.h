// The window in which the calling thread runs rte_eal_init() (start_eal() brackets it).
// The EAL's calls that `rocetb` answers itself (its TSC calibration sleep,
// tsc_calibration.h; its CPU topology probes, eal_topology_probe.h) are recognised only
// there, so the same calls from anything else are passed on unchanged.
#pragma once

#include <cstdint>

namespace rtb::runtime {

// Brackets rte_eal_init() on the calling thread.
void begin_eal_start();
void end_eal_start();

// Whether the calling thread is between begin_eal_start() and end_eal_start().
bool inside_eal_start();
// How many windows this thread has begun: a hook that acts once per rte_eal_init() keeps
// the number it acted in.
uint32_t eal_starts_begun();

}  // namespace rtb::runtime
