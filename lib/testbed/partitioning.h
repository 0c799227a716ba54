// How a virtual-time run splits its stages over threads (run.partitions,
// runtime/partitioned_scheduler.h). The unit is a switch with the hosts cabled to it: every
// cable except those between two switches joins its two ends into one group, so a crossing
// link is always a switch-to-switch cable and a host's frames reach their first switch
// without crossing. The groups of the switches run.partition_of names go to the partitions
// it gives; the rest go largest first, each to the partition with the fewest ports so far
// (ties: the lowest index), weighing a group by its ports (a host's one, each switch port):
// a leaf with its hosts outweighs a spine. The split changes how fast a
// run goes, never its results.
#pragma once

#include <cstdint>
#include <vector>

#include "core/error.h"
#include "core/units.h"
#include "scenario/scenario.h"

namespace rtb::testbed {

struct Partitioning {
  uint32_t count = 1;
  uint32_t threads = 1;             // partition p runs on thread p mod threads
  std::vector<uint32_t> of_host;    // per host index
  std::vector<uint32_t> of_switch;  // per switch index
  uint32_t groups = 0;
  Time lookahead = Time::never();   // the shortest propagation delay of a crossing cable
  uint32_t crossing_cables = 0;
  // Across processes (MPI): partition p runs on rank p mod ranks; this process is `rank`
  // and builds only its partitions' nodes.
  uint32_t ranks = 1;
  uint32_t rank = 0;

  uint32_t of(scenario::NodeRef n) const {
    return n.kind == scenario::NodeKind::kHost ? of_host[n.index] : of_switch[n.index];
  }
  bool crosses(const scenario::Link& l) const { return of(l.a.node) != of(l.b.node); }
  uint32_t rank_of(uint32_t partition) const { return partition % ranks; }
  bool here(uint32_t partition) const { return rank_of(partition) == rank; }
};

// run.partitions of the scenario, on run.threads threads (unset: one per partition, at most
// `cpus`). Errors (one line, naming the key): more partitions than groups, a crossing
// cable without propagation delay, a realtime run, a partition run.partition_of leaves
// without a switch.
Expected<Partitioning> plan_partitions(const scenario::Scenario& s, uint32_t cpus);

}  // namespace rtb::testbed
