#include "testbed/results_dir.h"

#include <fmt/format.h>

#include <filesystem>

namespace rtb::testbed {
namespace {

bool allowed(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         c == '.' || c == '_' || c == '+' || c == '=' || c == '-';
}

// One override as "last_key_part=value".
std::string short_form(const std::string& kv) {
  const size_t eq = kv.find('=');
  std::string key = kv.substr(0, eq);
  std::string value = eq == std::string::npos ? "" : kv.substr(eq + 1);
  if (const size_t dot = key.rfind('.'); dot != std::string::npos) key = key.substr(dot + 1);
  std::erase_if(value, [](char c) { return c == '"' || c == '\''; });
  if (const size_t slash = value.rfind('/'); slash != std::string::npos) value = value.substr(slash + 1);
  std::string out = eq == std::string::npos ? key : key + "=" + value;
  for (char& c : out) {
    if (!allowed(c)) c = '_';
  }
  return out;
}

// FNV-1a, 32 bits (Fowler, Noll, Vo): a stable hash, the same on every machine.
uint32_t fnv1a(const std::string& s) {
  uint32_t h = 2166136261u;
  for (unsigned char c : s) h = (h ^ c) * 16777619u;
  return h;
}

}  // namespace

std::string overrides_tag(const std::vector<std::string>& overrides) {
  std::string tag;
  for (const std::string& kv : overrides) tag += (tag.empty() ? "" : ",") + short_form(kv);
  if (tag.size() <= kMaxTagChars) return tag;
  const std::string hash = fmt::format("~{:08x}", fnv1a(tag));
  return tag.substr(0, kMaxTagChars - hash.size()) + hash;
}

Expected<std::string> make_results_dir(const std::string& root, const std::string& scenario,
                                       const std::vector<std::string>& overrides,
                                       const std::tm& local_time) {
  std::error_code ec;
  std::filesystem::create_directories(root, ec);
  if (ec) return Error{fmt::format("cannot create results folder {}: {}", root, ec.message())};
  const std::string tag = overrides_tag(overrides);
  const std::string base = fmt::format("{}/{}-{:04}{:02}{:02}-{:02}{:02}{:02}{}", root, scenario,
                                       local_time.tm_year + 1900, local_time.tm_mon + 1,
                                       local_time.tm_mday, local_time.tm_hour, local_time.tm_min,
                                       local_time.tm_sec, tag.empty() ? "" : "-" + tag);
  for (int n = 1; n < 10000; ++n) {
    const std::string dir = n == 1 ? base : fmt::format("{}-{}", base, n);
    if (std::filesystem::create_directory(dir, ec)) return dir;
    if (ec) return Error{fmt::format("cannot create results folder {}: {}", dir, ec.message())};
  }
  return Error{fmt::format("cannot create results folder {}: 9,999 folders of that name exist; "
                           "remove some or give --out", base)};
}

}  // namespace rtb::testbed
