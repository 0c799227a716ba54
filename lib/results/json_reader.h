// Reading a results file's fields with errors a user can act on: each names the file, the
// field's path in it, the value found and what was expected. A failed read throws
// ReadError, which the reader's caller (summary_read.cc) turns into an Error; nothing
// outside this library sees the exception.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "core/units.h"
#include "results/summary.h"

namespace rtb::results {

struct ReadError {
  std::string message;
};

class JsonReader {
 public:
  using json = nlohmann::ordered_json;
  explicit JsonReader(std::string where) : where_(std::move(where)) {}

  // obj[key] at `path` (obj's own path, "" at the top), which must exist.
  const json& field(const json& obj, const std::string& path, const char* key) const;
  // An array or an object at `path`.
  const json& array(const json& v, const std::string& path) const;
  const json& object(const json& v, const std::string& path) const;

  uint64_t u64(const json& obj, const std::string& path, const char* key) const;
  double number(const json& obj, const std::string& path, const char* key) const;
  bool boolean(const json& obj, const std::string& path, const char* key) const;
  std::string text(const json& obj, const std::string& path, const char* key) const;
  Time ns(const json& obj, const std::string& path, const char* key) const { return Time::ns(u64(obj, path, key)); }
  PerPriority per_priority(const json& obj, const std::string& path, const char* key) const;

  // The same, null read as none; a missing key too when `may_be_absent`.
  std::optional<uint64_t> u64_or_null(const json& obj, const std::string& path, const char* key,
                                      bool may_be_absent = false) const;
  std::optional<double> number_or_null(const json& obj, const std::string& path, const char* key) const;
  std::optional<bool> boolean_or_null(const json& obj, const std::string& path, const char* key,
                                      bool may_be_absent = false) const;
  std::optional<std::string> text_or_null(const json& obj, const std::string& path, const char* key,
                                          bool may_be_absent = false) const;
  std::optional<Time> ns_or_null(const json& obj, const std::string& path, const char* key) const;

  [[noreturn]] void fail(const std::string& path, const json& value, const std::string& expected) const;

  static std::string join(const std::string& path, const char* key) { return path.empty() ? key : path + "." + key; }
  static std::string item(const std::string& path, size_t i) { return path + "[" + std::to_string(i) + "]"; }

 private:
  std::string where_;
};

}  // namespace rtb::results
