#include "testbed/ideal_fct.h"

#include "runtime/wire_link.h"
#include "wire/frame_size.h"

namespace rtb::testbed {
namespace {

constexpr uint32_t kRethBytes = 16;  // IBTA vol 1 §9.3.3.3, on the first frame of a WRITE

Bytes frame_wire_bytes(bool tagged, uint32_t ext, uint64_t payload) {
  return runtime::wire_occupancy(wire::roce_frame_length(tagged, ext, static_cast<uint32_t>(payload)));
}

}  // namespace

Bytes message_wire_bytes(Bytes size, uint32_t path_mtu, bool write, bool tagged) {
  const uint64_t s = size.count();
  const uint64_t frames = s == 0 ? 1 : (s + path_mtu - 1) / path_mtu;
  const uint32_t first_ext = write ? kRethBytes : 0;
  if (frames == 1) return frame_wire_bytes(tagged, first_ext, s);
  const uint64_t last = s - (frames - 1) * path_mtu;
  return frame_wire_bytes(tagged, first_ext, path_mtu) +
         frame_wire_bytes(tagged, 0, path_mtu) * (frames - 2) +
         frame_wire_bytes(tagged, 0, last);
}

std::optional<Time> ideal_fct(const scenario::Topology& topo, const scenario::Flow& flow,
                              const BasePath& path) {
  if (!flow.size || !flow.messages.empty()) return std::nullopt;
  if (path.rtt == Time::zero() || path.bottleneck == Rate::zero()) return std::nullopt;
  const scenario::HostNode& src = topo.hosts[flow.src];
  const Bytes wire = message_wire_bytes(*flow.size, src.requester.path_mtu,
                                        src.requester.verb == host::Verb::kWrite, src.vlan_tagged);
  return path.rtt + path.bottleneck.time_for(wire);
}

}  // namespace rtb::testbed
