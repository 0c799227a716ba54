#include "plan/scenario_keys.h"

#include <fmt/format.h>

#include <sstream>

#include <toml++/toml.h>

#include "core/write_file.h"
#include "scenario/load.h"
#include "scenario/load_error.h"
#include "scenario/overrides.h"

namespace rtb::plan {
namespace {

std::string bytes(Bytes b) { return fmt::format("{}B", b.count()); }

int first_lossless_tc(const sw::SwitchConfig& c) {
  for (int t = 0; t < sw::kPriorities; ++t) {
    if (c.lossless_tc(t)) return t;
  }
  return 3;
}

// A plan sets static thresholds: a dynamic_th already in the file would contradict them.
void drop_dynamic_th(toml::table& root) {
  if (toml::table* pg = root.at_path("switch.pg_lossless").as_table()) pg->erase("dynamic_th");
}

}  // namespace

std::vector<std::string> threshold_keys(const sw::SwitchConfig& c) {
  const int tc = first_lossless_tc(c);
  const sw::PgProfile& pg = c.pg[c.maps.tc_to_pg[tc]];
  const sw::WredProfile w = c.wred[tc].value_or(sw::WredProfile{});
  return {
      fmt::format("switch.pfc_enable=[{}]", priority_list(c.pfc_enable)),
      "switch.buffer_pool.size=" + bytes(c.pool.size),
      "switch.buffer_pool.cell=" + bytes(c.pool.cell),
      "switch.buffer_pool.xoff=" + bytes(c.pool.xoff),
      "switch.pg_lossless.static_th=" + bytes(pg.static_th),
      "switch.pg_lossless.xoff=" + bytes(pg.xoff),
      "switch.pg_lossless.xon_offset=" + bytes(pg.xon_offset),
      "switch.wred_profile.green_min_threshold=" + bytes(w.green_min_threshold),
      "switch.wred_profile.green_max_threshold=" + bytes(w.green_max_threshold),
      fmt::format("switch.wred_profile.green_drop_probability={}", w.green_drop_probability),
  };
}

std::string fabric_scenario(const Fabric& f) {
  const int tc = first_lossless_tc(switch_config(f));
  return fmt::format(R"(name = "plan"

[run]
duration = "5ms"

[topology]
kind = "single_switch"
hosts = {}
rate = "{}bps"
cable_length_m = {}
mtu = {}

[[traffic]]
pattern = "incast"
receiver = "h{}"
senders = {}
priority = {}
)",
                     f.ports, f.rate.bps(), f.cable_length_m, f.mtu, f.ports - 1, f.ports - 1, tc);
}

Status write_scenario(const std::string& out_path, const std::string& base_text, const std::string& header,
                      const std::vector<std::string>& keys) {
  toml::table root;
  try {
    root = toml::parse(base_text, out_path);
    drop_dynamic_th(root);
    scenario::apply_overrides(root, scenario::set_overrides(keys));
  } catch (const toml::parse_error& e) {
    return Error{fmt::format("{}: not valid TOML: {}", out_path, e.description())};
  } catch (const scenario::LoadError& e) {
    return Error{e.message};
  }
  std::ostringstream text;
  text << header << "\n" << root << "\n";
  if (auto s = scenario::load_scenario_text(text.str(), out_path); !s) {
    return Error{fmt::format("--write-scenario {}: not written, the scenario would not load:\n{}", out_path,
                             s.error().message)};
  }
  // Whole or not at all: a scenario cut short would load as a different scenario.
  if (Status st = write_file_atomically(out_path, text.str()); !st) {
    return Error{fmt::format("--write-scenario {}: not written: {}", out_path, st.message())};
  }
  return {};
}

}  // namespace rtb::plan
