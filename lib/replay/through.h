// `rocetb replay CAPTURE --through SCENARIO`: a capture's frames through the scenario's
// switches in virtual time. Every host of the scenario is replaced by a ReplayPort that
// injects the frames of the capture addresses mapped to it (through_frames.h) and counts
// what the switches deliver to it; the switches run as in `rocetb run` (buffer, ECN/AQM,
// PFC, watchdog), so their results are a run's: what they would have marked, paused and
// dropped. The scenario's own [[traffic]] is not run.
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "cc_algos/registry.h"
#include "core/error.h"
#include "replay/through_frames.h"
#include "scenario/scenario.h"
#include "tap/capture_request.h"
#include "testbed/run.h"

namespace rtb::replay {

// Run time after the last frame is due, for the switches to drain, unless given.
inline constexpr Time kThroughTail = Time::ms(1);

// The scenario as the replay runs it: no flows, virtual time, no warm-up, run.duration
// the last frame's due time plus `tail`, every host's path MTU raised to fit the largest
// injected frame (the data pool's frame size), the queues of the frames' priorities
// sampled (queues.csv).
scenario::Scenario through_scenario(scenario::Scenario s, const ThroughFrames& frames, Time tail);

struct ThroughResult {
  testbed::RunReport report;       // the run's results (summary.json, run.json, series)
  nlohmann::ordered_json replay;   // replay.json: what each stand-in host sent and received
};

Expected<ThroughResult> run_through(const scenario::Scenario& s, const ThroughFrames& frames,
                                    const ThroughOptions& options, cc::Registry& registry,
                                    const std::string& command_line, const tap::CaptureRequest& capture,
                                    const testbed::SeriesRequest& series = {});

}  // namespace rtb::replay
