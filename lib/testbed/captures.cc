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
  const auto wire_of = [&t](tap::Direction d) { return t.end_links(d.link, d.a_to_b).tx; };
  return tap::CaptureSet::open(request, t.scenario().topology, wire_of, mode, origin_ns);
}

Status check_captures_partitioned(const scenario::Topology& topo, const Partitioning& plan,
                                  const tap::CaptureRequest& request) {
  if (request.empty() || plan.count == 1) return {};
  auto files = tap::plan_captures(topo, request.what, "--capture");
  if (!files) return files.error();
  const auto sender = [&](const tap::Direction& d) {
    const scenario::Link& l = topo.links[d.link];
    return plan.of(d.a_to_b ? l.a.node : l.b.node);
  };
  for (const tap::FilePlan& f : files.value()) {
    for (const tap::Direction& d : f.directions) {
      const tap::Direction& first = f.directions.front();
      if (sender(d) == sender(first)) continue;
      return Error{fmt::format(
          "--capture {}: its frames are sent from partitions {} ({}) and {} ({}) of run.partitions = {}, and a "
          "capture file is written by one thread; expected what one partition sends: a host, a switch port to a host, or "
          "a switch whose neighbours share its partition (run.partition_of); or run.partitions = 1",
          f.what, sender(first), tap::direction_name(topo, first), sender(d), tap::direction_name(topo, d),
          plan.count)};
    }
  }
  return {};
}

}  // namespace rtb::testbed
