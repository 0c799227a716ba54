#include "results/json_reader.h"

#include <fmt/format.h>

namespace rtb::results {
namespace {

// The value as it appears in the file, cut short when long.
std::string shown(const nlohmann::ordered_json& v) {
  std::string s = v.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
  return s.size() > 60 ? s.substr(0, 57) + "..." : s;
}

// A whole number >= 0, however it was stored (a parsed file holds it unsigned, a value
// built in memory from a signed integer signed).
bool is_whole(const nlohmann::ordered_json& v) {
  return v.is_number_unsigned() || (v.is_number_integer() && v.get<int64_t>() >= 0);
}

}  // namespace

void JsonReader::fail(const std::string& path, const json& value, const std::string& expected) const {
  throw ReadError{fmt::format("{}: {} = {}: expected {}", where_, path, shown(value), expected)};
}

const nlohmann::ordered_json& JsonReader::field(const json& obj, const std::string& path, const char* key) const {
  if (!obj.is_object()) fail(path.empty() ? "(top)" : path, obj, "an object");
  const auto it = obj.find(key);
  if (it == obj.end()) throw ReadError{fmt::format("{}: {}: missing", where_, join(path, key))};
  return *it;
}

const nlohmann::ordered_json& JsonReader::array(const json& v, const std::string& path) const {
  if (!v.is_array()) fail(path, v, "an array");
  return v;
}

const nlohmann::ordered_json& JsonReader::object(const json& v, const std::string& path) const {
  if (!v.is_object()) fail(path, v, "an object");
  return v;
}

uint64_t JsonReader::u64(const json& obj, const std::string& path, const char* key) const {
  const json& v = field(obj, path, key);
  if (!is_whole(v)) fail(join(path, key), v, "a whole number >= 0");
  return v.get<uint64_t>();
}

double JsonReader::number(const json& obj, const std::string& path, const char* key) const {
  const json& v = field(obj, path, key);
  if (!v.is_number()) fail(join(path, key), v, "a number");
  return v.get<double>();
}

bool JsonReader::boolean(const json& obj, const std::string& path, const char* key) const {
  const json& v = field(obj, path, key);
  if (!v.is_boolean()) fail(join(path, key), v, "true or false");
  return v.get<bool>();
}

std::string JsonReader::text(const json& obj, const std::string& path, const char* key) const {
  const json& v = field(obj, path, key);
  if (!v.is_string()) fail(join(path, key), v, "a string");
  return v.get<std::string>();
}

PerPriority JsonReader::per_priority(const json& obj, const std::string& path, const char* key) const {
  const json& v = field(obj, path, key);
  const std::string at = join(path, key);
  if (!v.is_array() || v.size() != kPriorities) fail(at, v, "an array of 8 whole numbers (one per priority)");
  PerPriority out{};
  for (size_t i = 0; i < out.size(); ++i) {
    if (!is_whole(v[i])) fail(item(at, i), v[i], "a whole number >= 0");
    out[i] = v[i].get<uint64_t>();
  }
  return out;
}

std::optional<uint64_t> JsonReader::u64_or_null(const json& obj, const std::string& path, const char* key,
                                                bool may_be_absent) const {
  if (may_be_absent && obj.is_object() && !obj.contains(key)) return std::nullopt;
  const json& v = field(obj, path, key);
  if (v.is_null()) return std::nullopt;
  if (!is_whole(v)) fail(join(path, key), v, "a whole number >= 0 or null");
  return v.get<uint64_t>();
}

std::optional<double> JsonReader::number_or_null(const json& obj, const std::string& path, const char* key) const {
  const json& v = field(obj, path, key);
  if (v.is_null()) return std::nullopt;
  if (!v.is_number()) fail(join(path, key), v, "a number or null");
  return v.get<double>();
}

std::optional<bool> JsonReader::boolean_or_null(const json& obj, const std::string& path, const char* key,
                                                bool may_be_absent) const {
  if (may_be_absent && obj.is_object() && !obj.contains(key)) return std::nullopt;
  const json& v = field(obj, path, key);
  if (v.is_null()) return std::nullopt;
  if (!v.is_boolean()) fail(join(path, key), v, "true, false or null");
  return v.get<bool>();
}

std::optional<std::string> JsonReader::text_or_null(const json& obj, const std::string& path, const char* key,
                                                    bool may_be_absent) const {
  if (may_be_absent && obj.is_object() && !obj.contains(key)) return std::nullopt;
  const json& v = field(obj, path, key);
  if (v.is_null()) return std::nullopt;
  if (!v.is_string()) fail(join(path, key), v, "a string or null");
  return v.get<std::string>();
}

std::optional<Time> JsonReader::ns_or_null(const json& obj, const std::string& path, const char* key) const {
  const std::optional<uint64_t> v = u64_or_null(obj, path, key);
  return v ? std::optional<Time>(Time::ns(*v)) : std::nullopt;
}

}  // namespace rtb::results
