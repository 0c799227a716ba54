// [host]: the NIC settings every host gets (lib/host/host_config.h, requester.h).
#pragma once

#include <optional>

#include "scenario/scenario.h"
#include "scenario/toml_table.h"

namespace rtb::scenario {

struct HostSettings {
  host::NicTimings timings;
  host::RequesterConfig requester;
  host::PriorityPolicy policy = host::PriorityPolicy::kStrict;
  Bytes dwrr_quantum = Bytes(1'500);
  bool check_icrc = true;
  Time pacer_slot = Time::ns(1);
  bool vlan_tagged = false;
  uint32_t first_qpn = 0x100;
  uint8_t dscp = 26;  // the default DSCP of every [[traffic]] entry (dscp or nccl_ib_tc)
};

// The DSCP `t` gives: `dscp` (0..63) or `nccl_ib_tc` (NCCL_IB_TC, the IP ToS byte the NIC
// writes: DSCP = tc >> 2, so 104 is DSCP 26; its two ECN bits must be 0, the NIC sets
// ECN itself), not both; `def` when neither is given.
uint8_t read_traffic_class(Table& t, uint8_t def);

// Checks the path MTU's largest frame against the topology's port MTU.
HostSettings read_host_settings(std::optional<Table> t, uint32_t port_mtu);

// Fills every host's HostConfig and requester. Each host's seed is drawn from the
// scenario seed on the host's own stream, so hosts never share a random sequence.
void apply_host_settings(Topology& topo, const HostSettings& s, uint64_t seed);

}  // namespace rtb::scenario
