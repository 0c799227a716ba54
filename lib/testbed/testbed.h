// A scenario made real: every cable as two wire links, every host and switch as a stage,
// every flow as a queue pair on its source and one on its destination, the faults on
// their links and hosts. Built once; the runner then runs it and reads counters.
//
// Virtual time: every stage under one virtual-time scheduler (scheduler()), or, split into
// partitions (partitioning.h), each partition's under its own scheduler of
// partitioned_scheduler(), allocating from its own pools.
// Realtime: the stages are placed on lcores (scenario [realtime]); a cable whose ends are
// on different lcores (or every cable, with links = "ring") is cut in two: each end keeps
// its own wire pair, whose far end is an EthBridge to one side of an rte_ring port pair
// (lib/ethport). The runner puts placements() on a realtime scheduler.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "cc_algos/controller.h"
#include "core/error.h"
#include "ethport/eth_bridge.h"
#include "ethport/eth_port.h"
#include "host/host.h"
#include "runtime/link_faults.h"
#include "runtime/partitioned_scheduler.h"
#include "runtime/pool/mbuf_pool_set.h"
#include "runtime/virtual_scheduler.h"
#include "runtime/wire_link.h"
#include "scenario/scenario.h"
#include "switch/switch.h"
#include "testbed/base_rtt.h"
#include "testbed/int_plan.h"
#include "testbed/partitioning.h"

namespace rtb::testbed {

// Where a flow lives: a QP on the source host and its peer on the destination host.
struct FlowQps {
  uint32_t src_qp = 0;
  uint32_t dst_qp = 0;
};

// Both directions of scenario link i: ab carries frames from end a to end b. A cable cut
// by a realtime bridge: end a sends on ab and receives on ba, end b on its own b_tx/b_rx.
struct LinkPair {
  std::unique_ptr<runtime::WireLink> ab;
  std::unique_ptr<runtime::WireLink> ba;
  std::unique_ptr<runtime::WireLink> b_tx;  // cut cables only
  std::unique_ptr<runtime::WireLink> b_rx;
};

// The wires one end of a cable sends on and receives from.
struct EndLinks {
  runtime::WireLink* tx = nullptr;
  runtime::WireLink* rx = nullptr;
};

// A stage that takes a host's place in virtual time (`rocetb replay --through`: captured
// frames injected where the host would send). Given the host's index, its port's wires and
// the run's pools, it returns the stage, owned by the caller and outliving the testbed, or
// nullptr to build the host. A replaced host is not a host: has_host() is false for it,
// so the summary has no row for it, and its flows are not made.
using HostStandIn =
    std::function<runtime::Stage*(uint32_t host, host::PortLinks links, runtime::PoolSet& pools)>;

// A stage and the lcore that polls it (realtime).
struct Placed {
  runtime::Stage* stage;
  unsigned lcore;
};

// Realtime: the controller the hosts of one lcore share, a copy of the run's. Each lcore
// adopts new parameters into its own (realtime_commands.h), so no lcore writes what
// another reads.
struct LcoreController {
  unsigned lcore;
  std::unique_ptr<cc::Controller> controller;
};

class Testbed {
 public:
  static Expected<std::unique_ptr<Testbed>> build(const scenario::Scenario& s,
                                                  runtime::PoolSet& pools,
                                                  const cc::Controller& cc,
                                                  const HostStandIn& stand_in = {});
  // Virtual time over plan.count > 1 threads: the stages of partition p use *pools[p]; a
  // cable between partitions is a crossing link of partitioned_scheduler(). Across MPI
  // ranks (plan.ranks > 1, `ranks` given): only this rank's partitions are built, and
  // pools[p] of another rank's partition is null.
  static Expected<std::unique_ptr<Testbed>> build_partitioned(const scenario::Scenario& s,
                                                              const Partitioning& plan,
                                                              std::span<runtime::PoolSet* const> pools,
                                                              const cc::Controller& cc,
                                                              const HostStandIn& stand_in = {},
                                                              runtime::Ranks* ranks = nullptr);
  // Realtime: placed on lcores, cut cables bridged through rte_ring port pairs.
  static Expected<std::unique_ptr<Testbed>> build_realtime(const scenario::Scenario& s,
                                                           runtime::PoolSet& pools,
                                                           const cc::Controller& cc);
  ~Testbed();

  runtime::VirtualScheduler& scheduler() { return scheduler_; }
  // Built by build_partitioned() only.
  bool partitioned() const { return parallel_ != nullptr; }
  runtime::PartitionedScheduler& partitioned_scheduler() { return *parallel_; }
  const scenario::Scenario& scenario() const { return s_; }
  // Realtime runs split across processes, and MPI ranks, build only their nodes.
  bool has_host(uint32_t i) const { return hosts_[i] != nullptr; }
  bool has_switch(uint32_t i) const { return switches_[i] != nullptr; }
  host::Host& host(uint32_t i) { return *hosts_[i]; }
  const host::Host& host(uint32_t i) const { return *hosts_[i]; }
  sw::Switch& switch_at(uint32_t i) { return *switches_[i]; }
  const sw::Switch& switch_at(uint32_t i) const { return *switches_[i]; }
  const std::vector<LinkPair>& links() const { return links_; }
  const FlowQps& flow_qps(uint32_t flow) const { return flow_qps_[flow]; }
  // The flow's path with empty queues (base_rtt.h), as its connection was given it.
  const BasePath& base_path(uint32_t flow) const { return base_paths_[flow]; }
  // The link a switch port sends on.
  const runtime::WireLink& switch_tx(uint32_t sw, uint16_t port) const;
  EndLinks end_links(uint32_t link, bool end_a) const;
  // Frames delivered to hosts and switches by the wire links so far (frame-hops).
  uint64_t frame_hops() const;
  // Frames the fault hooks dropped or lost to a link down, over every link.
  uint64_t fault_drops() const;
  // Realtime: every stage with its lcore (hosts, switches, then bridges).
  std::vector<Placed> placements() const;
  const std::vector<std::unique_ptr<ethport::EthBridge>>& bridges() const { return bridges_; }
  // Realtime: one per lcore that holds hosts, in lcore order (virtual time: none, the hosts
  // share the controller given to build()).
  std::vector<LcoreController>& lcore_controllers() { return controllers_; }
  // Frees every frame still queued in a switch or in flight on a link (end of a run).
  void drain();

 private:
  Testbed(const scenario::Scenario& s, bool realtime) : s_(s), realtime_(realtime) {}
  Status make(const cc::Controller& cc, const HostStandIn& stand_in);
  runtime::PoolSet& pools_of(scenario::NodeRef n) const { return *pools_[plan_ ? plan_->of(n) : 0]; }
  bool cut(const scenario::Link& l) const;
  bool built(scenario::NodeRef n) const;
  Status make_ports(runtime::PoolSet& pools);
  void post_messages(host::Host& a, uint32_t qp, const scenario::Flow& f);
  Status make_links();
  Status make_bridges();
  Status make_hosts(const cc::Controller& cc, const HostStandIn& stand_in);
  const cc::Controller& controller_of(uint32_t host, const cc::Controller& cc);
  Status make_switches(const IntPlan& int_plan);
  Status make_flows(const cc::Algorithm& algorithm, const IntPlan& int_plan);
  // A node's stage in virtual time: its host, the stand-in in its place, or its switch.
  runtime::Stage& stage_of(scenario::NodeRef n) const;
  void wire_up();
  void wire_up_partitions();

  const scenario::Scenario& s_;
  bool realtime_ = false;
  std::vector<LinkPair> links_;
  std::vector<std::unique_ptr<ethport::EthPort>> ports_;      // outlive their bridges
  std::vector<std::unique_ptr<ethport::EthBridge>> bridges_;
  std::vector<unsigned> bridge_lcores_;
  std::vector<std::unique_ptr<runtime::LinkFaults>> faults_;
  std::vector<LcoreController> controllers_;  // outlive the hosts that use them
  std::vector<std::unique_ptr<host::Host>> hosts_;
  std::vector<runtime::Stage*> stand_ins_;  // per host index: the stage in its place, or null
  std::vector<std::unique_ptr<sw::Switch>> switches_;
  std::vector<FlowQps> flow_qps_;
  std::vector<BasePath> base_paths_;  // per flow
  std::vector<runtime::PoolSet*> pools_;  // one, or one per partition
  std::optional<Partitioning> plan_;      // build_partitioned() only
  runtime::VirtualScheduler scheduler_;
  std::unique_ptr<runtime::PartitionedScheduler> parallel_;
  runtime::Ranks* ranks_ = nullptr;  // across MPI ranks only
};

}  // namespace rtb::testbed
