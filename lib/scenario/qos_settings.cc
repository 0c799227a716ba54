#include "scenario/qos_settings.h"

#include <fmt/format.h>

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
// priority group). Replaces `map`.
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
std::string pfc_list(const sw::SwitchConfig& c) {
  std::string out;
  for (int tc = 0; tc < sw::kPriorities; ++tc) {
    if (c.lossless_tc(tc)) out += fmt::format("{}{}", out.empty() ? "" : ", ", tc);
  }
  return "[" + out + "]";
}

}  // namespace

void warn_flows_off_pfc(const Scenario& s, std::vector<std::string>& warnings) {
  if (s.topology.switches.empty()) return;
  const sw::SwitchConfig& c = s.topology.switches.front().config;
  if (c.pfc_enable == 0) return;
  std::set<std::pair<uint32_t, uint8_t>> warned;  // (traffic entry, dscp)
  for (const Flow& f : s.flows) {
    const bool by_pcp = c.maps.trust_dot1p_when_tagged && s.topology.hosts[f.src].vlan_tagged;
    if (by_pcp || !c.lossless_tc(f.priority) || f.dscp >= c.maps.dscp_to_tc.size()) continue;
    const int tc = c.maps.dscp_to_tc[f.dscp];
    if (c.lossless_tc(tc) || !warned.emplace(f.traffic, f.dscp).second) continue;
    warnings.push_back(fmt::format(
        "traffic[{}]: dscp {} maps to TC {} (switch.dscp_to_tc_map), which has no PFC (switch.pfc_enable = {}): a "
        "lossless class whose DSCP maps to a queue without PFC; priority {}'s frames are dropped, not paused, "
        "when the buffer fills", f.traffic, f.dscp, tc, pfc_list(c), f.priority));
  }
}

void read_qos_maps(Table& t, sw::QosMaps& maps) {
  read_map(t.table("dscp_to_tc_map"), maps.dscp_to_tc, "DSCP");
  read_map(t.table("dot1p_to_tc_map"), maps.dot1p_to_tc, "PCP");
  read_map(t.table("tc_to_pg_map"), maps.tc_to_pg, "traffic class");
  maps.trust_dot1p_when_tagged = t.choice("trust", {"dscp", "dot1p"}, trust_name(maps)) == "dot1p";
}

const char* trust_name(const sw::QosMaps& maps) { return maps.trust_dot1p_when_tagged ? "dot1p" : "dscp"; }

}  // namespace rtb::scenario
