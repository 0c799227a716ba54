#include "bench/loop_bench.h"

#include <fmt/format.h>

#include "results/summary_json.h"
#include "scenario/load.h"
#include "testbed/run.h"

namespace rtb::bench {
namespace {

std::string lcore_list(const std::vector<unsigned>& lcores) {
  std::string s;
  for (unsigned l : lcores) s += (s.empty() ? "" : ",") + std::to_string(l);
  return "[" + s + "]";
}

double number(const nlohmann::ordered_json& j, const char* key) {
  return j.contains(key) && j[key].is_number() ? j[key].get<double>() : 0.0;
}

}  // namespace

std::vector<std::string> loop_overrides(const LoopOptions& o, const std::vector<std::string>& switches) {
  std::vector<std::string> v{
      "run.clock=\"realtime\"",
      fmt::format("run.duration=\"{}ns\"", o.duration.ps() / 1000),
      "realtime.links=\"ring\"",
      fmt::format("realtime.lcores={}", lcore_list(o.lcores)),
      fmt::format("realtime.dilation={}", o.dilation),
      fmt::format("realtime.burst={}", o.burst),
  };
  if (o.catch_up) v.push_back(fmt::format("realtime.catch_up=\"{}ns\"", o.catch_up->ps() / 1000));
  // Hosts stay on the first lcore; switches go round the others.
  for (size_t sw = 0; sw < switches.size() && o.lcores.size() > 1; ++sw) {
    v.push_back(fmt::format("realtime.place.{}={}", switches[sw], o.lcores[1 + sw % (o.lcores.size() - 1)]));
  }
  return v;
}

Expected<LoopScenario> loop_scenario(const LoopOptions& o) {
  auto probe = scenario::load_scenario(o.scenario, o.overrides);
  if (!probe) return Error{probe.error().message};
  std::vector<std::string> switches;
  for (const scenario::SwitchNode& sw : probe->topology.switches) switches.push_back(sw.name);
  std::vector<std::string> overrides = loop_overrides(o, switches);
  overrides.insert(overrides.end(), o.overrides.begin(), o.overrides.end());
  auto s = scenario::load_scenario(o.scenario, overrides);
  if (!s) return Error{s.error().message};
  return LoopScenario{std::move(s).value(), std::move(overrides)};
}

Expected<BenchReport> run_loop(const LoopOptions& o, cc::Registry& registry) {
  auto s = loop_scenario(o);
  if (!s) return s.error();
  return run_loop(o, s.value(), registry);
}

Expected<BenchReport> run_loop(const LoopOptions& o, const LoopScenario& s, cc::Registry& registry) {
  auto run = testbed::run_realtime(s.scenario, registry, "rocetb bench loop", {}, testbed::SeriesRequest::discard());
  if (!run) return Error{run.error().message};

  const nlohmann::ordered_json summary = results::to_json(run->summary);
  const nlohmann::ordered_json& totals = summary["totals"];
  const nlohmann::ordered_json& rt = run->run["realtime"];
  BenchReport r;
  r.mode = "loop";
  r.config = {{"scenario", o.scenario}, {"overrides", s.overrides}};
  r.add("goodput_gbps", run->summary.totals.goodput_gbps, "Gb/s delivered after warm-up (scenario time)");
  r.add("wall_seconds", number(run->run, "wall_seconds"), "s");
  r.add("simulated_seconds", number(run->run, "simulated_ns") / 1e9, "s");
  r.add("frame_hops_per_s", number(run->run, "frame_hops_per_second"), "frame-hops per wall second");
  r.add("drops", static_cast<double>(run->summary.counts.drops), "frames");
  r.add("pfc_frames", static_cast<double>(run->summary.counts.pfc_frames), "frames");
  r.add("catch_up_window_overruns", number(rt["catch_up"], "window_overruns"), "");
  r.valid = run->summary.valid.value_or(false);
  r.reason = run->summary.invalid_reason.value_or("");
  r.details["summary_totals"] = totals;
  r.details["realtime"] = rt;
  r.details["bridges"] = run->run["bridges"];
  return r;
}

}  // namespace rtb::bench
