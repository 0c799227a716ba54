#include "scenario/load.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

#include "core/read_file.h"
#include "scenario/cc_settings.h"
#include "scenario/effective.h"
#include "scenario/faults.h"
#include "scenario/host_settings.h"
#include "scenario/load_error.h"
#include "scenario/overrides.h"
#include "scenario/qos_settings.h"
#include "scenario/realtime_settings.h"
#include "scenario/run_settings.h"
#include "scenario/series_size.h"
#include "scenario/switch_errors.h"
#include "scenario/switch_settings.h"
#include "scenario/topology_read.h"
#include "scenario/traffic.h"
#include "switch/validate.h"

namespace rtb::scenario {
namespace {

// sw::validate on every switch: errors refuse the scenario (the first switch with any,
// each error at its key's line; the switches share their settings), warnings are kept.
void validate_switches(const Scenario& s, const Table& top, std::vector<std::string>& warnings) {
  for (const SwitchNode& n : s.topology.switches) {
    const sw::ValidationReport r = sw::validate(n.config);
    if (!r.ok()) fail_switch_errors(top, r.errors, n.config);
    for (const std::string& w : r.warnings) warnings.push_back("switch " + w);
    for (const std::string& w : sw::pool_before_xoff_warnings(n.config)) warnings.push_back("switch " + w);
  }
}

void warn_lossy_flows(const Scenario& s, std::vector<std::string>& warnings) {
  if (s.topology.switches.empty()) return;
  const sw::SwitchConfig& c = s.topology.switches.front().config;
  std::vector<bool> warned(sw::kPriorities, false);
  for (const Flow& f : s.flows) {
    if (c.lossless_tc(f.priority) || warned[f.priority]) continue;
    warned[f.priority] = true;
    warnings.push_back(fmt::format("traffic[{}]: priority {} is not in switch.pfc_enable: its flows are lossy "
                                   "(no PFC; drops when the buffer fills)", f.traffic, f.priority));
  }
}

// Runs `read`; a LoadError it throws is kept in `errors`, so that independent sections
// (a switch's validation, the CC parameters) report their problems together.
template <typename F>
void keep_going(std::vector<std::string>& errors, F&& read) {
  try {
    read();
  } catch (const LoadError& e) {
    errors.push_back(e.message);
  }
}

void throw_kept(const std::vector<std::string>& errors) {
  std::string message;
  for (const std::string& e : errors) message += (message.empty() ? "" : "\n") + e;
  if (!message.empty()) throw LoadError{message};
}

// The name becomes a results folder's name (results/<name>-<time>): one path component that
// cannot climb out of results/, and printable.
void check_name(Table& top, const std::string& name) {
  if (!top.has("name")) return;  // the file's own stem: already one path component
  const bool control = std::any_of(name.begin(), name.end(), [](char c) { return static_cast<unsigned char>(c) < 0x20; });
  if (name.empty() || name == "." || name == ".." || name.find('/') != std::string::npos || control ||
      name.size() > 100) {
    top.fail_value("name", "is not a folder name: expected 1 to 100 characters without '/' or control "
                           "characters, not '.' or '..'");
  }
}

std::vector<Flow> read_flows(Table& top, Scenario& s, const std::string& base_dir, const TrafficSource* source,
                             uint8_t dscp) {
  if (source == nullptr) {
    std::vector<Table> traffic = top.tables("traffic");
    return read_traffic(traffic, TrafficContext{&s.topology, &s.run, base_dir, &s.warnings, dscp, &s});
  }
  Expected<std::vector<Flow>> flows = (*source)(s.topology, s.run, s.warnings);
  if (!flows) throw LoadError{flows.error().message};
  number_flows(flows.value());
  return std::move(flows).value();
}

Scenario build(Table& top, const std::string& name, std::optional<uint64_t> seed_override,
               const TrafficSource* source) {
  for (const char* k : {"name", "run", "topology", "host", "switch", "cc", "traffic", "faults", "realtime"}) top.get(k);
  top.finish();
  const std::filesystem::path path(name);
  Scenario s;
  s.source = name;
  s.name = top.string("name", path.stem().string());
  check_name(top, s.name);
  s.run = read_run(top.table("run"), seed_override);
  std::optional<Table> topo_table = top.table("topology");
  if (!topo_table) top.origin().fail_file("topology", "missing: expected a [topology] table with a kind");
  s.topology = read_topology(*topo_table);
  check_partition_of(top.table("run"), s.topology);
  const HostSettings host = read_host_settings(top.table("host"), s.topology.mtu);
  apply_host_settings(s.topology, host, s.run.seed);
  apply_switch_settings(s.topology, read_switch_settings(top.table("switch")), *topo_table);
  const std::string base_dir = path.parent_path().string();
  std::vector<std::string> errors;
  keep_going(errors, [&] { validate_switches(s, top, s.warnings); });
  keep_going(errors, [&] { s.cc = read_cc(top.table("cc"), base_dir, s.warnings); });
  throw_kept(errors);
  if (is_plugin_path(s.cc.algorithm)) s.add_file(s.cc.algorithm);
  s.flows = read_flows(top, s, base_dir, source, host.dscp);
  std::vector<Table> faults = top.tables("faults");
  s.faults = read_faults(faults, s.topology, s.run);
  s.realtime = read_realtime(top.table("realtime"), s.topology);
  warn_lossy_flows(s, s.warnings);
  warn_flows_off_pfc(s, s.warnings);
  warn_series_size(s, s.warnings);
  s.effective = effective_json(s);
  return s;
}


Expected<Scenario> load_text(const std::string& text, const std::string& name, const std::vector<Override>& overrides,
                             std::optional<uint64_t> seed_override, const TrafficSource* source) {
  toml::table root;
  try {
    root = toml::parse(text, name);
  } catch (const toml::parse_error& e) {
    return Error{fmt::format("{}:{}: not valid TOML: {}", name, e.source().begin.line, e.description())};
  }
  try {
    const Origin origin(name, apply_overrides(root, overrides));
    Table top(origin, root, "");
    return build(top, name, seed_override, source);
  } catch (const LoadError& e) {
    return Error{e.message};
  }
}

}  // namespace

Expected<Scenario> load_scenario_text(const std::string& text, const std::string& name,
                                      const std::vector<std::string>& overrides,
                                      std::optional<uint64_t> seed_override) {
  return load_text(text, name, set_overrides(overrides), seed_override, nullptr);
}

Expected<Scenario> load_scenario(const std::string& path, const std::vector<std::string>& overrides,
                                 std::optional<uint64_t> seed_override) {
  return load_scenario_from_options(path, set_overrides(overrides), seed_override);
}

Expected<Scenario> load_scenario_from_options(const std::string& path, const std::vector<Override>& overrides,
                                              std::optional<uint64_t> seed_override) {
  auto text = read_regular_file(path, kMaxScenarioBytes, "a scenario file (TOML)");
  if (!text) return Error{text.error().message};
  return load_text(text.value(), path, overrides, seed_override, nullptr);
}

Expected<Scenario> load_scenario_with_traffic(const std::string& path, const std::vector<Override>& overrides,
                                              std::optional<uint64_t> seed_override, const TrafficSource& traffic) {
  auto text = read_regular_file(path, kMaxScenarioBytes, "a scenario file (TOML)");
  if (!text) return Error{text.error().message};
  return load_text(text.value(), path, overrides, seed_override, &traffic);
}

}  // namespace rtb::scenario
