// Reading a source file: its text (size-limited), its lines, trimming.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"

namespace rtb::params {

// A source larger than this is refused (a config_db.json of a 64-port switch is ~200 KB).
constexpr uint64_t kMaxSourceBytes = 16ull << 20;

Expected<std::string> read_source(const std::string& path);
std::vector<std::string> split_lines(const std::string& text);
std::string trim(std::string_view s);
// Whitespace-separated words.
std::vector<std::string> words(std::string_view s);
// A shell word without its enclosing quotes ("..." or '...').
std::string unquoted(std::string s);
// A shell line up to its first '#'.
std::string without_comment(const std::string& line);

}  // namespace rtb::params
