#include "analyze/dissected.h"

#include <cstring>

namespace rtb::analyze {
namespace {
constexpr std::array<uint8_t, 12> kV4MappedPrefix = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF};
}  // namespace

bool IpAddr::is_v4() const { return std::memcmp(b.data(), kV4MappedPrefix.data(), 12) == 0; }

IpAddr ipv4_addr(const uint8_t* four_bytes) {
  IpAddr a;
  std::memcpy(a.b.data(), kV4MappedPrefix.data(), 12);
  std::memcpy(a.b.data() + 12, four_bytes, 4);
  return a;
}

IpAddr ipv6_addr(const uint8_t* sixteen_bytes) {
  IpAddr a;
  std::memcpy(a.b.data(), sixteen_bytes, 16);
  return a;
}

}  // namespace rtb::analyze
