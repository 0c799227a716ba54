// A scenario made real: every cable as two wire links, every host and switch as a stage,
// every flow as a queue pair on its source and one on its destination, the faults on
// their links and hosts, all under one virtual-time scheduler. Built once; the runner
// then runs the scheduler and reads counters.
#pragma once

#include <memory>
#include <vector>

#include "cc_algos/controller.h"
#include "core/error.h"
#include "host/host.h"
#include "runtime/link_faults.h"
#include "runtime/pool/mbuf_pool_set.h"
#include "runtime/virtual_scheduler.h"
#include "runtime/wire_link.h"
#include "scenario/scenario.h"
#include "switch/switch.h"

namespace rtb::testbed {

// Where a flow lives: a QP on the source host and its peer on the destination host.
struct FlowQps {
  uint32_t src_qp = 0;
  uint32_t dst_qp = 0;
};

// Both directions of scenario link i: ab carries frames from end a to end b.
struct LinkPair {
  std::unique_ptr<runtime::WireLink> ab;
  std::unique_ptr<runtime::WireLink> ba;
};

class Testbed {
 public:
  static Expected<std::unique_ptr<Testbed>> build(const scenario::Scenario& s,
                                                  runtime::PoolSet& pools,
                                                  const cc::Controller& cc);
  ~Testbed();

  runtime::VirtualScheduler& scheduler() { return scheduler_; }
  const scenario::Scenario& scenario() const { return s_; }
  host::Host& host(uint32_t i) { return *hosts_[i]; }
  const host::Host& host(uint32_t i) const { return *hosts_[i]; }
  sw::Switch& switch_at(uint32_t i) { return *switches_[i]; }
  const sw::Switch& switch_at(uint32_t i) const { return *switches_[i]; }
  const std::vector<LinkPair>& links() const { return links_; }
  const FlowQps& flow_qps(uint32_t flow) const { return flow_qps_[flow]; }
  // The link a switch port sends on.
  const runtime::WireLink& switch_tx(uint32_t sw, uint16_t port) const;
  // Frames delivered by every wire link so far (simulated frame-hops).
  uint64_t frame_hops() const;
  // Frees every frame still queued in a switch or in flight on a link (end of a run).
  void drain();

 private:
  explicit Testbed(const scenario::Scenario& s) : s_(s) {}
  Status make_links();
  Status make_hosts(runtime::PoolSet& pools, const cc::Controller& cc);
  Status make_switches(runtime::PoolSet& pools);
  Status make_flows();
  void wire_up();

  const scenario::Scenario& s_;
  std::vector<LinkPair> links_;
  std::vector<std::unique_ptr<runtime::LinkFaults>> faults_;
  std::vector<std::unique_ptr<host::Host>> hosts_;
  std::vector<std::unique_ptr<sw::Switch>> switches_;
  std::vector<FlowQps> flow_qps_;
  runtime::VirtualScheduler scheduler_;
};

}  // namespace rtb::testbed
