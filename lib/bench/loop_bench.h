// `rocetb bench loop SCENARIO`: the closed loop in realtime. The scenario's hosts and
// switches run on the given lcores against the clock, every cable over an in-process
// rte_ring pair (realtime.links = "ring"), data one way, ACKs, CNPs and PFC frames back,
// exactly as `rocetb run` with run.clock = "realtime" runs it. Reports the goodput the
// loop achieved, the wire rate it carried, and whether the run stayed valid (lateness
// within the PFC headroom's budget, no lcore stalled): a run on a machine that cannot
// keep up says so, and `--dilation` slows the scenario until it can.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "bench/report.h"
#include "cc_algos/registry.h"
#include "core/error.h"
#include "core/units.h"
#include "scenario/scenario.h"

namespace rtb::bench {

struct LoopOptions {
  std::string scenario;
  std::vector<std::string> overrides;  // --set KEY=VALUE, applied after the bench's own
  std::vector<unsigned> lcores{0};     // hosts on the first; switches spread over the rest
  Time duration = Time::ms(10);
  uint32_t dilation = 1;
  uint32_t burst = 64;
  std::optional<Time> catch_up;      // nullopt: the scenario's ("auto" by default)
};

// The scenario keys the options stand for (realtime clock, lcores, placement, rings).
std::vector<std::string> loop_overrides(const LoopOptions& o, const std::vector<std::string>& switches);
// The scenario as the bench runs it, loaded with loop_overrides and then the --set ones:
// what the command refuses before anything runs.
struct LoopScenario {
  scenario::Scenario scenario;
  std::vector<std::string> overrides;  // all of them, in order
};
Expected<LoopScenario> loop_scenario(const LoopOptions& o);
// Starts the EAL itself when none runs (as rocetb run does).
Expected<BenchReport> run_loop(const LoopOptions& o, const LoopScenario& s, cc::Registry& registry);
// Both.
Expected<BenchReport> run_loop(const LoopOptions& o, cc::Registry& registry);

}  // namespace rtb::bench
