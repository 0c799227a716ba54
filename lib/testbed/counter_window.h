// Counters over a window: what they counted after the baseline (baseline.h), the value
// at the end less the value then. Gauges (occupancy, frames queued, in_storm) and
// watermarks keep their value at the end.
#pragma once

#include "host/host_counters.h"
#include "switch/counters.h"

namespace rtb::testbed {

host::HostCounters since(const host::HostCounters& end, const host::HostCounters& start);
host::QpCounters since(const host::QpCounters& end, const host::QpCounters& start);
sw::PortCounters since(const sw::PortCounters& end, const sw::PortCounters& start);

}  // namespace rtb::testbed
