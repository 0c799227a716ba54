// The parts of summary.json (summary.h), each from the counters over the window.
#pragma once

#include <optional>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/units.h"
#include "testbed/baseline.h"
#include "testbed/sampler.h"
#include "testbed/testbed.h"

namespace rtb::testbed {

// Where every figure is counted: from the warm-up's end to the run's.
struct Window {
  Time from;
  Time to;
};

double gbps(uint64_t bytes, Time span);

// One flow's figures (summary_flows.cc). `active_*`: the part of the window the flow ran
// in (from its start or the window's, to its completion or the window's end); empty when
// it ran only before the warm-up ended.
struct FlowFigures {
  nlohmann::ordered_json json;
  uint64_t window_bytes = 0;  // delivered in the window (0 without the destination)
  bool has_dst = false;
  bool finished = false;
  Time completed = Time::never();
  Time active_from;
  Time active_to;
  uint64_t retransmissions = 0;  // in the window (0 without the source)
  uint64_t size_bytes = 0;       // 0: long-lived
  std::optional<double> slowdown;  // FCT over the ideal FCT (ideal_fct.h), finished flows
};
FlowFigures flow_figures(const Testbed& t, const Baseline& b, uint32_t f, const Window& w);

// FCT slowdown over the finished flows that have one, overall and by flow size
// (summary_fct.cc); null when none has.
nlohmann::ordered_json fct_slowdown_json(const std::vector<FlowFigures>& flows);

// Totals a switch adds to (summary_switch.cc).
struct SwitchTotals {
  uint64_t pfc_frames = 0, pfc_frames_total = 0;
  uint64_t drops = 0, drops_total = 0;
  uint64_t data_frames = 0, data_marked = 0;  // through queues that mark ECN
  uint64_t marked_total = 0;
};
nlohmann::ordered_json switch_json(const Testbed& t, const SampleTotals& samples, const Baseline& b,
                                   uint32_t sw, Time end, SwitchTotals& totals);

}  // namespace rtb::testbed
