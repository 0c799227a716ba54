#include "scenario/addressing.h"

#include <fmt/format.h>

#include <charconv>

namespace rtb::scenario {

uint32_t default_host_ip(uint32_t index) {
  return (192u << 24) | (168u << 16) | ((1 + index / 254) << 8) | (1 + index % 254);
}

wire::MacAddr host_mac(uint32_t index) {
  return wire::MacAddr{{0x02, 0x72, 0x74, 0x00, static_cast<uint8_t>(index >> 8), static_cast<uint8_t>(index)}};
}

std::optional<uint32_t> parse_ipv4(std::string_view text) {
  uint32_t ip = 0;
  const char* p = text.data();
  const char* end = text.data() + text.size();
  for (int octet = 0; octet < 4; ++octet) {
    if (octet > 0) {
      if (p == end || *p != '.') return std::nullopt;
      ++p;
    }
    unsigned v = 0;
    const auto [next, ec] = std::from_chars(p, end, v);
    if (ec != std::errc() || next == p || next - p > 3 || v > 255) return std::nullopt;
    ip = (ip << 8) | v;
    p = next;
  }
  if (p != end) return std::nullopt;
  return ip;
}

std::string format_ipv4(uint32_t ip) {
  return fmt::format("{}.{}.{}.{}", ip >> 24, (ip >> 16) & 0xff, (ip >> 8) & 0xff, ip & 0xff);
}

std::string format_mac(const wire::MacAddr& m) {
  return fmt::format("{:02x}:{:02x}:{:02x}:{:02x}:{:02x}:{:02x}", m.b[0], m.b[1], m.b[2], m.b[3], m.b[4],
                     m.b[5]);
}

}  // namespace rtb::scenario
