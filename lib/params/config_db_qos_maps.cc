// config_db.json's QoS maps (DSCP_TO_TC_MAP, DOT1P_TO_TC_MAP, TC_TO_PRIORITY_GROUP_MAP,
// TC_TO_QUEUE_MAP) and PORT_QOS_MAP (which map each port uses, pfc_enable). The setting
// most ports share goes to [switch]; a port that differs gets [switch.port_qos."PORT"].
// PFC_PRIORITY_TO_QUEUE_MAP is checked against the model's identity map, not imported.
#include <fmt/format.h>

#include <array>
#include <charconv>
#include <map>

#include "params/config_db.h"

namespace rtb::params {
namespace {

using nlohmann::json;

struct MapKind {
  const char* table;  // SONiC table
  const char* key;    // scenario key and PORT_QOS_MAP field
  int from;           // keys 0 .. from-1
};

constexpr std::array<MapKind, 4> kMaps{{
    {"DSCP_TO_TC_MAP", "dscp_to_tc_map", 64},
    {"DOT1P_TO_TC_MAP", "dot1p_to_tc_map", 8},
    {"TC_TO_PRIORITY_GROUP_MAP", "tc_to_pg_map", 8},
    {"TC_TO_QUEUE_MAP", "tc_to_queue_map", 8},
}};

std::optional<int> small_int(const std::string& s, int below) {
  int v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc{} || end != s.data() + s.size() || v < 0 || v >= below) return std::nullopt;
  return v;
}

// A map entry's value as written: SONiC writes strings, a hand-edited file may have numbers.
std::string entry_text(const json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }

// A map as an inline table { "0" = 1, ... } in key order, bad entries found and left out.
std::string map_text(const ConfigDb& db, const MapKind& k, const std::string& name, Imported& out, bool& identity) {
  std::map<int, int> entries;
  for (const auto& [from, to] : db.table(k.table)->at(name).items()) {
    const std::string v = entry_text(to);
    const auto f = small_int(from, k.from);
    const auto t = small_int(v, 8);
    if (!f || !t) {
      out.find(db.at(k.table, name, from), std::string(k.table) + "|" + name + "." + from, v,
               fmt::format("expected a key 0..{} and a value 0..7: entry not imported (SONiC sends what a map does "
                           "not list to 0)",
                           k.from - 1));
      continue;
    }
    entries[*f] = *t;
  }
  identity = static_cast<int>(entries.size()) == k.from;
  std::string text;
  for (const auto& [f, t] : entries) {  // what a map does not list goes to 0: zeros are left out
    identity = identity && f == t;
    if (t != 0) text += fmt::format("{}\"{}\" = {}", text.empty() ? "" : ", ", f, t);
  }
  return "{ " + text + " }";
}

// "3,4" -> "[3, 4]".
std::string pfc_list(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c >= '0' && c <= '7') out += fmt::format("{}{}", out.empty() ? "" : ", ", c);
  }
  return "[" + out + "]";
}

struct Setting {
  std::string value;  // map name or pfc_enable text
  std::string port;   // the first port with it
};

// Per PORT_QOS_MAP field: each port's value, and the one most ports share.
std::map<std::string, std::string> port_values(const json& qos, const std::string& field) {
  std::map<std::string, std::string> out;
  for (const auto& [port, e] : qos.items()) {
    if (e.is_object() && e.contains(field) && e[field].is_string()) out[port] = e[field].get<std::string>();
  }
  return out;
}

// The value most ports share, with the port of it that comes first in the file.
Setting most_common(const ConfigDb& db, const std::string& field, const std::map<std::string, std::string>& values) {
  std::map<std::string, int> count;
  for (const auto& [port, v] : values) ++count[v];
  Setting best;
  int best_count = 0;
  uint32_t best_line = 0;
  for (const auto& [port, v] : values) {
    const uint32_t line = db.at("PORT_QOS_MAP", port, field).line;
    if (count[v] > best_count || (count[v] == best_count && v == best.value && line < best_line)) {
      best_count = count[v];
      best = Setting{v, port};
      best_line = line;
    }
  }
  return best;
}

void write_map(const ConfigDb& db, const MapKind& k, const std::string& table, const std::string& ref, const Origin& at,
               const std::string& source, Imported& out) {
  const std::string name = reference_name(ref);
  const json* maps = db.table(k.table);
  if (maps == nullptr || !maps->contains(name)) {
    out.find(at, source, ref, fmt::format("no {} named {} in the file: not imported", k.table, name));
    return;
  }
  bool identity = false;
  const std::string text = map_text(db, k, name, out, identity);
  if (std::string(k.key) == "tc_to_queue_map" && identity && table == "switch") return;  // the default
  out.set(table, k.key, text, at, source, ref);
}

void write_field(const ConfigDb& db, const json& qos, const std::string& field, const MapKind* k, Imported& out) {
  const auto values = port_values(qos, field);
  if (values.empty()) return;
  const Setting common = most_common(db, field, values);
  const auto write = [&](const std::string& table, const std::string& port, const std::string& v) {
    const Origin at = db.at("PORT_QOS_MAP", port, field);
    const std::string source = "PORT_QOS_MAP|" + port + "." + field;
    if (k != nullptr) {
      write_map(db, *k, table, v, at, source, out);
    } else {
      out.set(table, "pfc_enable", table == "switch" ? pfc_list(v) : quoted(v), at, source, v);
    }
  };
  write("switch", common.port, common.value);
  for (const auto& [port, v] : values) {
    if (v != common.value && port != "global") write("switch.port_qos." + quoted(port), port, v);
  }
}

void write_trust(const ConfigDb& db, const json& qos, Imported& out) {
  const Setting dscp = most_common(db, "dscp_to_tc_map", port_values(qos, "dscp_to_tc_map"));
  const Setting dot1p = most_common(db, "dot1p_to_tc_map", port_values(qos, "dot1p_to_tc_map"));
  if (dot1p.port.empty() && !dscp.port.empty()) {
    out.set("switch", "trust", quoted("dscp"), db.at("PORT_QOS_MAP", dscp.port, "dscp_to_tc_map"),
            "PORT_QOS_MAP|" + dscp.port + ".dscp_to_tc_map (no dot1p_to_tc_map)", dscp.value);
  } else if (!dot1p.port.empty()) {
    out.set("switch", "trust", quoted("dot1p"), db.at("PORT_QOS_MAP", dot1p.port, "dot1p_to_tc_map"),
            "PORT_QOS_MAP|" + dot1p.port + ".dot1p_to_tc_map", dot1p.value);
  }
}

// PFC_PRIORITY_TO_QUEUE_MAP (a port's pfc_to_queue_map): the egress queue a received PFC
// frame for a priority pauses. The switch model pauses queue n on priority n, SONiC's
// default; a map that says otherwise cannot be imported, and each such entry is a finding.
void check_pfc_to_queue(const ConfigDb& db, const json* qos, Imported& out) {
  constexpr const char* kTable = "PFC_PRIORITY_TO_QUEUE_MAP";
  const json* maps = db.table(kTable);
  std::map<std::string, std::string> used;  // map name -> the first port that names it
  if (qos != nullptr) {
    for (const auto& [port, ref] : port_values(*qos, "pfc_to_queue_map")) used.emplace(reference_name(ref), port);
  }
  if (used.empty() && maps != nullptr) {
    for (const auto& [name, entries] : maps->items()) used.emplace(name, "");
  }
  for (const auto& [name, port] : used) {
    if (maps == nullptr || !maps->contains(name)) {
      out.find(db.at("PORT_QOS_MAP", port, "pfc_to_queue_map"), "PORT_QOS_MAP|" + port + ".pfc_to_queue_map", name,
               fmt::format("no {} named {} in the file: rocetb pauses queue n on priority n", kTable, name));
      continue;
    }
    if (!maps->at(name).is_object()) {
      out.find(db.at(kTable, name), std::string(kTable) + "|" + name, entry_text(maps->at(name)),
               "expected an object of priority: queue entries: not imported");
      continue;
    }
    for (const auto& [from, to] : maps->at(name).items()) {
      const std::string v = entry_text(to);
      const auto f = small_int(from, 8);
      const auto t = small_int(v, 8);
      if (f && t && *f == *t) continue;
      out.find(db.at(kTable, name, from), std::string(kTable) + "|" + name + "." + from, v,
               f && t ? fmt::format("a PFC frame for priority {} pauses queue {} there, but rocetb's switch pauses "
                                    "queue {} (the map is the identity in the model): not imported",
                                    *f, *t, *f)
                      : "expected a priority 0..7 and a queue 0..7: not imported");
    }
  }
}

}  // namespace

void import_qos_maps(const ConfigDb& db, Imported& out) {
  const json* qos = db.table("PORT_QOS_MAP");
  for (const MapKind& k : kMaps) {
    if (qos != nullptr && !port_values(*qos, k.key).empty()) {
      write_field(db, *qos, k.key, &k, out);
    } else if (const json* maps = db.table(k.table); maps != nullptr && maps->size() == 1) {
      const std::string name = maps->begin().key();
      write_map(db, k, "switch", name, db.at(k.table, name), std::string(k.table) + "|" + name, out);
    }
  }
  check_pfc_to_queue(db, qos, out);
  if (qos == nullptr) return;
  write_field(db, *qos, "pfc_enable", nullptr, out);
  write_trust(db, *qos, out);
}

}  // namespace rtb::params
