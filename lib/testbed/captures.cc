#include "testbed/captures.h"

#include <fmt/format.h>

#include <filesystem>

namespace rtb::testbed {

Expected<std::unique_ptr<tap::CaptureSet>> open_captures(const Testbed& t, const tap::CaptureRequest& request,
                                                         tap::CaptureSet::Mode mode, uint64_t origin_ns) {
  if (request.empty()) return std::unique_ptr<tap::CaptureSet>();
  std::error_code ec;
  std::filesystem::create_directories(request.dir, ec);
  if (ec) return Error{fmt::format("--capture: cannot create the folder {}: {}", request.dir, ec.message())};
  const scenario::Topology& topo = t.scenario().topology;
  const auto wire_of = [&t](tap::Direction d) { return t.end_links(d.link, d.a_to_b).tx; };
  // A one-thread run adds its stages hosts first, then switches, each by index (Testbed::wire_up).
  const auto hosts = static_cast<uint32_t>(topo.hosts.size());
  const auto rank = [&topo, hosts](tap::Direction d) {
    const scenario::Link& l = topo.links[d.link];
    const scenario::NodeRef sender = d.a_to_b ? l.a.node : l.b.node;
    return sender.kind == scenario::NodeKind::kHost ? sender.index : hosts + sender.index;
  };
  const tap::SenderOf sender_of{rank, hosts + static_cast<uint32_t>(topo.switches.size())};
  return tap::CaptureSet::open(request, topo, wire_of, mode, origin_ns, sender_of);
}

}  // namespace rtb::testbed
