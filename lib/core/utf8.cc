#include "core/utf8.h"

#include <fmt/format.h>

namespace rtb {
namespace {

// The length of the valid UTF-8 sequence at s[i], or 0 (RFC 3629 section 4, UTF8-octets).
size_t sequence_length(std::string_view s, size_t i) {
  const auto b = [&](size_t k) { return static_cast<unsigned char>(s[i + k]); };
  const auto tail = [&](size_t k) { return i + k < s.size() && (b(k) & 0xC0) == 0x80; };
  const unsigned char c = b(0);
  if (c < 0x80) return 1;
  if (c >= 0xC2 && c <= 0xDF) return tail(1) ? 2 : 0;
  if (c >= 0xE0 && c <= 0xEF) {
    if (!tail(1) || !tail(2)) return 0;
    if (c == 0xE0 && b(1) < 0xA0) return 0;  // overlong
    if (c == 0xED && b(1) > 0x9F) return 0;  // UTF-16 surrogates
    return 3;
  }
  if (c >= 0xF0 && c <= 0xF4) {
    if (!tail(1) || !tail(2) || !tail(3)) return 0;
    if (c == 0xF0 && b(1) < 0x90) return 0;  // overlong
    if (c == 0xF4 && b(1) > 0x8F) return 0;  // above U+10FFFF
    return 4;
  }
  return 0;
}

}  // namespace

std::optional<size_t> first_invalid_utf8(std::string_view s) {
  for (size_t i = 0; i < s.size();) {
    const size_t n = sequence_length(s, i);
    if (n == 0) return i;
    i += n;
  }
  return std::nullopt;
}

std::string escape_invalid_utf8(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size();) {
    const size_t n = sequence_length(s, i);
    if (n == 0) {
      out += fmt::format("\\x{:02X}", static_cast<unsigned char>(s[i]));
      ++i;
    } else {
      out.append(s.substr(i, n));
      i += n;
    }
  }
  return out;
}

}  // namespace rtb
