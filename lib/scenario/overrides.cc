#include "scenario/overrides.h"

#include <fmt/format.h>

#include <charconv>

#include "core/utf8.h"
#include "scenario/load_error.h"

namespace rtb::scenario {
namespace {

struct Segment {
  std::string key;
  std::vector<size_t> indices;  // name[i][j]
};

// A malformed override: `text` the part at fault, told as "--set TEXT: WHY", or as its
// option when a command gave it.
struct BadOverride {
  std::string text, why;
};

[[noreturn]] void bad(std::string_view text, std::string_view why) {
  throw BadOverride{std::string(text), std::string(why)};
}

Segment parse_segment(std::string_view s, std::string_view whole) {
  Segment seg;
  const size_t open = s.find('[');
  seg.key = std::string(s.substr(0, open));
  if (seg.key.empty()) bad(whole, "empty key in the path: expected KEY.PATH=VALUE, such as run.seed=7");
  for (size_t i = open; i != std::string_view::npos; i = s.find('[', i)) {
    const size_t close = s.find(']', i);
    size_t index = 0;
    const char* first = s.data() + i + 1;
    const char* last = s.data() + (close == std::string_view::npos ? s.size() : close);
    const auto [end, ec] = std::from_chars(first, last, index);
    if (close == std::string_view::npos || ec != std::errc() || end != last) {
      bad(whole, fmt::format("'{}' is not a key with array indices: expected name[0]", s));
    }
    seg.indices.push_back(index);
    i = close + 1;
    if (i < s.size() && s[i] != '[') bad(whole, fmt::format("'{}': expected '[' after ']'", s));
  }
  return seg;
}

std::vector<Segment> parse_path(std::string_view key) {
  std::vector<Segment> out;
  size_t start = 0;
  while (true) {
    const size_t dot = key.find('.', start);
    out.push_back(parse_segment(key.substr(start, dot - start), key));
    if (dot == std::string_view::npos) return out;
    start = dot + 1;
  }
}

std::string normalized(const std::vector<Segment>& path) {
  std::string s;
  for (const Segment& seg : path) {
    if (!s.empty()) s += '.';
    s += seg.key;
    for (size_t i : seg.indices) s += fmt::format("[{}]", i);
  }
  return s;
}

// The value as TOML if it is one, else the text as a string.
toml::table parse_value(const std::string& text) {
  try {
    toml::table t = toml::parse("v = " + text);
    if (t.size() == 1 && t.contains("v")) return t;
  } catch (const toml::parse_error&) {
  }
  toml::table t;
  t.insert("v", text);
  return t;
}

// Steps into `index` of the array at `node`; `create_table` appends a table when index
// equals the size.
toml::node* step_index(toml::node* node, size_t index, const std::string& path, bool last) {
  toml::array* a = node->as_array();
  if (a == nullptr) bad(path, "indexes something that is not an array");
  if (index == a->size() && !last) a->push_back(toml::table{});
  if (index >= a->size()) {
    bad(path, fmt::format("index {} is past the end of the array ({} elements)", index, a->size()));
  }
  return a->get(index);
}

// Moves `value` (a concrete table, array or value) into place.
void put(toml::table& t, const std::string& key, toml::node& value) {
  value.visit([&](auto& v) { t.insert_or_assign(key, std::move(v)); });
}
void put(toml::array& a, size_t index, toml::node& value) {
  value.visit([&](auto& v) { a.replace(a.cbegin() + static_cast<std::ptrdiff_t>(index), std::move(v)); });
}

void assign(toml::table& root, const std::vector<Segment>& path, toml::node& value, const std::string& name) {
  toml::node* node = nullptr;
  toml::table* table = &root;
  for (size_t s = 0; s < path.size(); ++s) {
    const Segment& seg = path[s];
    const bool last_seg = s + 1 == path.size();
    if (table == nullptr) bad(name, fmt::format("'{}' is inside a value that is not a table", seg.key));
    if (last_seg && seg.indices.empty()) {
      put(*table, seg.key, value);
      return;
    }
    if (!table->contains(seg.key)) {
      if (!seg.indices.empty()) bad(name, fmt::format("there is no array '{}' to index", seg.key));
      table->insert(seg.key, toml::table{});
    }
    node = table->get(seg.key);
    for (size_t i = 0; i < seg.indices.size(); ++i) {
      const bool last_index = last_seg && i + 1 == seg.indices.size();
      if (last_index) {
        step_index(node, seg.indices[i], name, true);  // checks
        put(*node->as_array(), seg.indices[i], value);
        return;
      }
      node = step_index(node, seg.indices[i], name, false);
    }
    table = node->as_table();
  }
}

// Applies KEY=VALUE `o`; its normalized key path.
std::string apply_one(toml::table& root, const std::string& o) {
  if (const auto at = first_invalid_utf8(o)) {
    bad(escape_invalid_utf8(o), fmt::format("byte {} is not UTF-8 text: expected UTF-8 (TOML allows nothing else)",
                                            *at + 1));
  }
  const size_t eq = o.find('=');
  if (eq == std::string::npos) bad(o, "expected KEY=VALUE, such as run.seed=7");
  const std::vector<Segment> path = parse_path(std::string_view(o).substr(0, eq));
  const std::string name = normalized(path);
  toml::table holder = parse_value(o.substr(eq + 1));
  assign(root, path, *holder.get("v"), name);
  return name;
}

}  // namespace

std::vector<Override> set_overrides(const std::vector<std::string>& assignments) {
  std::vector<Override> out;
  for (const std::string& a : assignments) out.push_back({a, ""});
  return out;
}

std::map<std::string, std::string> apply_overrides(toml::table& root, const std::vector<Override>& overrides) {
  std::map<std::string, std::string> paths;
  for (const Override& given : overrides) {
    try {
      const std::string name = apply_one(root, given.assignment);
      paths.insert_or_assign(name, given.option.empty() ? "--set " + name : given.option);
    } catch (const BadOverride& e) {
      throw LoadError{fmt::format("{}: {}", given.option.empty() ? "--set " + e.text : given.option, e.why)};
    }
  }
  return paths;
}

}  // namespace rtb::scenario
