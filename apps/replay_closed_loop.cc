#include "apps/replay_closed_loop.h"

#include <fmt/format.h>

#include <cstdio>
#include <filesystem>

#include "apps/commands.h"
#include "apps/run_loaded.h"
#include "replay/closed_loop_report.h"
#include "scenario/capture_flows.h"
#include "scenario/cc_settings.h"
#include "scenario/load.h"

namespace rtb::apps {
namespace {

std::vector<scenario::Override> overrides_of(const ReplayArgs& c, const ClosedLoopArgs& a) {
  std::vector<scenario::Override> o = scenario::set_overrides(c.set);
  if (!a.cc.empty()) o.push_back(scenario::cc_override(a.cc));
  return o;
}

std::vector<std::string> tags_of(const ReplayArgs& c, const ClosedLoopArgs& a) {
  std::vector<std::string> t{"replay=" + std::filesystem::path(c.capture).stem().string()};
  t.insert(t.end(), c.set.begin(), c.set.end());
  if (!c.speed.empty()) t.push_back("speed=" + c.speed);
  if (a.seed) t.push_back("seed=" + *a.seed);
  if (!a.cc.empty()) t.push_back("cc=" + a.cc);
  return t;
}

}  // namespace

CLI::Option* add_closed_loop_options(CLI::App& cmd, ClosedLoopArgs& args) {
  CLI::Option* o = cmd.add_option("--closed-loop", args.scenario,
                                  "closed loop: run SCENARIO with its [[traffic]] replaced by the capture's data "
                                  "streams (one flow per stream, its captured messages), each flow compared with the capture")
                       ->check(CLI::ExistingFile);
  cmd.add_option("--cc", args.cc, "--closed-loop: congestion control, a registered name or a plug-in .so path");
  cmd.add_option("--seed", args.seed, "--closed-loop: override run.seed (0 to 2^63-1)");
  cmd.add_flag("--verbose", args.verbose, "--closed-loop: show the DPDK EAL's own output when it fails to start");
  cmd.add_flag("--quiet", args.quiet, "--closed-loop: no progress line on stderr");
  return o;
}

int run_closed_loop(const ReplayArgs& c, const ClosedLoopArgs& a, const std::string& command_line) {
  const auto given = parse_map(c.map);
  const auto seed = parse_seed(a.seed);
  const auto speed = parse_speed(c.speed);
  if (!given || !seed || !speed) {
    std::fprintf(stderr, "rocetb: %s\n", (!given ? given.error() : !seed ? seed.error() : speed.error()).message.c_str());
    return 2;
  }
  const auto streams = scenario::read_capture_streams(c.capture);
  if (!streams) {
    std::fprintf(stderr, "rocetb: replay: %s\n", streams.error().message.c_str());
    return 2;
  }
  scenario::CaptureFlows flows;
  const scenario::TrafficSource source = [&](const scenario::Topology& topo, const scenario::RunConfig& run,
                                             std::vector<std::string>& warnings) -> Expected<std::vector<scenario::Flow>> {
    const auto map = scenario::map_endpoints(streams->endpoints, given.value(), topo);
    if (!map) {
      const std::string who = given->empty() ? fmt::format("capture '{}'", c.capture) : std::string("--map");
      return Error{fmt::format("{}: {}", who, map.error().message)};
    }
    scenario::CaptureFlowOptions options;
    options.time_scale = 1.0 / speed.value();
    auto made = scenario::flows_from_capture(*streams, *map, topo, run, options);
    if (!made) return made.error();
    if (std::string w = made->warning(*streams, run); !w.empty()) warnings.push_back(w);
    flows = std::move(made).value();
    return flows.flows;
  };
  auto s = scenario::load_scenario_with_traffic(a.scenario, overrides_of(c, a), seed.value(), source);
  if (!s) {
    print_error("rocetb", s.error().message);
    return 2;
  }
  s.value().add_file(c.capture);
  nlohmann::ordered_json table;
  RunExtras extras;
  extras.files.names = {"replay.json", "replay.csv"};
  extras.write = [&](const std::string& dir, const testbed::RunReport& r) {
    table = replay::closed_loop_json(*streams, flows, s.value(), r.summary);
    return replay::write_closed_loop(dir, table);
  };
  extras.print = [&](std::ostream& out, const testbed::RunReport&) { replay::print_closed_loop_table(out, table); };
  const RunFolderArgs folder{c.out, tags_of(c, a), c.force, a.verbose, CaptureArgs{}, !c.no_plots, a.quiet};
  return run_loaded(s.value(), folder, command_line, extras);
}

}  // namespace rtb::apps
