#include "testbed/base_rtt.h"

#include <algorithm>

#include "runtime/wire_link.h"
#include "wire/frame_size.h"

namespace rtb::testbed {
namespace {

using scenario::NodeKind;
using scenario::NodeRef;

struct FrameLengths {
  uint32_t data = 0;  // a full WRITE Middle, bytes without FCS
  uint32_t ack = 0;
};

// One hop both ways: the data frame out, the ACK back, each serialised and propagated.
Time hop_time(const scenario::Link& l, const FrameLengths& len) {
  return l.rate.time_for(runtime::wire_occupancy(len.data)) +
         l.rate.time_for(runtime::wire_occupancy(len.ack)) + l.propagation * 2;
}

// The cheapest way from `from` over link `link` to host `dst`; switches follow their
// routes' equal-cost ports. Routes are shortest paths, so the recursion ends.
Time from_link(const scenario::Topology& topo, uint32_t link, NodeRef from, uint32_t dst,
               const FrameLengths& len) {
  const scenario::Link& l = topo.links[link];
  const NodeRef to = l.a.node == from ? l.b.node : l.a.node;
  const Time here = hop_time(l, len);
  if (to.kind == NodeKind::kHost) return to.index == dst ? here : Time::never();
  const scenario::SwitchNode& sw = topo.switches[to.index];
  const uint32_t dst_ip = topo.hosts[dst].ip;
  Time best = Time::never();
  for (const sw::Route& r : sw.config.routes) {
    if (r.prefix != dst_ip || r.prefix_len != 32) continue;
    for (uint16_t port : r.ports) {
      const Time rest = from_link(topo, sw.port_links[port], to, dst, len);
      if (!rest.is_never()) best = std::min(best, rest);
    }
  }
  return best.is_never() ? best : here + best;
}

}  // namespace

Time base_rtt(const scenario::Topology& topo, const scenario::Flow& flow) {
  const scenario::HostNode& src = topo.hosts[flow.src];
  const scenario::HostNode& dst = topo.hosts[flow.dst];
  const FrameLengths len{
      wire::roce_frame_length(src.vlan_tagged, 0, src.requester.path_mtu),
      wire::roce_frame_length(dst.vlan_tagged, 4, 0)};  // AETH, no payload
  const Time path = from_link(topo, src.link, NodeRef{NodeKind::kHost, flow.src}, flow.dst, len);
  if (path.is_never()) return Time::zero();  // unreachable: unknown (routes refuse it earlier)
  return path + dst.config.timings.ack_turnaround;
}

}  // namespace rtb::testbed
