// [realtime]: lcores, stage placement, DPDK ports, time dilation, the lateness budget and
// EAL settings of a realtime run, and [realtime.process.<role>] to split a scenario across
// processes (rocetb run --process ROLE). Keys in scenarios/README.md.
#pragma once

#include <optional>

#include "scenario/scenario.h"
#include "scenario/toml_table.h"

namespace rtb::scenario {

// Checks placement against the topology: every cable with one end built here and the
// other not must have a port; a port must name such a cable.
RealtimeConfig read_realtime(std::optional<Table> t, const Topology& topo);

}  // namespace rtb::scenario
