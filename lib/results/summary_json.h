// summary.json: the results model (summary.h) written and read back. Keys in a fixed
// order, times in whole nanoseconds, null for a figure not known; "schema_version" first.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "core/error.h"
#include "results/summary.h"

namespace rtb::results {

nlohmann::ordered_json to_json(const Summary& s);

// `where` names the source in errors ("DIR/summary.json"): one line with the key, the
// value and what was expected. A summary of a newer schema_version is refused.
Expected<Summary> from_json(const nlohmann::ordered_json& j, const std::string& where);

// The file read and parsed.
Expected<Summary> read_summary(const std::string& path);

}  // namespace rtb::results
