// Routes of every switch, from the topology alone: for each host (in host order) a /32
// route whose next hops are EVERY port on a shortest path toward it (ECMP), found by a
// breadth-first search from the host over switches (hosts never carry transit traffic).
// Ports are listed in ascending order, so the result is deterministic. On a leaf-spine
// this gives: local hosts direct at a leaf, remote hosts over all uplinks, and at a spine
// each host via its leaf.
#pragma once

#include <string>

#include "scenario/scenario.h"

namespace rtb::scenario {

// Fills topo.switches[*].config.routes (ports must be set). Returns "" or a message naming
// the first switch that cannot reach some host.
std::string compute_routes(Topology& topo);

}  // namespace rtb::scenario
