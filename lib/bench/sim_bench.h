// `rocetb bench sim SCENARIO`: the virtual-time speed of a scenario, run `repeat` times
// in this process: frame-hops per wall second (a frame crossing one link is one hop),
// wall seconds per simulated second, and stage polls per frame-hop. The scenario runs
// exactly as `rocetb run` runs it (run.clock must be "virtual"); only speed is reported.
#pragma once

#include <string>
#include <vector>

#include "bench/report.h"
#include "cc_algos/registry.h"
#include "core/error.h"
#include "scenario/scenario.h"

namespace rtb::bench {

struct SimOptions {
  std::string scenario;               // a scenario file
  std::vector<std::string> overrides;  // --set KEY=VALUE
  uint32_t repeat = 3;                // runs; the figures are the fastest run's, with the median
};

// The scenario as the bench runs it, loaded and checked (a virtual-time one, `repeat` in
// range): what the command refuses before anything runs.
Expected<scenario::Scenario> sim_scenario(const SimOptions& o);
Expected<BenchReport> run_sim(const SimOptions& o, const scenario::Scenario& s, cc::Registry& registry);
// Both.
Expected<BenchReport> run_sim(const SimOptions& o, cc::Registry& registry);

}  // namespace rtb::bench
