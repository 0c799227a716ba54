#include "scenario/switch_errors.h"

#include <fmt/format.h>

#include <array>
#include <cctype>
#include <string_view>

#include "scenario/load_error.h"

namespace rtb::scenario {
namespace {

// The SONiC table a message starts with and the [switch] sub-table that sets it. "pgN"
// and "queueN" follow the table name; the field is the next word.
struct Rule {
  std::string_view sonic;
  std::string_view table;  // "" = decided by the PG's kind
};
constexpr std::array<Rule, 9> kRules{{
    {"BUFFER_POOL ", "switch.buffer_pool"},
    {"BUFFER_PROFILE pg", ""},
    {"BUFFER_PROFILE queue", "switch.egress_lossy"},
    {"SCHEDULER queue", "switch.scheduler"},
    {"WRED_PROFILE queue", "switch.wred_profile"},
    {"STEP queue", "switch.step"},
    {"PIE queue", "switch.pie"},
    {"PFC_WD ", "switch.pfcwd"},
    {"pfc ", "switch.pfc"},
}};

// The word at `at` (letters, digits, '_').
std::string word(std::string_view s, size_t at) {
  size_t end = at;
  while (end < s.size() && (std::isalnum(static_cast<unsigned char>(s[end])) != 0 || s[end] == '_')) ++end;
  return std::string(s.substr(at, end - at));
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// The message without the "<switch name>: " validate() puts first.
std::string_view body(std::string_view message, const sw::SwitchConfig& config) {
  const std::string head = config.name + ": ";
  return message.starts_with(head) ? message.substr(head.size()) : message;
}

const toml::node* node_at(const toml::table& root, std::string_view path) {
  return root.at_path(path).node();
}

// The key's node, else its nearest enclosing table's (nullptr if none is in the file).
const toml::node* nearest_node(const toml::table& root, std::string path) {
  while (true) {
    if (const toml::node* n = node_at(root, path)) return n;
    const size_t dot = path.rfind('.');
    if (dot == std::string::npos) return nullptr;
    path.resize(dot);
  }
}

}  // namespace

std::string switch_error_key(const std::string& message, const sw::SwitchConfig& config) {
  const std::string_view b = body(message, config);
  for (const Rule& r : kRules) {
    if (!b.starts_with(r.sonic)) continue;
    size_t at = r.sonic.size();
    std::string table(r.table);
    if (b[at - 1] != ' ') {  // "pgN " or "queueN "
      const std::string n = word(b, at);
      at += n.size() + 1;
      if (table.empty()) table = config.lossless_pg(std::stoi(n)) ? "switch.pg_lossless" : "switch.pg_lossy";
    }
    const std::string field = lower(word(b, at));
    return field.empty() ? table : table + "." + field;  // POLL_INTERVAL -> poll_interval
  }
  return "switch";
}

void fail_switch_errors(const Table& top, const std::vector<std::string>& errors, const sw::SwitchConfig& config) {
  std::vector<LocatedProblem> problems;
  for (const std::string& e : errors) {
    const std::string path = switch_error_key(e, config);
    const toml::node* node = nearest_node(top.raw(), path);
    const uint32_t line = node != nullptr ? node->source().begin.line : 0;
    const std::string text = node != nullptr ? top.origin().prefix(node, path) + e
                                             : fmt::format("{}: {}: {}", top.origin().file(), path, e);
    problems.push_back({line, text});
  }
  fail_all(std::move(problems));
}

}  // namespace rtb::scenario
