// A SONiC config_db.json as read by the importer: the JSON, and where each table, entry
// and field is in the text (the JSON library keeps no positions), for the file:line of
// every key and finding.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "params/imported.h"

namespace rtb::params {

struct ConfigDb {
  std::string path;
  std::string text;
  nlohmann::json root;

  // The line of "table" -> "entry" -> "field" (each searched after the one before it),
  // the deepest found.
  Origin at(const std::string& table, const std::string& entry = "", const std::string& field = "") const;
  // A field's string value ("" when absent or not a string or number).
  std::string field(const std::string& table, const std::string& entry, const std::string& name) const;
  const nlohmann::json* table(const std::string& name) const;
};

// "[DSCP_TO_TC_MAP|AZURE]" or "AZURE" -> "AZURE" (SONiC wrote references both ways).
std::string reference_name(const std::string& ref);

// A whole number of bytes from a SONiC field, or a finding and nullopt.
std::optional<uint64_t> bytes_field(const ConfigDb& db, const std::string& table, const std::string& entry,
                                    const std::string& name, Imported& out);

// The QoS maps and PORT_QOS_MAP (config_db_qos_maps.cc).
void import_qos_maps(const ConfigDb& db, Imported& out);

}  // namespace rtb::params
