#include "params/imported.h"

#include <fmt/format.h>

#include <algorithm>

namespace rtb::params {

std::string format(const Finding& f) {
  return fmt::format("{}:{}: {} = {}: {}", f.at.file, f.at.line, f.key, f.value, f.reason);
}

void Imported::set(const std::string& table, const std::string& name, const std::string& value, const Origin& at,
                   const std::string& source_name, const std::string& source_value) {
  for (Key& k : keys_) {
    if (k.table != table || k.name != name) continue;
    if (k.value == value) return;  // the same value again: the first place stays
    {
      find(at, source_name, source_value,
           fmt::format("{}.{} was also set to {} by {}:{} ({} = {}); the later value, {}, is written", table, name,
                       k.value, k.at.file, k.at.line, k.source_name, k.source_value, value));
    }
    k = Key{table, name, value, at, source_name, source_value};
    return;
  }
  keys_.push_back(Key{table, name, value, at, source_name, source_value});
}

void Imported::find(const Origin& at, const std::string& key, const std::string& value, const std::string& reason) {
  findings_.push_back(Finding{at, key, value, reason});
}

void Imported::sort_findings() {
  std::vector<std::string> files;  // in the order they first appear
  const auto rank = [&](const std::string& f) {
    const auto it = std::find(files.begin(), files.end(), f);
    if (it != files.end()) return static_cast<size_t>(it - files.begin());
    files.push_back(f);
    return files.size() - 1;
  };
  for (const Key& k : keys_) rank(k.at.file);
  for (const Finding& f : findings_) rank(f.at.file);
  std::stable_sort(findings_.begin(), findings_.end(), [&](const Finding& a, const Finding& b) {
    return std::pair(rank(a.at.file), a.at.line) < std::pair(rank(b.at.file), b.at.line);
  });
}

bool Imported::drop(const std::string& table, const std::string& name) {
  const auto it =
      std::find_if(keys_.begin(), keys_.end(), [&](const Key& k) { return k.table == table && k.name == name; });
  if (it == keys_.end()) return false;
  keys_.erase(it);
  return true;
}

const Key* Imported::get(const std::string& table, const std::string& name) const {
  for (const Key& k : keys_) {
    if (k.table == table && k.name == name) return &k;
  }
  return nullptr;
}

std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

}  // namespace rtb::params
