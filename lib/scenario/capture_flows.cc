#include "scenario/capture_flows.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "analyze/names.h"
#include "host/requester.h"

namespace rtb::scenario {
namespace {

Time scaled(Time t, double scale) {
  if (scale == 1.0) return t;
  return Time::ps(static_cast<uint64_t>(std::llround(static_cast<double>(t.ps()) * scale)));
}

uint8_t priority_of(uint8_t dscp, const Topology& topo, uint8_t fallback) {
  if (topo.switches.empty()) return fallback;
  return topo.switches.front().config.maps.dscp_to_tc[dscp];
}

// A run long enough for every captured message to start: at least a millisecond past the
// last start, in whole milliseconds.
std::string duration_for_all(Time last_start) {
  return fmt::format("{}ms", last_start.ns() / 1'000'000 + 2);
}

double ms(Time t) { return static_cast<double>(t.ns()) / 1e6; }

}  // namespace

std::string CaptureFlows::warning(const CaptureStreams& c, const RunConfig& run) const {
  if (dropped_messages == 0) return "";
  return fmt::format("capture '{}': {} of {} captured flows and {} messages start at or after the end of the run "
                     "(run.duration = {} ns): dropped; the last starts at {:.3f} ms, so run.duration = \"{}\" "
                     "replays them all", c.path, dropped_flows, c.streams.size(), dropped_messages, run.duration.ns(),
                     ms(last_start), duration_for_all(last_start));
}

Expected<CaptureFlows> flows_from_capture(const CaptureStreams& c, const EndpointMap& map, const Topology& topo,
                                          const RunConfig& run, const CaptureFlowOptions& o) {
  CaptureFlows out;
  for (size_t i = 0; i < c.streams.size(); ++i) {
    const CapturedStream& s = c.streams[i];
    Flow f;
    f.src = map.host_of(s.key.src).value();
    f.dst = map.host_of(s.key.dst).value();
    f.dscp = o.dscp.value_or(s.dscp);
    f.priority = o.priority.value_or(priority_of(f.dscp, topo, f.priority));
    f.traffic = o.traffic;
    uint64_t total = 0;
    for (const CapturedMessage& m : s.messages) {
      if (m.bytes > host::Requester::kMaxMessageBytes) {
        return Error{fmt::format("capture '{}': a message of {} bytes from {} to {} is larger than an RC message "
                                 "can be: expected at most 2^31 bytes", c.path, m.bytes, analyze::ip_text(s.key.src),
                                 analyze::ip_text(s.key.dst))};
      }
      const Time start = o.start + scaled(m.first, o.time_scale);
      out.first_start = std::min(out.first_start, start);
      out.last_start = std::max(out.last_start, start);
      if (start >= run.duration) {
        ++out.dropped_messages;
        continue;
      }
      f.messages.push_back(Message{Bytes(m.bytes), start});
      total += m.bytes;
    }
    if (f.messages.empty()) {
      ++out.dropped_flows;
      continue;
    }
    f.size = Bytes(total);
    f.start = f.messages.front().start;
    out.flows.push_back(std::move(f));
    out.stream_of.push_back(i);
  }
  if (out.flows.empty()) {  // a run of nothing would look like a replay that went wrong
    return Error{fmt::format("capture '{}': every captured message starts at or after the end of the run (the first "
                             "at {:.3f} ms, the last at {:.3f} ms, from the capture's first frame; run.duration = {} "
                             "ns): expected run.duration above {:.3f} ms, and \"{}\" replays them all", c.path,
                             ms(out.first_start), ms(out.last_start), run.duration.ns(), ms(out.first_start),
                             duration_for_all(out.last_start))};
  }
  // Streams are in order of their first packet, so already in start order: kept stable.
  std::vector<size_t> order(out.flows.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return out.flows[a].start < out.flows[b].start; });
  CaptureFlows sorted{{}, {}, out.dropped_flows, out.dropped_messages, out.first_start, out.last_start};
  for (size_t k : order) {
    sorted.flows.push_back(std::move(out.flows[k]));
    sorted.stream_of.push_back(out.stream_of[k]);
  }
  return sorted;
}

}  // namespace rtb::scenario
