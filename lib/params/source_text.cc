#include "params/source_text.h"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>

namespace rtb::params {

Expected<std::string> read_source(const std::string& path) {
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  if (ec) return Error{fmt::format("{}: cannot read it: {}", path, ec.message())};
  if (size > kMaxSourceBytes) {
    return Error{fmt::format("{}: {} bytes: expected a source of at most {} bytes", path, size, kMaxSourceBytes)};
  }
  std::ifstream f(path, std::ios::binary);
  if (!f) return Error{fmt::format("{}: cannot open it", path)};
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) {
    if (!l.empty() && l.back() == '\r') l.pop_back();
    out.push_back(l);
  }
  return out;
}

std::string trim(std::string_view s) {
  const size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string_view::npos) return "";
  const size_t e = s.find_last_not_of(" \t\r\n");
  return std::string(s.substr(b, e - b + 1));
}

std::vector<std::string> words(std::string_view s) {
  std::vector<std::string> out;
  std::istringstream in{std::string(s)};
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

std::string unquoted(std::string s) {
  if (s.size() >= 2 && (s.front() == '"' || s.front() == '\'') && s.back() == s.front())
    return s.substr(1, s.size() - 2);
  return s;
}

std::string without_comment(const std::string& line) {
  const size_t hash = line.find('#');
  return hash == std::string::npos ? line : line.substr(0, hash);
}

}  // namespace rtb::params
