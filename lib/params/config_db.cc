#include "params/config_db.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>

namespace rtb::params {

Origin ConfigDb::at(const std::string& table, const std::string& entry, const std::string& field_name) const {
  size_t pos = 0, found = 0;
  for (const std::string* part : {&table, &entry, &field_name}) {
    if (part->empty()) break;
    const size_t p = text.find("\"" + *part + "\"", pos);
    if (p == std::string::npos) break;
    found = pos = p;
  }
  return Origin{path,
                static_cast<uint32_t>(std::count(text.begin(), text.begin() + static_cast<long>(found), '\n') + 1)};
}

const nlohmann::json* ConfigDb::table(const std::string& name) const {
  const auto it = root.find(name);
  return it != root.end() && it->is_object() ? &*it : nullptr;
}

std::string ConfigDb::field(const std::string& t, const std::string& entry, const std::string& name) const {
  const nlohmann::json* tab = table(t);
  if (tab == nullptr) return "";
  const auto e = tab->find(entry);
  if (e == tab->end() || !e->is_object()) return "";
  const auto f = e->find(name);
  if (f == e->end()) return "";
  if (f->is_string()) return f->get<std::string>();
  if (f->is_number_integer()) return std::to_string(f->get<int64_t>());
  return "";
}

std::string reference_name(const std::string& ref) {
  std::string s = ref;
  if (s.size() >= 2 && s.front() == '[' && s.back() == ']') s = s.substr(1, s.size() - 2);
  const size_t bar = s.find('|');
  return bar == std::string::npos ? s : s.substr(bar + 1);
}

std::optional<uint64_t> bytes_field(const ConfigDb& db, const std::string& table, const std::string& entry,
                                    const std::string& name, Imported& out) {
  const std::string v = db.field(table, entry, name);
  uint64_t n = 0;
  const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
  if (ec == std::errc{} && end == v.data() + v.size() && !v.empty()) return n;
  out.find(db.at(table, entry, name), table + "|" + entry + "." + name, v,
           "not a whole number of bytes (SONiC sizes are bytes): not imported");
  return std::nullopt;
}

}  // namespace rtb::params
