#include "bench/sim_bench.h"

#include <fmt/format.h>

#include <algorithm>

#include "scenario/load.h"
#include "testbed/run.h"

namespace rtb::bench {
namespace {

struct Speed {
  double wall_seconds;
  double simulated_seconds;
  double frame_hops;
  double polls;
  double windows;  // parallel virtual time only
  double threads;  // 1 unless partitioned
};

Speed speed_of(const nlohmann::ordered_json& run) {
  const double wall = run.at("wall_seconds").get<double>();
  return {wall, static_cast<double>(run.at("simulated_ns").get<uint64_t>()) / 1e9,
          run.at("frame_hops_per_second").get<double>() * wall,
          static_cast<double>(run.value("stage_polls", uint64_t{0})),
          run.contains("partitions") ? static_cast<double>(run["partitions"]["windows"].get<uint64_t>()) : 0.0,
          run.contains("partitions") ? static_cast<double>(run["partitions"]["threads"].get<uint32_t>()) : 1.0};
}

}  // namespace

Expected<scenario::Scenario> sim_scenario(const SimOptions& o) {
  if (o.repeat == 0 || o.repeat > 1000) return Error{fmt::format("--repeat {}: expected 1 .. 1000", o.repeat)};
  auto s = scenario::load_scenario(o.scenario, o.overrides);
  if (!s) return Error{s.error().message};
  if (s->run.clock != scenario::Clock::kVirtual) {
    return Error{fmt::format("{}: run.clock is \"realtime\": bench sim measures virtual time "
                             "(give --set run.clock=virtual)", o.scenario)};
  }
  return s;
}

Expected<BenchReport> run_sim(const SimOptions& o, cc::Registry& registry) {
  auto s = sim_scenario(o);
  if (!s) return s.error();
  return run_sim(o, s.value(), registry);
}

Expected<BenchReport> run_sim(const SimOptions& o, const scenario::Scenario& s, cc::Registry& registry) {
  std::vector<Speed> runs;
  for (uint32_t i = 0; i < o.repeat; ++i) {
    auto r = testbed::run_virtual(s, registry, "rocetb bench sim", {}, {},
                                  testbed::SeriesRequest::discard());
    if (!r) return Error{r.error().message};
    runs.push_back(speed_of(r->run));
  }
  std::sort(runs.begin(), runs.end(), [](const Speed& a, const Speed& b) { return a.wall_seconds < b.wall_seconds; });
  const Speed& best = runs.front();
  const Speed& median = runs[runs.size() / 2];
  BenchReport report;
  report.mode = "sim";
  report.config = {{"scenario", o.scenario}, {"overrides", o.overrides}, {"repeat", o.repeat}};
  report.add("frame_hops_per_s", best.frame_hops / best.wall_seconds, "frame-hops per wall second (fastest run)");
  report.add("frame_hops_per_s_median", median.frame_hops / median.wall_seconds, "frame-hops per wall second (median)");
  report.add("wall_s_per_simulated_s", best.wall_seconds / best.simulated_seconds, "wall s per simulated s (fastest)");
  report.add("wall_seconds", best.wall_seconds, "s (fastest run)");
  report.add("simulated_seconds", best.simulated_seconds, "s");
  report.add("frame_hops", best.frame_hops, "frame-hops");
  if (best.polls > 0) report.add("polls_per_frame_hop", best.polls / best.frame_hops, "stage polls");
  // Parallel virtual time (run.partitions, run.threads): the speed each thread contributes,
  // and how often they waited for each other.
  report.add("partitions", s.run.partitions, "partitions");
  report.add("threads", best.threads, "threads");
  report.add("frame_hops_per_s_per_thread", best.frame_hops / best.wall_seconds / best.threads,
             "frame-hops per wall second per thread (fastest run)");
  if (best.windows > 0) report.add("frame_hops_per_window", best.frame_hops / best.windows, "frame-hops");
  nlohmann::ordered_json walls = nlohmann::ordered_json::array();
  for (const Speed& r : runs) walls.push_back(r.wall_seconds);
  report.details["wall_seconds_sorted"] = walls;
  return report;
}

}  // namespace rtb::bench
