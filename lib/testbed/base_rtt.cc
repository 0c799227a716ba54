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

// The cheapest way from `from` over link `link` to host `dst`, and its switch count;
// switches follow their routes' equal-cost ports. Routes are shortest paths, so the
// recursion ends. rtt never: no way.
BasePath from_link(const scenario::Topology& topo, uint32_t link, NodeRef from, uint32_t dst,
                   const FrameLengths& len) {
  const scenario::Link& l = topo.links[link];
  const NodeRef to = l.a.node == from ? l.b.node : l.a.node;
  const Time here = hop_time(l, len);
  if (to.kind == NodeKind::kHost) return {to.index == dst ? here : Time::never(), 0, l.rate};
  const scenario::SwitchNode& sw = topo.switches[to.index];
  const uint32_t dst_ip = topo.hosts[dst].ip;
  BasePath best{Time::never(), 0, Rate::zero()};
  for (const sw::Route& r : sw.config.routes) {
    if (r.prefix != dst_ip || r.prefix_len != 32) continue;
    for (uint16_t port : r.ports) {
      const BasePath rest = from_link(topo, sw.port_links[port], to, dst, len);
      if (rest.rtt < best.rtt) best = rest;
    }
  }
  if (best.rtt.is_never()) return best;
  return {here + best.rtt, best.switches + 1, std::min(l.rate, best.bottleneck)};
}

}  // namespace

BasePath base_path(const scenario::Topology& topo, const scenario::Flow& flow) {
  const scenario::HostNode& src = topo.hosts[flow.src];
  const scenario::HostNode& dst = topo.hosts[flow.dst];
  const FrameLengths len{
      wire::roce_frame_length(src.vlan_tagged, 0, src.requester.path_mtu),
      wire::roce_frame_length(dst.vlan_tagged, 4, 0)};  // AETH, no payload
  const BasePath path =
      from_link(topo, src.link, NodeRef{NodeKind::kHost, flow.src}, flow.dst, len);
  if (path.rtt.is_never()) return {};  // unreachable: unknown (routes refuse it earlier)
  return {path.rtt + dst.config.timings.ack_turnaround, path.switches, path.bottleneck};
}

}  // namespace rtb::testbed
