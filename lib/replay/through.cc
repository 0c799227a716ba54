#include "replay/through.h"

#include <fmt/format.h>

#include <memory>
#include <vector>

#include "replay/replay_json.h"

namespace rtb::replay {
scenario::Scenario through_scenario(scenario::Scenario s, const ThroughFrames& frames, Time tail) {
  s.flows.clear();
  s.run.clock = scenario::Clock::kVirtual;
  s.run.warmup = Time::zero();
  s.run.duration = frames.last_due + tail;
  for (scenario::HostNode& h : s.topology.hosts) {
    h.requester.path_mtu = std::max(h.requester.path_mtu, frames.largest_frame);
  }
  for (const std::vector<InjectedFrame>& host : frames.per_host) {
    for (const InjectedFrame& f : host) s.replayed_priorities |= static_cast<uint8_t>(1u << f.priority);
  }
  return s;
}

Expected<ThroughResult> run_through(const scenario::Scenario& s, const ThroughFrames& frames,
                                    const ThroughOptions& options, cc::Registry& registry,
                                    const std::string& command_line, const tap::CaptureRequest& capture,
                                    const testbed::SeriesRequest& series) {
  std::vector<std::unique_ptr<ReplayPort>> ports(s.topology.hosts.size());
  const testbed::HostStandIn stand_in = [&](uint32_t h, host::PortLinks links, runtime::PoolSet& pools) {
    ports[h] = std::make_unique<ReplayPort>(s.topology.hosts[h].name, frames.arena, frames.per_host[h],
                                            links, pools.data(), first_hop_maps(s, h));
    return static_cast<runtime::Stage*>(ports[h].get());
  };
  auto report = testbed::run_virtual(s, registry, command_line, capture, stand_in, series);
  if (!report) return Error{report.error().message};
  ThroughResult out{std::move(report).value(), {}};
  out.replay = replay_json(s, frames, options, ports);
  return out;
}

}  // namespace rtb::replay
