// [[faults]]: kind = "pfc_storm" (a host storms PFC pauses), "link_down" (a link goes
// down and, optionally, up again), "drop" (frames dropped on a link with a probability).
// A link is named by its two ends: link = ["leaf0", "spine1"]; "node:port" picks one of
// several parallel links.
#pragma once

#include <vector>

#include "scenario/scenario.h"
#include "scenario/toml_table.h"

namespace rtb::scenario {

// The link named by the table's `link` key (two node names, "node:port" to pick one of
// parallel links); also used by [realtime] ports.
uint32_t read_link(Table& t, const Topology& topo);

Faults read_faults(std::vector<Table>& entries, const Topology& topo, const RunConfig& run);

}  // namespace rtb::scenario
