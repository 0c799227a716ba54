// rocetb plan [--rate R --cable-length-m M --mtu B --buffer SIZE --lossless P,... --ports N
//              --cell SIZE | --scenario FILE [--set KEY=VALUE ...] [--switch NAME]]
//             [--oversubscribe N] [--kmin --kmax --pmax --xoff-threshold --headroom
//              --headroom-pool --xon-offset] [--write-scenario FILE]
//
// Plans PFC headroom, XOFF/XON and ECN thresholds for a lossless switch (lib/plan), checks
// a set (the scenario's, or the plan with the values given by option), printing the
// arithmetic, and writes the plan as scenario keys. Exit 0 when the checked set passes, 1
// when a check fails, 2 on bad input.
#include <fmt/format.h>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "apps/commands.h"
#include "core/units_parse.h"
#include "plan/checks.h"
#include "plan/fabric.h"
#include "plan/planner.h"
#include "plan/scenario_keys.h"
#include "plan/threshold_set.h"
#include "scenario/load.h"

namespace rtb::apps {
namespace {

struct Given {  // thresholds given by option, as typed
  std::string kmin, kmax, xoff_threshold, headroom, headroom_pool, xon_offset;
  std::optional<uint32_t> pmax;
};

struct PlanArgs {
  std::string rate = "100Gbps", buffer = "32MB", cell = "256B", lossless = "3,4";
  double cable_length_m = 7;
  uint32_t mtu = 9'216;
  uint32_t ports = 32;
  std::string scenario, switch_name, write_scenario;
  std::vector<std::string> set;
  plan::PlanOptions options;
  Given given;
  std::vector<std::string> fabric_options_given;  // names, to refuse them beside --scenario
};

Expected<Bytes> bytes_option(const char* option, const std::string& text) {
  auto b = parse_bytes(text);
  if (!b) return Error{fmt::format("{} '{}': {}", option, text, b.error().message)};
  return b;
}

Expected<uint8_t> lossless_option(const std::string& text) {
  uint8_t bits = 0;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');) {
    if (item.size() != 1 || item[0] < '0' || item[0] > '7') {
      return Error{fmt::format("--lossless '{}': '{}' is not a priority: expected a list such as 3,4 of 0..7", text, item)};
    }
    bits = static_cast<uint8_t>(bits | (1u << (item[0] - '0')));
  }
  if (bits == 0) return Error{fmt::format("--lossless '{}': expected at least one priority 0..7, such as 3,4", text)};
  return bits;
}

Expected<plan::Fabric> fabric_of(const PlanArgs& a) {
  plan::Fabric f;
  auto rate = parse_rate(a.rate);
  if (!rate) return Error{fmt::format("--rate '{}': {}", a.rate, rate.error().message)};
  if (*rate == Rate::zero()) return Error{fmt::format("--rate '{}': expected a positive rate such as 100Gbps", a.rate)};
  f.rate = *rate;
  if (!(a.cable_length_m >= 0 && a.cable_length_m <= 1e6))
    return Error{fmt::format("--cable-length-m {}: expected 0..1000000 metres", a.cable_length_m)};
  f.cable_length_m = a.cable_length_m;
  if (a.mtu < 1'500 || a.mtu > 16'000) return Error{fmt::format("--mtu {}: expected 1500..16000 bytes", a.mtu)};
  f.mtu = a.mtu;
  if (a.ports < 2 || a.ports > 1'024) return Error{fmt::format("--ports {}: expected 2..1024", a.ports)};
  f.ports = a.ports;
  auto buffer = bytes_option("--buffer", a.buffer);
  if (!buffer) return buffer.error();
  f.buffer = *buffer;
  auto cell = bytes_option("--cell", a.cell);
  if (!cell) return cell.error();
  if (cell->count() < 64 || cell->count() > 4'096) return Error{fmt::format("--cell '{}': expected 64B..4096B", a.cell)};
  f.cell = *cell;
  auto lossless = lossless_option(a.lossless);
  if (!lossless) return lossless.error();
  f.lossless = *lossless;
  return f;
}

// The scenario's switch: --switch NAME, or the one with the most ports (the first of
// those): every switch gets the same [switch] settings, and the most ports share the pool
// the most ways.
Expected<sw::SwitchConfig> scenario_switch(const PlanArgs& a) {
  auto s = scenario::load_scenario(a.scenario, a.set);
  if (!s) return s.error();
  const scenario::SwitchNode* best = nullptr;
  for (const scenario::SwitchNode& n : s->topology.switches) {
    if (!a.switch_name.empty() && n.name == a.switch_name) return n.config;
    if (best == nullptr || n.config.ports.size() > best->config.ports.size()) best = &n;
  }
  if (!a.switch_name.empty() || best == nullptr) {
    return Error{fmt::format("--switch '{}': not a switch of {}: expected one of its switches' names",
                             a.switch_name, a.scenario)};
  }
  return best->config;
}

// The thresholds given by option, each parsed with its option's name in the error.
Expected<plan::ThresholdSet> threshold_set(const Given& g) {
  plan::ThresholdSet t;
  struct Item {
    const char* option;
    const std::string& text;
    std::optional<Bytes>& into;
  };
  for (const Item& i : {Item{"--kmin", g.kmin, t.kmin}, Item{"--kmax", g.kmax, t.kmax},
                        Item{"--xoff-threshold", g.xoff_threshold, t.xoff_threshold},
                        Item{"--headroom", g.headroom, t.headroom},
                        Item{"--headroom-pool", g.headroom_pool, t.headroom_pool},
                        Item{"--xon-offset", g.xon_offset, t.xon_offset}}) {
    if (i.text.empty()) continue;
    auto b = bytes_option(i.option, i.text);
    if (!b) return b.error();
    i.into = *b;
  }
  if (g.pmax && *g.pmax > 100) return Error{fmt::format("--pmax {}: expected a percentage 0..100", *g.pmax)};
  t.pmax_percent = g.pmax;
  return t;
}

std::string read_text(const std::string& path) {
  std::ifstream f(path);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

// The ports' rate and cable, or "differ" when they do (the headroom section names the
// port it plans for).
std::string ports_line(const sw::SwitchConfig& c) {
  const sw::PortConfig& p = c.ports.front();
  for (const sw::PortConfig& q : c.ports) {
    if (q.rate != p.rate || q.propagation != p.propagation || q.mtu != p.mtu) return "rates, cables or MTUs differ";
  }
  return fmt::format("{:g} Gb/s, cable {:.3f} ns one way ({:g} m at 5 ns/m), MTU {} B", p.rate.gbps_f(),
                     static_cast<double>(p.propagation.ps()) / 1e3, static_cast<double>(p.propagation.ps()) / 5e3,
                     p.mtu);
}

std::string inputs_line(const sw::SwitchConfig& c, const std::string& from) {
  return fmt::format("rocetb plan for {} ({}): {} ports, {}, buffer {} B, cell {} B, lossless priorities {}\n\n", from,
                     c.name, c.ports.size(), ports_line(c), c.pool.size.count(), c.pool.cell.count(),
                     plan::priority_list(c.pfc_enable));
}

// Bad input: the message, exit code 2.
int refuse(const std::string& message) {
  print_error("rocetb plan", message);
  return 2;
}

int write(const PlanArgs& a, const plan::Plan& p, const std::optional<plan::Fabric>& fabric) {
  const std::vector<std::string> keys = plan::threshold_keys(p.config);
  const std::string base = fabric ? plan::fabric_scenario(*fabric) : read_text(a.scenario);
  std::string header = "# Written by rocetb plan";
  header += a.scenario.empty() ? " from its options." : " from " + a.scenario + " (its [switch] thresholds replaced).";
  header += "\n# The arithmetic: run rocetb plan --scenario on this file.";
  if (Status st = plan::write_scenario(a.write_scenario, base, header, keys); !st) return refuse(st.message());
  std::cout << "scenario: " << a.write_scenario << " (rocetb run " << a.write_scenario << ")\n";
  return 0;
}

// Checks the scenario's set (or, without one, the plan), with the values given by option;
// true when nothing failed.
bool print_checks(const PlanArgs& a, const sw::SwitchConfig& in, const plan::Plan& p, const plan::ThresholdSet& given) {
  sw::SwitchConfig checked = a.scenario.empty() ? p.config : in;
  if (!a.scenario.empty()) plan::apply(given, checked);
  const uint32_t small = a.options.small_packet_percent;
  const std::vector<plan::Check> checks = plan::check_thresholds(checked, small);
  std::cout << "Check of " << (a.scenario.empty() ? "the planned set" : "the scenario's set")
            << (given.empty() ? "" : " with the values given by option") << ":\n" << plan::describe(checks);
  if (!a.scenario.empty()) {
    const bool planned_ok = !plan::any_failed(plan::check_thresholds(p.config, small));
    std::cout << "  (the planned set " << (planned_ok ? "passes" : "FAILS") << " the same checks)\n";
  }
  return !plan::any_failed(checks);
}

int run(const PlanArgs& a) {
  if (!a.scenario.empty() && !a.fabric_options_given.empty()) {
    return refuse(fmt::format("{}: not with --scenario, whose topology and [switch] give it: expected one of them",
                              a.fabric_options_given.front()));
  }
  std::optional<plan::Fabric> fabric;
  Expected<sw::SwitchConfig> in = Error{""};
  if (a.scenario.empty()) {
    auto f = fabric_of(a);
    if (!f) return refuse(f.error().message);
    fabric = *f;
    in = plan::switch_config(*f);
  } else {
    in = scenario_switch(a);
    if (!in) return refuse(in.error().message);
  }
  auto given = threshold_set(a.given);
  if (!given) return refuse(given.error().message);
  auto p = plan::make_plan(*in, a.options);
  if (!p) return refuse(p.error().message);
  plan::apply(*given, p.value().config);
  std::cout << inputs_line(*in, a.scenario.empty() ? "the options" : a.scenario) << plan::describe(*p) << "\n";
  const bool passed = print_checks(a, *in, *p, *given);
  if (!a.write_scenario.empty() && write(a, *p, fabric) != 0) return 2;
  return passed ? 0 : 1;
}

}  // namespace

Command add_plan_command(CLI::App& app) {
  auto a = std::make_shared<PlanArgs>();
  CLI::App* cmd = app.add_subcommand(
      "plan", "PFC headroom, XOFF/XON and ECN thresholds for a lossless switch, with the arithmetic; checks a set");
  auto fabric = [&](const char* name, auto& value, const char* help) {
    cmd->add_option(name, value, help)->each([a, name](const std::string&) { a->fabric_options_given.push_back(name); });
  };
  fabric("--rate", a->rate, "link speed, e.g. 100Gbps (default 100Gbps)");
  fabric("--cable-length-m", a->cable_length_m, "cable length in metres, 5 ns/m (default 7, mlx5's default)");
  fabric("--mtu", a->mtu, "largest frame in bytes without FCS (default 9216)");
  fabric("--buffer", a->buffer, "lossless buffer, BUFFER_POOL size, e.g. 32MB (default 32MB)");
  fabric("--lossless", a->lossless, "lossless priorities, PORT_QOS_MAP pfc_enable (default 3,4)");
  fabric("--ports", a->ports, "switch ports (default 32)");
  fabric("--cell", a->cell, "MMU cell size (default 256B)");
  cmd->add_option("--scenario", a->scenario, "take the fabric and the set to check from a scenario")
      ->check(CLI::ExistingFile);
  cmd->add_option("--set", a->set, "override a key of --scenario: --set switch.buffer_pool.size=8MB")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  cmd->add_option("--switch", a->switch_name, "the scenario's switch to plan (default the one with the most ports)");
  cmd->add_option("--oversubscribe", a->options.oversubscribe,
                  "headroom pool = every lossless PG's headroom / this (SONiC over_subscribe_ratio; default 1)")
      ->check(CLI::Range(1, 1'000));
  cmd->add_option("--small-packets", a->options.small_packet_percent,
                  "percent of minimum-size frames the headroom must store in whole cells (SONiC "
                  "small_packet_percentage; its stock LOSSLESS_TRAFFIC_PATTERN says 100; default 0)")
      ->check(CLI::Range(0, 100));
  cmd->add_option("--kmin", a->given.kmin, "ECN min threshold to check, e.g. 150KB");
  cmd->add_option("--kmax", a->given.kmax, "ECN max threshold to check, e.g. 1.2MB");
  cmd->add_option("--pmax", a->given.pmax, "ECN max marking probability to check, percent");
  cmd->add_option("--xoff-threshold", a->given.xoff_threshold, "lossless PG static_th (the XOFF point) to check");
  cmd->add_option("--headroom", a->given.headroom, "lossless PG headroom (BUFFER_PROFILE xoff) to check");
  cmd->add_option("--headroom-pool", a->given.headroom_pool, "shared headroom pool (BUFFER_POOL xoff) to check");
  cmd->add_option("--xon-offset", a->given.xon_offset, "lossless PG xon_offset to check");
  cmd->add_option("--write-scenario", a->write_scenario, "write the plan as a scenario `rocetb run` accepts");
  return [a] { return run(*a); };
}

}  // namespace rtb::apps
