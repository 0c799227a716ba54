// A SONiC config_db.json: BUFFER_POOL, BUFFER_PROFILE (the lossless PG's, the lossy
// ones), WRED_PROFILE and the queues it is on (QUEUE), PFC_WD, PORT speed and MTU,
// CABLE_LENGTH, and the QoS maps (config_db_qos_maps.cc). Field meanings: sonic-buildimage
// src/sonic-yang-models (sonic-buffer-*.yang, sonic-wred-profile.yang, sonic-pfcwd.yang).
#include <fmt/format.h>

#include <map>
#include <set>

#include "params/config_db.h"
#include "params/sources.h"
#include "params/threshold_units.h"

namespace rtb::params {
namespace {

using nlohmann::json;

std::string bytes_value(uint64_t b) { return quoted(std::to_string(b) + "B"); }

void set_bytes(const ConfigDb& db, const std::string& table, const std::string& entry, const std::string& field,
               const std::string& to_table, const std::string& to_name, Imported& out) {
  if (db.field(table, entry, field).empty()) return;
  if (const auto b = bytes_field(db, table, entry, field, out)) {
    out.set(to_table, to_name, bytes_value(*b), db.at(table, entry, field), table + "|" + entry + "." + field,
            db.field(table, entry, field));
  }
}

void not_modelled(const ConfigDb& db, const std::string& table, const std::string& entry, const std::string& field,
                  const std::string& why, Imported& out) {
  out.find(db.at(table, entry, field), table + "|" + entry + (field.empty() ? "" : "." + field),
           field.empty() ? "{...}" : db.field(table, entry, field), why);
}

void import_pools(const ConfigDb& db, Imported& out) {
  const json* pools = db.table("BUFFER_POOL");
  if (pools == nullptr) return;
  for (const auto& [name, pool] : pools->items()) {
    if (name == "ingress_lossless_pool") {
      set_bytes(db, "BUFFER_POOL", name, "size", "switch.buffer_pool", "size", out);
      set_bytes(db, "BUFFER_POOL", name, "xoff", "switch.buffer_pool", "xoff", out);
    } else {
      not_modelled(db, "BUFFER_POOL", name, "size",
                   "rocetb's switch has one lossless pool (ingress_lossless_pool) and a lossy pool on top of it "
                   "(switch.buffer_pool.lossy_size), where SONiC's egress pools share the same memory: not imported",
                   out);
    }
  }
}

// The lossless PG's profile: the one BUFFER_PG puts on a PG, with an xoff; else any with one.
std::string lossless_profile(const ConfigDb& db) {
  if (const json* pgs = db.table("BUFFER_PG")) {
    for (const auto& [key, pg] : pgs->items()) {
      const std::string profile = reference_name(pg.value("profile", std::string()));
      if (!db.field("BUFFER_PROFILE", profile, "xoff").empty()) return profile;
    }
  }
  if (const json* profiles = db.table("BUFFER_PROFILE")) {
    for (const auto& [name, p] : profiles->items()) {
      if (p.contains("xoff")) return name;
    }
  }
  return "";
}

void import_threshold(const ConfigDb& db, const std::string& profile, const std::string& to, Imported& out) {
  set_bytes(db, "BUFFER_PROFILE", profile, "static_th", to, "static_th", out);
  const std::string dyn = db.field("BUFFER_PROFILE", profile, "dynamic_th");
  if (dyn.empty()) return;
  const Origin at = db.at("BUFFER_PROFILE", profile, "dynamic_th");
  try {
    const int d = std::stoi(dyn);
    if (d < -8 || d > 8) throw std::out_of_range(dyn);
    out.set(to, "dynamic_th", std::to_string(d), at, "BUFFER_PROFILE|" + profile + ".dynamic_th", dyn);
  } catch (const std::exception&) {
    out.find(at, "BUFFER_PROFILE|" + profile + ".dynamic_th", dyn,
             "expected a whole number -8..8 (the limit is 2^dynamic_th x the free buffer): not imported");
  }
}

void import_profiles(const ConfigDb& db, Imported& out) {
  const json* profiles = db.table("BUFFER_PROFILE");
  if (profiles == nullptr) return;
  const std::string lossless = lossless_profile(db);
  for (const auto& [name, p] : profiles->items()) {
    if (name == lossless) {
      set_bytes(db, "BUFFER_PROFILE", name, "size", "switch.pg_lossless", "size", out);
      set_bytes(db, "BUFFER_PROFILE", name, "xoff", "switch.pg_lossless", "xoff", out);
      set_bytes(db, "BUFFER_PROFILE", name, "xon_offset", "switch.pg_lossless", "xon_offset", out);
      import_threshold(db, name, "switch.pg_lossless", out);
      if (p.contains("xon") && !p.contains("xon_offset")) {
        not_modelled(db, "BUFFER_PROFILE", name, "xon",
                     "rocetb resumes a PG at its XOFF point minus switch.pg_lossless.xon_offset (one MTU by "
                     "default); SONiC's xon is the size of the XON region, not that offset: not imported",
                     out);
      }
    } else if (name.find("ingress_lossy") != std::string::npos) {
      set_bytes(db, "BUFFER_PROFILE", name, "size", "switch.pg_lossy", "size", out);
      import_threshold(db, name, "switch.pg_lossy", out);
    } else if (name.find("egress_lossy") != std::string::npos) {
      import_threshold(db, name, "switch.egress_lossy", out);
    } else {
      not_modelled(db, "BUFFER_PROFILE", name, "",
                   "rocetb has one lossless PG profile (" + (lossless.empty() ? "none found" : lossless) +
                       "), ingress_lossy_profile and egress_lossy_profile; it does not limit lossless egress "
                       "queues: not imported",
                   out);
    }
  }
}

void import_pfcwd(const ConfigDb& db, Imported& out) {
  const json* wd = db.table("PFC_WD");
  if (wd == nullptr) return;
  for (const auto& [port, e] : wd->items()) {
    if (port == "GLOBAL") {
      const std::string poll = db.field("PFC_WD", port, "POLL_INTERVAL");
      if (!poll.empty()) {
        out.set("switch.pfcwd", "poll_interval", quoted(poll + "ms"), db.at("PFC_WD", port, "POLL_INTERVAL"),
                "PFC_WD|GLOBAL.POLL_INTERVAL", poll);
      }
      continue;
    }
    out.set("switch.pfcwd", "enabled", "true", db.at("PFC_WD", port), "PFC_WD|" + port, "{...}");
    const std::string action = db.field("PFC_WD", port, "action");
    if (action == "drop" || action == "forward" || action == "alert") {
      out.set("switch.pfcwd", "action", quoted(action), db.at("PFC_WD", port, "action"), "PFC_WD|" + port + ".action",
              action);
    } else if (!action.empty()) {
      out.find(db.at("PFC_WD", port, "action"), "PFC_WD|" + port + ".action", action,
               "expected drop, forward or alert: not imported");
    }
    for (const char* f : {"detection_time", "restoration_time"}) {
      const std::string ms = db.field("PFC_WD", port, f);
      if (!ms.empty()) {
        out.set("switch.pfcwd", f, quoted(ms + "ms"), db.at("PFC_WD", port, f), "PFC_WD|" + port + "." + f, ms);
      }
    }
  }
}

// The WRED profile on the queues (QUEUE table), its thresholds checked for their unit.
void import_wred(const ConfigDb& db, Imported& out) {
  const json* profiles = db.table("WRED_PROFILE");
  if (profiles == nullptr || profiles->empty()) return;
  std::set<int> queues;
  std::string used;
  if (const json* q = db.table("QUEUE")) {
    for (const auto& [key, e] : q->items()) {
      if (!e.contains("wred_profile")) continue;
      used = reference_name(e.value("wred_profile", std::string()));
      const std::string range = key.substr(key.find('|') + 1);
      const int from = range[0] - '0', to = range.back() - '0';
      for (int i = from; i <= to && i >= 0 && i < 8; ++i) queues.insert(i);
    }
  }
  if (used.empty()) used = profiles->begin().key();
  uint64_t buffer = 0;
  if (const Key* size = out.get("switch.buffer_pool", "size")) buffer = std::stoull(size->value.substr(1));
  for (const auto& [name, p] : profiles->items()) {
    if (name != used) {
      not_modelled(db, "WRED_PROFILE", name, "",
                   "rocetb has one WRED profile for every queue with an AQM (" + used + " is written): not imported",
                   out);
      continue;
    }
    for (const char* f : {"green_min_threshold", "green_max_threshold"}) {
      if (db.field("WRED_PROFILE", name, f).empty()) continue;
      if (const auto b = bytes_field(db, "WRED_PROFILE", name, f, out)) {
        check_threshold_unit(out, db.at("WRED_PROFILE", name, f), "WRED_PROFILE|" + name + "." + f, *b, buffer);
        set_bytes(db, "WRED_PROFILE", name, f, "switch.wred_profile", f, out);
      }
    }
    const std::string drop = db.field("WRED_PROFILE", name, "green_drop_probability");
    if (!drop.empty()) {
      out.set("switch.wred_profile", "green_drop_probability", drop,
              db.at("WRED_PROFILE", name, "green_drop_probability"), "WRED_PROFILE|" + name + ".green_drop_probability",
              drop);
    }
    for (const char* f : {"wred_green_enable", "ecn"}) {
      const std::string v = db.field("WRED_PROFILE", name, f);
      if (v.empty()) continue;
      out.set("switch.wred_profile", f, std::string(f) == "ecn" ? quoted(v) : v, db.at("WRED_PROFILE", name, f),
              "WRED_PROFILE|" + name + "." + f, v);
    }
    for (const auto& [field, v] : p.items()) {
      if (field.starts_with("yellow") || field.starts_with("red") || field.starts_with("wred_yellow") ||
          field.starts_with("wred_red")) {
        not_modelled(db, "WRED_PROFILE", name, field, "rocetb colours every frame green: not imported", out);
      }
    }
  }
  if (!queues.empty()) {
    std::string list;
    for (int q : queues) list += fmt::format("{}{}", list.empty() ? "" : ", ", q);
    out.set("switch", "wred_queues", "[" + list + "]", db.at("QUEUE"), "QUEUE ... wred_profile", used);
  }
}

void import_ports(const ConfigDb& db, Imported& out) {
  if (const json* ports = db.table("PORT"); ports != nullptr && !ports->empty()) {
    const std::string first = ports->begin().key();
    const std::string speed = db.field("PORT", first, "speed");  // Mb/s
    if (!speed.empty()) {
      out.set("topology", "rate", quoted(speed + "Mbps"), db.at("PORT", first, "speed"), "PORT|" + first + ".speed",
              speed);
    }
    const std::string mtu = db.field("PORT", first, "mtu");
    if (!mtu.empty()) out.set("topology", "mtu", mtu, db.at("PORT", first, "mtu"), "PORT|" + first + ".mtu", mtu);
    const size_t n = std::min<size_t>(std::max<size_t>(ports->size(), 2), 1024);
    out.set("topology", "hosts", std::to_string(n), db.at("PORT"), "PORT", fmt::format("{} ports", ports->size()));
  }
  if (const json* cable = db.table("CABLE_LENGTH"); cable != nullptr && !cable->empty()) {
    const auto first_cable = cable->begin();  // not items(): its proxy is a temporary
    const std::string& name = first_cable.key();
    const json& lengths = first_cable.value();
    if (lengths.is_object() && !lengths.empty()) {
      const std::string port = lengths.begin().key();
      const std::string m = lengths.begin()->get<std::string>();
      if (!m.empty() && m.back() == 'm') {
        out.set("topology", "cable_length_m", m.substr(0, m.size() - 1), db.at("CABLE_LENGTH", name, port),
                "CABLE_LENGTH|" + name + "." + port, m);
      }
    }
  }
}

}  // namespace

Status import_config_db(const std::string& path, const std::string& text, Imported& out) {
  ConfigDb db{path, text, {}};
  try {
    db.root = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    return Error{fmt::format("{}: not valid JSON: {}", path, e.what())};
  }
  if (!db.root.is_object()) return Error{fmt::format("{}: expected a JSON object of SONiC tables", path)};
  import_ports(db, out);
  import_pools(db, out);
  import_profiles(db, out);
  import_wred(db, out);
  import_pfcwd(db, out);
  import_qos_maps(db, out);
  return {};
}

}  // namespace rtb::params
