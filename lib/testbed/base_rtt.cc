#include "testbed/base_rtt.h"

#include <algorithm>

#include "runtime/wire_link.h"
#include "wire/frame_size.h"

namespace rtb::testbed {

using scenario::NodeKind;
using scenario::NodeRef;

namespace {

// One hop both ways: the data frame out, the ACK back, each serialised and propagated.
Time hop_time(const scenario::Link& l, uint32_t data, uint32_t ack) {
  return l.rate.time_for(runtime::wire_occupancy(data)) +
         l.rate.time_for(runtime::wire_occupancy(ack)) + l.propagation * 2;
}

}  // namespace

// The cheapest way from `from` over link `link` to host `dst`, and its switch count.
// rtt never: no way.
BasePath BasePaths::from_link(uint32_t link, NodeRef from, uint32_t dst, const FrameLengths& len) {
  const scenario::Link& l = topo_.links[link];
  const NodeRef to = l.a.node == from ? l.b.node : l.a.node;
  const Time here = hop_time(l, len.data, len.ack);
  if (to.kind == NodeKind::kHost) return {to.index == dst ? here : Time::never(), 0, l.rate};
  const BasePath rest = from_switch(to.index, dst, len);
  if (rest.rtt.is_never()) return rest;
  return {here + rest.rtt, rest.switches + 1, std::min(l.rate, rest.bottleneck)};
}

// The cheapest way on from switch `sw` to host `dst`: switches follow their routes'
// equal-cost ports (the first of equal ones kept). Routes are shortest paths, so the
// recursion ends.
BasePath BasePaths::from_switch(uint32_t sw, uint32_t dst, const FrameLengths& len) {
  const auto key = std::make_tuple(sw, dst, len.data, len.ack);
  if (auto it = from_switch_.find(key); it != from_switch_.end()) return it->second;
  const scenario::SwitchNode& node = topo_.switches[sw];
  const uint32_t dst_ip = topo_.hosts[dst].ip;
  BasePath best{Time::never(), 0, Rate::zero()};
  for (const sw::Route& r : node.config.routes) {
    if (r.prefix != dst_ip || r.prefix_len != 32) continue;
    for (uint16_t port : r.ports) {
      const BasePath rest = from_link(node.port_links[port], NodeRef{NodeKind::kSwitch, sw}, dst, len);
      if (rest.rtt < best.rtt) best = rest;
    }
  }
  from_switch_.emplace(key, best);
  return best;
}

BasePath BasePaths::of(const scenario::Flow& flow) {
  const scenario::HostNode& src = topo_.hosts[flow.src];
  const scenario::HostNode& dst = topo_.hosts[flow.dst];
  const FrameLengths len{
      wire::roce_frame_length(src.vlan_tagged, 0, src.requester.path_mtu),
      wire::roce_frame_length(dst.vlan_tagged, 4, 0)};  // AETH, no payload
  const BasePath path = from_link(src.link, NodeRef{NodeKind::kHost, flow.src}, flow.dst, len);
  if (path.rtt.is_never()) return {};  // unreachable: unknown (routes refuse it earlier)
  return {path.rtt + dst.config.timings.ack_turnaround, path.switches, path.bottleneck};
}

}  // namespace rtb::testbed
