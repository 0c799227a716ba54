#include "scenario/qos_settings.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <optional>
#include <set>
#include <string>

namespace rtb::scenario {
namespace {

// The key as a number 0 .. n-1, written without sign or leading zeros; nullopt otherwise.
std::optional<size_t> index_of(const std::string& key, size_t n) {
  size_t v = 0;
  const auto [end, ec] = std::from_chars(key.data(), key.data() + key.size(), v);
  if (ec != std::errc{} || end != key.data() + key.size() || v >= n || std::to_string(v) != key) return std::nullopt;
  return v;
}

// One map: every key a `from` number ("0" ... "N-1"), every value 0 ... 7 (a traffic class or
// priority group or queue). Replaces `map`.
template <size_t N>
void read_map(std::optional<Table> t, std::array<uint8_t, N>& map, std::string_view from) {
  if (!t) return;
  map.fill(0);
  for (auto&& [k, v] : t->raw()) {
    const std::string key(k.str());
    const std::optional<size_t> i = index_of(key, N);
    if (!i) t->fail(key, fmt::format("is not a {}: expected a {} \"0\" ... \"{}\" as the key", from, from, N - 1));
    map[*i] = static_cast<uint8_t>(t->integer(key, 0, sw::kPriorities - 1, 0));
  }
  t->finish();
}

// "[3, 4]".
std::string pfc_list(uint8_t pfc_enable) {
  std::string out;
  for (int tc = 0; tc < sw::kPriorities; ++tc) {
    if ((pfc_enable >> tc) & 1u) out += fmt::format("{}{}", out.empty() ? "" : ", ", tc);
  }
  return "[" + out + "]";
}

// The maps one switch port classifies by, and where the scenario sets them.
struct PortView {
  const sw::QosMaps* maps;
  uint8_t pfc_enable;
  std::string keys;      // "switch." or "switch.port_qos.Ethernet4."
  std::string pfc_keys;  // where its pfc_enable is set
  std::string at;        // "" or " at port Ethernet4"
};

// Every distinct set of maps the switches use: the [switch] one first (if a port uses it),
// then each port's own.
std::vector<PortView> port_views(const Scenario& s) {
  const sw::SwitchConfig& c = s.topology.switches.front().config;
  std::vector<PortView> views{{&c.maps, c.pfc_enable, "switch.", "switch.", ""}};
  bool switch_maps_used = false;
  std::set<std::string> seen;
  for (const SwitchNode& n : s.topology.switches) {
    for (size_t p = 0; p < n.config.ports.size(); ++p) {
      const sw::PortConfig& port = n.config.ports[p];
      switch_maps_used = switch_maps_used || (!port.maps && !port.pfc_enable);
      if ((!port.maps && !port.pfc_enable) || !seen.insert(port.name).second) continue;
      const std::string keys = "switch.port_qos." + port.name + ".";
      views.push_back({&n.config.port_maps(p), n.config.port_pfc_enable(p), port.maps ? keys : "switch.",
                       port.pfc_enable ? keys : "switch.", " at port " + port.name});
    }
  }
  if (!switch_maps_used) views.erase(views.begin());
  return views;
}

// Why frames of a lossless priority with this DSCP (or PCP) land off PFC at a port using
// `v`; "" when they do not. PFC for priority n pauses egress queue n, and a PG's PFC frame
// names every lossless TC of the PG, so the queue must be one of those.
std::string off_pfc(const PortView& v, bool tagged, const Flow& f) {
  const sw::QosMaps& m = *v.maps;
  const bool by_pcp = tagged && m.trust_dot1p_when_tagged;
  const int tc = by_pcp ? m.dot1p_to_tc[f.priority] : m.dscp_to_tc[f.dscp];
  const std::string from = by_pcp ? fmt::format("pcp {}", f.priority) : fmt::format("dscp {}", f.dscp);
  const std::string map = by_pcp ? "dot1p_to_tc_map" : "dscp_to_tc_map";
  if (((v.pfc_enable >> tc) & 1u) == 0) {
    return fmt::format("{} maps to TC {}{} ({}{}), which has no PFC ({}pfc_enable = {})", from, tc, v.at, v.keys, map,
                       v.pfc_keys, pfc_list(v.pfc_enable));
  }
  const int q = m.tc_to_queue[tc];
  if (((v.pfc_enable >> q) & 1u) != 0 && m.tc_to_pg[q] == m.tc_to_pg[tc]) return "";
  return fmt::format("{} maps to TC {}{} and TC {} to queue {} ({}tc_to_queue_map), which the PFC of TC {}'s "
                     "priority group (pg{}) does not pause: PFC for priority n pauses queue n", from, tc, v.at, tc, q,
                     v.keys, tc, m.tc_to_pg[tc]);
}

}  // namespace

void warn_flows_off_pfc(const Scenario& s, std::vector<std::string>& warnings) {
  if (s.topology.switches.empty()) return;
  const sw::SwitchConfig& c = s.topology.switches.front().config;
  const std::vector<PortView> views = port_views(s);
  std::set<std::pair<uint32_t, uint8_t>> checked;  // (traffic entry, dscp)
  for (const Flow& f : s.flows) {
    if (!c.lossless_tc(f.priority) || f.dscp >= c.maps.dscp_to_tc.size()) continue;
    if (!checked.emplace(f.traffic, f.dscp).second) continue;
    for (const PortView& v : views) {
      const std::string why = off_pfc(v, s.topology.hosts[f.src].vlan_tagged, f);
      if (why.empty()) continue;
      warnings.push_back(fmt::format("traffic[{}]: {}: a lossless class whose DSCP maps to a queue without PFC; "
                                     "priority {}'s frames are dropped, not paused, when the buffer fills",
                                     f.traffic, why, f.priority));
      break;
    }
  }
}

std::optional<uint8_t> read_pfc_enable(Table& t) {
  const toml::node* n = t.get("pfc_enable");
  if (n == nullptr) return std::nullopt;
  std::vector<int64_t> list;
  if (const auto* str = n->as_string()) {  // SONiC: "3,4"
    const std::string& v = str->get();
    for (size_t from = 0; from <= v.size() && !v.empty();) {
      const size_t comma = std::min(v.find(',', from), v.size());
      const std::optional<size_t> p = index_of(v.substr(from, comma - from), sw::kPriorities);
      if (!p) t.fail_value("pfc_enable", "is not a list of priorities: expected \"3,4\" or [3, 4] (priorities 0..7)");
      list.push_back(static_cast<int64_t>(*p));
      from = comma + 1;
    }
  } else {
    list = t.opt_integers("pfc_enable", 0, sw::kPriorities - 1).value_or(std::vector<int64_t>{});
  }
  uint8_t bits = 0;
  for (int64_t p : list) bits = static_cast<uint8_t>(bits | (1u << p));
  return bits;
}

void read_qos_maps(Table& t, sw::QosMaps& maps) {
  read_map(t.table("dscp_to_tc_map"), maps.dscp_to_tc, "DSCP");
  read_map(t.table("dot1p_to_tc_map"), maps.dot1p_to_tc, "PCP");
  read_map(t.table("tc_to_pg_map"), maps.tc_to_pg, "traffic class");
  read_map(t.table("tc_to_queue_map"), maps.tc_to_queue, "traffic class");
  maps.trust_dot1p_when_tagged = t.choice("trust", {"dscp", "dot1p"}, trust_name(maps)) == "dot1p";
}

const char* trust_name(const sw::QosMaps& maps) { return maps.trust_dot1p_when_tagged ? "dot1p" : "dscp"; }

}  // namespace rtb::scenario
