#include "scenario/port_qos.h"

#include <fmt/format.h>

#include "scenario/did_you_mean.h"
#include "scenario/qos_settings.h"

namespace rtb::scenario {
namespace {

PortQos read_port(Table t, const std::string& name, const sw::SwitchConfig& base) {
  PortQos p{name, t, std::nullopt, read_pfc_enable(t)};
  bool any_map = false;
  for (const char* k : kQosMapKeys) any_map = any_map || t.has(k);
  if (any_map) {
    p.maps = base.maps;
    read_qos_maps(t, *p.maps);
  }
  t.finish();
  return p;
}

// "Ethernet0, Ethernet4, ..., Ethernet60": the names of the switch with the most ports.
std::vector<std::string> port_names(const Topology& topo) {
  std::vector<std::string> names;
  for (const SwitchNode& s : topo.switches) {
    if (s.config.ports.size() <= names.size()) continue;
    names.clear();
    for (const sw::PortConfig& p : s.config.ports) names.push_back(p.name);
  }
  return names;
}

std::string listed(const std::vector<std::string>& names) {
  if (names.size() <= 8) return fmt::format("{}", fmt::join(names, ", "));
  return fmt::format("{}, {}, ..., {}", names[0], names[1], names.back());
}

// A lossless TC of the port must land in a PG with headroom (a lossless buffer profile).
void check_lossless_pgs(const PortQos& p, const sw::SwitchConfig& c) {
  const sw::QosMaps& m = p.maps ? *p.maps : c.maps;
  const uint8_t pfc = p.pfc_enable.value_or(c.pfc_enable);
  for (int tc = 0; tc < sw::kPriorities; ++tc) {
    if (((pfc >> tc) & 1u) == 0 || c.lossless_pg(m.tc_to_pg[tc])) continue;
    const bool map_given = p.maps && p.table.raw().contains("tc_to_pg_map");
    p.table.fail(map_given ? "tc_to_pg_map" : "pfc_enable",
                 fmt::format("lossless TC {} maps to pg{}, whose buffer profile is lossy (no headroom): buffer "
                             "profiles are the switch's, lossless for the PGs [switch] pfc_enable's TCs map to; "
                             "expected a lossless PG for every TC in the port's pfc_enable", tc, m.tc_to_pg[tc]));
  }
}

}  // namespace

PortQosSettings read_port_qos(std::optional<Table> t, const sw::SwitchConfig& base) {
  PortQosSettings q;
  if (!t) return q;
  for (auto&& [k, v] : t->raw()) {
    const std::string name(k.str());
    std::optional<Table> port = t->table(name);
    q.ports.push_back(read_port(*port, name, base));
  }
  q.table = t;
  return q;
}

void apply_port_qos(const PortQosSettings& q, Topology& topo) {
  if (q.ports.empty()) return;
  const std::vector<std::string> names = port_names(topo);
  for (const PortQos& p : q.ports) {
    bool found = false;
    for (SwitchNode& s : topo.switches) {
      for (sw::PortConfig& port : s.config.ports) {
        if (port.name != p.name) continue;
        check_lossless_pgs(p, s.config);
        port.maps = p.maps;
        port.pfc_enable = p.pfc_enable;
        found = true;
      }
    }
    if (found) continue;
    const std::string near = nearest(p.name, names);
    q.table->fail(p.name, fmt::format("no switch has a port of that name: expected one of {}{}", listed(names),
                                      near.empty() ? "" : fmt::format(" (did you mean '{}'?)", near)));
  }
}

}  // namespace rtb::scenario
