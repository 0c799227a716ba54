// Typed reads from a TOML table with the messages the scenario format promises: every
// problem is one line "<file>:<line>: <key.path>: <value as written>...: expected ...",
// or "--set <key.path>: ..." when the value came from a command-line override.
//
// A Table remembers every key the parser asked about (read or not); finish() reports any
// other key as unknown, with the nearest asked-about key as a suggestion. So the list of
// accepted keys is the parser itself and cannot drift from it.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <toml++/toml.h>

#include "core/units.h"

namespace rtb::scenario {

// Where values came from: the file's name and the key paths set by `--set`.
class Origin {
 public:
  // `overridden`: each overridden key path and the option errors name it by.
  Origin(std::string file, std::map<std::string, std::string> overridden)
      : file_(std::move(file)), overridden_(std::move(overridden)) {}
  const std::string& file() const { return file_; }
  // "file:12: key.path: " or "--set key.path: " (the override covering key.path, named by
  // its option).
  std::string prefix(const toml::node* at, std::string_view path) const;
  // Location only, for messages that name the key themselves.
  std::string where(const toml::node* at, std::string_view path) const;
  [[noreturn]] void fail(const toml::node* at, std::string_view path, std::string_view msg) const;
  // For what has no line (a missing table): "<file>: <path>: <msg>".
  [[noreturn]] void fail_file(std::string_view path, std::string_view msg) const;

 private:
  // The overridden key covering `path`, and its option.
  const std::pair<const std::string, std::string>* override_of(std::string_view path) const;
  std::string file_;
  std::map<std::string, std::string> overridden_;
};

// The value as the user wrote it: strings in single quotes, other values as TOML.
std::string written(const toml::node& n);

class Table {
 public:
  Table(const Origin& origin, const toml::table& table, std::string path);

  const Origin& origin() const { return *origin_; }
  const std::string& path() const { return path_; }
  std::string key_path(std::string_view key) const;
  const toml::table& raw() const { return *table_; }

  // The node (nullptr if absent); marks the key as known.
  const toml::node* get(std::string_view key);
  bool has(std::string_view key) { return get(key) != nullptr; }

  // "<where>: <path.key>: <msg>", at the key's line (or the table's if absent).
  [[noreturn]] void fail(std::string_view key, std::string_view msg) const;
  // Same with the value as written first: "'4XB' <msg>".
  [[noreturn]] void fail_value(std::string_view key, std::string_view msg) const;
  [[noreturn]] void fail_table(std::string_view msg) const;  // at the table itself
  // The line fail() would throw, for reporting several problems at once (load_error.h);
  // an empty key means the table itself.
  std::string located(std::string_view key, std::string_view msg) const;
  // The key's line in the file (the table's if absent or empty; 0 if neither has one).
  uint32_t line(std::string_view key) const;
  void require(std::string_view key, std::string_view what);  // missing -> error

  std::optional<Time> opt_time(std::string_view key);
  Time time(std::string_view key, Time def) { return opt_time(key).value_or(def); }
  std::optional<Rate> opt_rate(std::string_view key);
  Rate rate(std::string_view key, Rate def) { return opt_rate(key).value_or(def); }
  std::optional<Bytes> opt_bytes(std::string_view key);
  Bytes bytes(std::string_view key, Bytes def) { return opt_bytes(key).value_or(def); }
  std::optional<int64_t> opt_integer(std::string_view key, int64_t lo, int64_t hi);
  int64_t integer(std::string_view key, int64_t lo, int64_t hi, int64_t def) {
    return opt_integer(key, lo, hi).value_or(def);
  }
  // Integers are accepted where a number is expected.
  std::optional<double> opt_number(std::string_view key, double lo, double hi);
  double number(std::string_view key, double lo, double hi, double def) {
    return opt_number(key, lo, hi).value_or(def);
  }
  std::optional<bool> opt_boolean(std::string_view key);
  bool boolean(std::string_view key, bool def) { return opt_boolean(key).value_or(def); }
  std::optional<std::string> opt_string(std::string_view key);
  std::string string(std::string_view key, std::string def) {
    return opt_string(key).value_or(std::move(def));
  }
  // One of `options`.
  std::string choice(std::string_view key, std::initializer_list<std::string_view> options,
                     std::string def);

  // A sub-table (fails if present and not a table).
  std::optional<Table> table(std::string_view key);
  // An array of tables ([[key]]); empty if absent.
  std::vector<Table> tables(std::string_view key);
  // An array's elements (fails if present and not an array).
  std::optional<std::vector<const toml::node*>> opt_array(std::string_view key);
  // Array of integers, each in [lo, hi].
  std::optional<std::vector<int64_t>> opt_integers(std::string_view key, int64_t lo, int64_t hi);

  // Every key present but never asked about is an error: "unknown key 'a.b' (did you
  // mean 'a.c'?)".
  void finish() const;

 private:
  [[noreturn]] void fail_type(std::string_view key, std::string_view expected) const;
  const Origin* origin_;
  const toml::table* table_;
  std::string path_;
  std::set<std::string, std::less<>> known_;
};

}  // namespace rtb::scenario
