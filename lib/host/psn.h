// Packet sequence numbers are 24 bits and wrap (IBTA vol 1, 9.7.1): at 100 Gb/s with
// 1 KiB frames they wrap every 1.4 s, so every comparison is modular.
#pragma once

#include <cstdint>

namespace rtb::host {

inline constexpr uint32_t kPsnMask = 0xFF'FFFF;

constexpr uint32_t psn_add(uint32_t psn, uint32_t n) { return (psn + n) & kPsnMask; }

// Signed distance a - b in (-2^23, 2^23]: positive when a is after b.
constexpr int32_t psn_diff(uint32_t a, uint32_t b) {
  const uint32_t d = (a - b) & kPsnMask;
  return d >= 0x80'0000 ? static_cast<int32_t>(d) - 0x100'0000 : static_cast<int32_t>(d);
}

constexpr bool psn_before(uint32_t a, uint32_t b) { return psn_diff(a, b) < 0; }

}  // namespace rtb::host
