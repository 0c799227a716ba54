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

// --map ADDRESS=HOST pairs; the address and host are checked by map_endpoints.
Expected<std::vector<std::pair<std::string, std::string>>> parse_map(const std::vector<std::string>& map) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const std::string& m : map) {
    const size_t eq = m.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == m.size()) {
      return Error{fmt::format("--map {}: expected ADDRESS=HOST, e.g. --map 192.0.2.1=h0", m)};
    }
    out.emplace_back(m.substr(0, eq), m.substr(eq + 1));
  }
  return out;
}

std::vector<std::string> overrides_of(const ClosedLoopArgs& a) {
  std::vector<std::string> o = a.set;
  if (!a.cc.empty()) o.push_back("cc.algorithm=\"" + scenario::command_line_algorithm(a.cc) + "\"");
  return o;
}

std::vector<std::string> tags_of(const ClosedLoopArgs& a) {
  std::vector<std::string> t{"replay=" + std::filesystem::path(a.capture).stem().string()};
  t.insert(t.end(), a.set.begin(), a.set.end());
  if (a.seed) t.push_back("seed=" + *a.seed);
  if (!a.cc.empty()) t.push_back("cc=" + a.cc);
  return t;
}

}  // namespace

int run_closed_loop(const ClosedLoopArgs& a, const std::string& command_line) {
  const auto given = parse_map(a.map);
  const auto seed = parse_seed(a.seed);
  if (!given || !seed) {
    std::fprintf(stderr, "rocetb: %s\n", (!given ? given.error() : seed.error()).message.c_str());
    return 2;
  }
  const auto streams = scenario::read_capture_streams(a.capture);
  if (!streams) {
    std::fprintf(stderr, "rocetb: replay: %s\n", streams.error().message.c_str());
    return 2;
  }
  scenario::CaptureFlows flows;
  const scenario::TrafficSource source = [&](const scenario::Topology& topo, const scenario::RunConfig& run,
                                             std::vector<std::string>& warnings) -> Expected<std::vector<scenario::Flow>> {
    const auto map = scenario::map_endpoints(streams->endpoints, given.value(), topo);
    if (!map) {
      const std::string who = given->empty() ? fmt::format("capture '{}'", a.capture) : std::string("--map");
      return Error{fmt::format("{}: {}", who, map.error().message)};
    }
    auto made = scenario::flows_from_capture(*streams, *map, topo, run, scenario::CaptureFlowOptions{});
    if (!made) return made.error();
    if (std::string w = made->warning(*streams, run); !w.empty()) warnings.push_back(w);
    flows = std::move(made).value();
    return flows.flows;
  };
  auto s = scenario::load_scenario_with_traffic(a.scenario, overrides_of(a), seed.value(), source);
  if (!s) {
    print_error("rocetb", s.error().message);
    return 2;
  }
  nlohmann::ordered_json table;
  RunExtras extras;
  extras.files.names = {"replay.json", "replay.csv"};
  extras.write = [&](const std::string& dir, const testbed::RunReport& r) {
    table = replay::closed_loop_json(*streams, flows, s.value(), r.summary);
    return replay::write_closed_loop(dir, table);
  };
  extras.print = [&](std::ostream& out, const testbed::RunReport&) { replay::print_closed_loop_table(out, table); };
  const RunFolderArgs folder{a.out, tags_of(a), a.force, a.verbose, CaptureArgs{}};
  return run_loaded(s.value(), folder, command_line, extras);
}

}  // namespace rtb::apps
