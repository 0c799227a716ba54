#include "scenario/toml_table.h"

#include <fmt/format.h>

#include <cmath>
#include <sstream>

#include "core/units_parse.h"
#include "scenario/did_you_mean.h"
#include "scenario/load_error.h"

namespace rtb::scenario {
namespace {

bool covers(std::string_view over, std::string_view path) {
  if (path.substr(0, over.size()) != over) return false;
  return path.size() == over.size() || path[over.size()] == '.' || path[over.size()] == '[';
}

std::string_view type_name(const toml::node& n) {
  switch (n.type()) {
    case toml::node_type::string: return "a string";
    case toml::node_type::integer: return "an integer";
    case toml::node_type::floating_point: return "a number";
    case toml::node_type::boolean: return "a boolean";
    case toml::node_type::table: return "a table";
    case toml::node_type::array: return "an array";
    default: return "a date or time";
  }
}

}  // namespace

const std::pair<const std::string, std::string>* Origin::override_of(std::string_view path) const {
  for (const auto& o : overridden_) {
    if (covers(o.first, path)) return &o;
  }
  return nullptr;
}

std::string Origin::where(const toml::node* at, std::string_view path) const {
  if (const auto* o = override_of(path)) return o->second;
  const uint32_t line = at != nullptr ? at->source().begin.line : 0;
  if (line > 0) return fmt::format("{}:{}", file_, line);
  for (const auto& [key, option] : overridden_) {  // a table an override created on its way
    if (covers(path, key)) return option;
  }
  return file_;
}

std::string Origin::prefix(const toml::node* at, std::string_view path) const {
  if (const auto* o = override_of(path)) {
    return o->first == path ? fmt::format("{}: ", o->second) : fmt::format("{}: {}: ", o->second, path);
  }
  return fmt::format("{}: {}: ", where(at, path), path);
}

void Origin::fail(const toml::node* at, std::string_view path, std::string_view msg) const {
  throw LoadError{prefix(at, path) + std::string(msg)};
}

void Origin::fail_file(std::string_view path, std::string_view msg) const {
  throw LoadError{fmt::format("{}: {}: {}", file_, path, msg)};
}

std::string written(const toml::node& n) {
  if (const auto* s = n.as_string()) return "'" + s->get() + "'";
  std::ostringstream os;
  n.visit([&os](const auto& v) { os << v; });
  std::string text = os.str();
  for (char& c : text) {
    if (c == '\n') c = ' ';
  }
  return text;
}

Table::Table(const Origin& origin, const toml::table& table, std::string path)
    : origin_(&origin), table_(&table), path_(std::move(path)) {}

std::string Table::key_path(std::string_view key) const {
  return path_.empty() ? std::string(key) : path_ + "." + std::string(key);
}

const toml::node* Table::get(std::string_view key) {
  known_.emplace(key);
  return table_->get(key);
}

void Table::fail(std::string_view key, std::string_view msg) const { throw LoadError{located(key, msg)}; }

std::string Table::located(std::string_view key, std::string_view msg) const {
  if (key.empty()) return origin_->prefix(table_, path_) + std::string(msg);
  const toml::node* n = table_->get(key);
  return origin_->prefix(n != nullptr ? n : table_, key_path(key)) + std::string(msg);
}

uint32_t Table::line(std::string_view key) const {
  const toml::node* n = key.empty() ? nullptr : table_->get(key);
  return (n != nullptr ? n : table_)->source().begin.line;
}

void Table::fail_value(std::string_view key, std::string_view msg) const {
  // A check across keys may fail on a key the file leaves at its default (run.sample_interval
  // above a short run.duration): there is no node to quote then.
  const toml::node* n = table_->get(key);
  fail(key, (n != nullptr ? written(*n) : std::string("(not set: its default)")) + " " + std::string(msg));
}

void Table::fail_table(std::string_view msg) const { origin_->fail(table_, path_, msg); }

void Table::fail_type(std::string_view key, std::string_view expected) const {
  const toml::node& n = *table_->get(key);
  fail(key, fmt::format("{} is {}: expected {}", written(n), type_name(n), expected));
}

void Table::require(std::string_view key, std::string_view what) {
  if (!has(key)) fail(key, fmt::format("missing: expected {}", what));
}

template <typename T>
static std::optional<T> parse_unit(Table& t, std::string_view key, Expected<T> (*parse)(std::string_view),
                                   std::string_view expected) {
  const toml::node* n = t.get(key);
  if (n == nullptr) return std::nullopt;
  const auto* s = n->as_string();
  if (s == nullptr) {
    t.fail(key, fmt::format("{} has no unit: expected {} as a string, such as {}", written(*n),
                            expected.substr(0, expected.find(',')), expected.substr(expected.find(',') + 2)));
  }
  Expected<T> v = parse(s->get());
  if (!v) t.fail(key, v.error().message);
  return v.value();
}

std::optional<Time> Table::opt_time(std::string_view key) {
  return parse_unit<Time>(*this, key, &parse_time, "a time, \"10us\"");
}
std::optional<Rate> Table::opt_rate(std::string_view key) {
  return parse_unit<Rate>(*this, key, &parse_rate, "a rate, \"100Gbps\"");
}
std::optional<Bytes> Table::opt_bytes(std::string_view key) {
  return parse_unit<Bytes>(*this, key, &parse_bytes, "a size, \"4MB\"");
}

std::optional<int64_t> Table::opt_integer(std::string_view key, int64_t lo, int64_t hi) {
  const toml::node* n = get(key);
  if (n == nullptr) return std::nullopt;
  const auto* i = n->as_integer();
  if (i == nullptr) fail_type(key, fmt::format("an integer in {}..{}", lo, hi));
  if (i->get() < lo || i->get() > hi) fail_value(key, fmt::format("is out of range: expected {}..{}", lo, hi));
  return i->get();
}

std::optional<double> Table::opt_number(std::string_view key, double lo, double hi) {
  const toml::node* n = get(key);
  if (n == nullptr) return std::nullopt;
  std::optional<double> v;
  if (const auto* f = n->as_floating_point()) v = f->get();
  if (const auto* i = n->as_integer()) v = static_cast<double>(i->get());
  if (!v) fail_type(key, fmt::format("a number in {}..{}", lo, hi));
  if (!std::isfinite(*v) || *v < lo || *v > hi) {
    fail_value(key, fmt::format("is out of range: expected {}..{}", lo, hi));
  }
  return v;
}

std::optional<bool> Table::opt_boolean(std::string_view key) {
  const toml::node* n = get(key);
  if (n == nullptr) return std::nullopt;
  if (!n->is_boolean()) fail_type(key, "true or false");
  return n->as_boolean()->get();
}

std::optional<std::string> Table::opt_string(std::string_view key) {
  const toml::node* n = get(key);
  if (n == nullptr) return std::nullopt;
  if (!n->is_string()) fail_type(key, "a string");
  return n->as_string()->get();
}

std::string Table::choice(std::string_view key, std::initializer_list<std::string_view> options,
                          std::string def) {
  std::string list;
  for (std::string_view o : options) list += (list.empty() ? "'" : ", '") + std::string(o) + "'";
  const toml::node* n = get(key);
  if (n != nullptr && !n->is_string()) fail_type(key, "one of " + list);
  const std::string v = string(key, std::move(def));
  for (std::string_view o : options) {
    if (o == v) return v;
  }
  fail_value(key, "is not allowed: expected one of " + list);
}

std::optional<Table> Table::table(std::string_view key) {
  const toml::node* n = get(key);
  if (n == nullptr) return std::nullopt;
  if (!n->is_table()) fail_type(key, "a table");
  return Table(*origin_, *n->as_table(), key_path(key));
}

std::vector<Table> Table::tables(std::string_view key) {
  std::vector<Table> out;
  const toml::node* n = get(key);
  if (n == nullptr) return out;
  if (!n->is_array()) fail_type(key, fmt::format("an array of tables ([[{}]])", key_path(key)));
  const toml::array& a = *n->as_array();
  for (size_t i = 0; i < a.size(); ++i) {
    const std::string p = fmt::format("{}[{}]", key_path(key), i);
    if (!a[i].is_table()) origin_->fail(&a[i], p, written(a[i]) + " is not a table: expected a table");
    out.emplace_back(*origin_, *a[i].as_table(), p);
  }
  return out;
}

std::optional<std::vector<const toml::node*>> Table::opt_array(std::string_view key) {
  const toml::node* n = get(key);
  if (n == nullptr) return std::nullopt;
  if (!n->is_array()) fail_type(key, "an array");
  std::vector<const toml::node*> out;
  for (const toml::node& e : *n->as_array()) out.push_back(&e);
  return out;
}

std::optional<std::vector<int64_t>> Table::opt_integers(std::string_view key, int64_t lo, int64_t hi) {
  auto elems = opt_array(key);
  if (!elems) return std::nullopt;
  std::vector<int64_t> out;
  for (const toml::node* e : *elems) {
    const auto* i = e->as_integer();
    if (i == nullptr || i->get() < lo || i->get() > hi) {
      fail_value(key, fmt::format("has {}: expected integers in {}..{}", written(*e), lo, hi));
    }
    out.push_back(i->get());
  }
  return out;
}

void Table::finish() const {
  const std::vector<std::string> candidates(known_.begin(), known_.end());
  for (auto&& [k, v] : *table_) {
    if (known_.contains(k.str())) continue;
    const std::string p = key_path(k.str());
    std::string msg = fmt::format("{}: unknown key '{}'", origin_->where(&v, p), p);
    const std::string near = nearest(k.str(), candidates);
    if (!near.empty()) msg += fmt::format(" (did you mean '{}'?)", key_path(near));
    throw LoadError{msg};
  }
}

}  // namespace rtb::scenario
