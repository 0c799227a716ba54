// One run of a scenario, start to finish: size the pools, start the EAL (once
// per process), build the testbed, run it for the scenario's duration with the sampler,
// summarize, drain, and check that every mbuf came back.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cc_algos/registry.h"
#include "core/error.h"
#include "scenario/scenario.h"
#include "tap/capture_request.h"
#include "testbed/sampler.h"
#include "testbed/testbed.h"

namespace rtb::testbed {

struct RunReport {
  nlohmann::ordered_json summary;  // deterministic (summary.h)
  nlohmann::ordered_json run;      // wall time, speed, versions, pools: not deterministic
  std::vector<FlowSample> flow_samples;
  std::vector<QueueSample> queue_samples;
  std::vector<std::string> cc_state_names;
};

// `command_line` is recorded in run.json. With a `capture` request the run writes its
// capture files (lib/tap) and lists them in run.json "captures".
// With `stand_in`, stages of the caller's take the place of hosts (testbed.h, HostStandIn).
Expected<RunReport> run_virtual(const scenario::Scenario& s, cc::Registry& registry,
                                const std::string& command_line, const tap::CaptureRequest& capture = {},
                                const HostStandIn& stand_in = {});

// The same in realtime (run.clock = "realtime", scenario [realtime]): stages on lcores
// against the calibrated TSC. summary.json gets "valid" and "invalid_reason" (the
// lateness check), run.json the lateness report, the clock calibration and the bridges.
// With realtime.role only that process's nodes are built; cables leaving it go through the
// DPDK ports of its ports entries; scripts/merge_results.py joins the processes' results.
// Captured frames leave the lcores through bounded queues that the control thread writes
// out; a full queue is a lost frame, counted per file and interface in run.json.
Expected<RunReport> run_realtime(const scenario::Scenario& s, cc::Registry& registry,
                                 const std::string& command_line, const tap::CaptureRequest& capture = {});

// Both: summary.json and run.json say "complete" (false when a stop request, SIGINT or
// SIGTERM, ended the run before its duration: stop_request.h), and run.json then says
// when in "stopped_early".
void mark_stopped_early(RunReport& r, bool stopped, Time end, Time duration);

}  // namespace rtb::testbed
