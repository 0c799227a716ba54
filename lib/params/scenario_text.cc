#include "params/scenario_text.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <sstream>
#include <utility>
#include <vector>

#include "scenario/load.h"
#include "switch/config.h"

namespace rtb::params {
namespace {

// Tables in the order a reader expects them; others (switch.*) after their parent, in the
// order they were imported.
int rank(const std::string& table) {
  static const std::vector<std::string> kOrder = {"", "run", "topology", "host", "hosts", "switch"};
  const auto it = std::find(kOrder.begin(), kOrder.end(), table);
  if (it != kOrder.end()) return static_cast<int>(it - kOrder.begin());
  if (table.starts_with("switch.port_qos")) return 8;
  if (table.starts_with("switch.")) return 7;
  if (table == "cc") return 9;
  return 10;
}

std::string comment(const Key& k) {
  return fmt::format("  # {}:{}: {} = {}", k.at.file, k.at.line, k.source_name, k.source_value);
}

// The run and topology the sources leave open (each key an import may replace).
std::vector<Key> generated(const Imported& in) {
  const Key* hosts_key = in.get("topology", "hosts");
  const int hosts = hosts_key ? std::stoi(hosts_key->value) : 9;
  std::vector<Key> g = {
      {"", "name", quoted("imported"), {}, "", ""},
      {"run", "duration", quoted("2ms"), {}, "", ""},
      {"topology", "kind", quoted("single_switch"), {}, "", ""},
      {"topology", "hosts", std::to_string(hosts), {}, "", ""},
  };
  return g;
}

// The first lossless priority of the imported pfc_enable ("[3, 4]"), else 3.
int traffic_priority(const Imported& in) {
  const Key* pfc = in.get("switch", "pfc_enable");
  if (pfc == nullptr) return 3;
  const size_t digit = pfc->value.find_first_of("01234567");
  return digit == std::string::npos ? 3 : pfc->value[digit] - '0';
}

// The imported dscp_to_tc_map ({ "26" = 3, ... }) read back as (DSCP, TC) in its order;
// nullopt when no map was imported (the switch then keeps rocetb's default map).
using DscpMap = std::vector<std::pair<int, int>>;
std::optional<DscpMap> imported_dscp_map(const Imported& in) {
  const Key* map = in.get("switch", "dscp_to_tc_map");
  if (map == nullptr) return std::nullopt;
  DscpMap out;
  std::istringstream s(map->value);
  std::string token;
  int dscp = -1;
  for (char c; s >> c;) {
    if (c == '"') {
      std::getline(s, token, '"');
      dscp = std::stoi(token);
    } else if (c == '=' && s >> token) {
      out.emplace_back(dscp, std::stoi(token));
    }
  }
  return out;
}

// A DSCP the switch's DSCP map sends to `tc`: the imported map's first; 26 (SONiC's
// default for TC 3) when no map was imported or none does.
int traffic_dscp(const std::optional<DscpMap>& map, int tc) {
  if (!map) return tc == 4 ? 4 : 26;
  for (const auto& [dscp, to] : *map) {
    if (to == tc) return dscp;
  }
  return 26;
}

// The TC the switch's DSCP map gives `dscp`: the imported map's (a DSCP it does not list
// goes to TC 0), else rocetb's default map's.
int tc_of(const std::optional<DscpMap>& map, int dscp) {
  if (!map) return sw::default_qos_maps().dscp_to_tc[static_cast<size_t>(dscp)];
  for (const auto& [from, tc] : *map) {
    if (from == dscp) return tc;
  }
  return 0;
}

// An (N-1):1 incast. With NCCL's traffic class imported its flows take it (host.nccl_ib_tc)
// on the priority the switch's map gives its DSCP; otherwise the first lossless priority
// with a DSCP the map sends there.
std::string traffic(const Imported& in) {
  const Key* hosts_key = in.get("topology", "hosts");
  const int hosts = hosts_key ? std::stoi(hosts_key->value) : 9;
  const auto map = imported_dscp_map(in);
  const std::string head = fmt::format("\n[[traffic]]\npattern = \"incast\"\nreceiver = \"h{}\"\nsenders = {}\n",
                                       hosts - 1, hosts - 1);
  if (const Key* tc = in.get("host", "nccl_ib_tc")) {
    const int dscp = std::stoi(tc->value) >> 2;
    const int prio = tc_of(map, dscp);
    return fmt::format(
        "\n# Generated, not imported: a {}:1 incast with NCCL's traffic class (host.nccl_ib_tc: DSCP {}) on "
        "priority {}, the traffic class the switch's DSCP map gives it.{}priority = {}\n",
        hosts - 1, dscp, prio, head, prio);
  }
  const int prio = traffic_priority(in);
  return fmt::format(
      "\n# Generated, not imported: a {}:1 incast on priority {} (the first lossless one) with a DSCP that the "
      "switch's DSCP map sends to it.{}priority = {}\ndscp = {}\n",
      hosts - 1, prio, head, prio, traffic_dscp(map, prio));
}

}  // namespace

std::string scenario_text(const Imported& in, const std::vector<std::string>& sources) {
  std::vector<Key> keys = generated(in);
  for (const Key& k : in.keys()) {
    const auto same =
        std::find_if(keys.begin(), keys.end(), [&](const Key& g) { return g.table == k.table && g.name == k.name; });
    if (same != keys.end()) {
      *same = k;
    } else {
      keys.push_back(k);
    }
  }
  std::map<std::string, size_t> first;  // each table's first key: its keys stay together
  for (size_t i = 0; i < keys.size(); ++i) first.emplace(keys[i].table, i);
  std::stable_sort(keys.begin(), keys.end(), [&](const Key& a, const Key& b) {
    return std::pair(rank(a.table), first[a.table]) < std::pair(rank(b.table), first[b.table]);
  });
  std::string out = "# Written by rocetb params import from";
  for (const std::string& s : sources) out += " " + s;
  out += ".\n# Each imported key names its source file and line; keys without a comment are rocetb's choice.\n";
  for (const std::string& n : in.notes()) out += "# " + n + "\n";
  std::string table = "\x01";
  for (const Key& k : keys) {
    if (k.table != table) {
      table = k.table;
      if (!table.empty()) out += "\n[" + table + "]\n";
    }
    out += k.name + " = " + k.value + (k.at.file.empty() ? "" : comment(k)) + "\n";
  }
  return out + traffic(in);
}

Status check_loads(const std::string& text, const std::string& path) {
  auto s = scenario::load_scenario_text(text, path);
  if (!s) return Error{s.error().message};
  return {};
}

}  // namespace rtb::params
