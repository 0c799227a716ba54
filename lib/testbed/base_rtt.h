// A flow's base round-trip time: what its ACKs' RTT samples are with every queue empty,
// given to the congestion-control algorithm at flow start (rtb_cc_flow_start.base_rtt_ps).
//
// The sample is measured as a NIC measures it (cc_algos/README.md, "Feedback"): from the
// instant a data frame starts on the wire to the instant its ACK has arrived. With empty
// queues that is, over the flow's path of store-and-forward hops,
//
//   sum over hops (serialisation of a full data frame at the link rate + propagation)
//   + the responder's ACK turnaround (NicTimings::ack_turnaround)
//   + sum over the same hops back (serialisation of the ACK + propagation)
//
// A full data frame is an RDMA WRITE Middle of the sender's path MTU (its 802.1Q tag if
// the sender tags); frames with a RETH are 16 bytes longer, shorter last frames shorter,
// so their samples differ from the base by those bytes' serialisation. Over equal-cost
// paths (ECMP) the shortest is taken; the shipped topologies' equal-cost paths are equal.
#pragma once

#include <cstdint>
#include <map>
#include <tuple>

#include "core/units.h"
#include "scenario/scenario.h"

namespace rtb::testbed {

// The path behind a flow's base RTT: the RTT, how many switches it crosses (the
// algorithm's hop_count at flow start), and its slowest link's rate. rtt zero: no path
// (unknown).
struct BasePath {
  Time rtt = Time::zero();
  uint32_t switches = 0;
  Rate bottleneck = Rate::zero();
};

// The base paths of many flows over one topology. Each switch's best way on to each
// destination (for the flows' frame lengths) is worked out once and kept, so a fabric's
// flows cost a route look-up per switch and destination instead of a walk over every
// equal-cost path per flow (a 128-host leaf-spine's 16,256 all-to-all flows: 10 M
// instructions, from about 650 M for the route scans of the testbed's and the summary's
// walks). The same paths, ties broken the same way.
class BasePaths {
 public:
  explicit BasePaths(const scenario::Topology& topo) : topo_(topo) {}
  BasePath of(const scenario::Flow& flow);

 private:
  struct FrameLengths {
    uint32_t data = 0;  // a full WRITE Middle, bytes without FCS
    uint32_t ack = 0;
  };
  BasePath from_link(uint32_t link, scenario::NodeRef from, uint32_t dst, const FrameLengths& len);
  BasePath from_switch(uint32_t sw, uint32_t dst, const FrameLengths& len);

  const scenario::Topology& topo_;
  // (switch, destination host, data length, ACK length): the best way on from the switch
  std::map<std::tuple<uint32_t, uint32_t, uint32_t, uint32_t>, BasePath> from_switch_;
};

inline BasePath base_path(const scenario::Topology& topo, const scenario::Flow& flow) {
  return BasePaths(topo).of(flow);
}

inline Time base_rtt(const scenario::Topology& topo, const scenario::Flow& flow) {
  return base_path(topo, flow).rtt;
}

}  // namespace rtb::testbed
