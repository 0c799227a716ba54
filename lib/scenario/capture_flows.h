// A capture's data streams (capture_streams.h) as flows: one flow per stream, from the
// host mapped to its source address to the host mapped to its destination, carrying the
// captured messages (bytes as captured, start = its first packet's time x time_scale +
// the entry's start). Used by pattern "capture" (traffic_capture.cc) and by
// `rocetb replay --closed-loop`, which compares each flow with its stream.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/error.h"
#include "scenario/capture_endpoints.h"
#include "scenario/capture_streams.h"
#include "scenario/scenario.h"

namespace rtb::scenario {

struct CaptureFlowOptions {
  Time start;               // added to every message's start
  double time_scale = 1.0;  // > 0: stretches (> 1) or compresses (< 1) the capture's times
  // Unset: the stream's own DSCP, and the priority the switches' DSCP_TO_TC_MAP gives it.
  std::optional<uint8_t> priority;
  std::optional<uint8_t> dscp;
  uint32_t traffic = 0;  // the [[traffic]] entry index
};

struct CaptureFlows {
  std::vector<Flow> flows;          // in start order (ids are the loader's)
  std::vector<size_t> stream_of;    // per flow: its index in CaptureStreams::streams
  uint64_t dropped_flows = 0;       // starting at or after run.duration
  uint64_t dropped_messages = 0;    // those flows' messages and late messages of kept flows
  Time first_start = Time::never();  // of every captured message, dropped or not
  Time last_start;
  // "N of M captured flows and K messages start at or after the end of the run ...:
  // dropped; the last starts at T ms, so run.duration = "D" replays them all", or "".
  std::string warning(const CaptureStreams& c, const RunConfig& run) const;
};

// Errors: a message larger than an RC message can be (2^31 bytes, IBTA); every message
// starting at or after run.duration (nothing would be replayed).
Expected<CaptureFlows> flows_from_capture(const CaptureStreams& c, const EndpointMap& map, const Topology& topo,
                                          const RunConfig& run, const CaptureFlowOptions& o);

}  // namespace rtb::scenario
