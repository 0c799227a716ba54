#include "testbed/int_plan.h"

#include <fmt/format.h>

#include "wire/frame_size.h"
#include "wire/int_trailer.h"

namespace rtb::testbed {

Expected<IntPlan> plan_int(const scenario::Scenario& s, const cc::Algorithm& algorithm) {
  IntPlan plan;
  if (!algorithm.needs(cc::Feedback::kInt) || s.flows.empty()) return plan;
  plan.dscp = s.flows.front().dscp;
  plan.trailer_bytes = wire::kIntTrailerBytes;
  for (const scenario::Flow& f : s.flows) {
    if (f.dscp != plan.dscp) {
      return Error{fmt::format("flow {}: dscp {} differs from flow {}'s dscp {}: HPCC INT (the "
                               "algorithm asks for INT feedback) knows INT frames by one DSCP; "
                               "expected the same dscp for every flow",
                               f.id, f.dscp, s.flows.front().id, plan.dscp)};
    }
    const scenario::HostNode& h = s.topology.hosts[f.src];
    const uint32_t frame =
        wire::roce_frame_length(h.vlan_tagged, 16 + 4, h.requester.path_mtu, plan.trailer_bytes);
    if (frame > s.topology.mtu) {
      return Error{fmt::format("flow {}: path_mtu {} with the {}-byte HPCC INT trailer makes frames "
                               "of up to {} B, larger than topology.mtu = {} B: expected a smaller "
                               "path MTU or a larger MTU",
                               f.id, h.requester.path_mtu, plan.trailer_bytes, frame, s.topology.mtu)};
    }
  }
  return plan;
}

}  // namespace rtb::testbed
