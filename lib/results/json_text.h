// A results file's JSON text: two-space indent, a final line end. JSON text is UTF-8
// (RFC 8259 section 8.1): a path or a name given in another encoding is written with each
// byte that is not UTF-8 replaced by U+FFFD, never refused after the run.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace rtb::results {

inline std::string json_text(const nlohmann::ordered_json& j) {
  return j.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

}  // namespace rtb::results
