#include "wire/icrc.h"

#include <array>
#include <cstring>

#include "wire/crc_path.h"

namespace rtb::wire {
namespace {

// Byte offsets of the masked fields (reference §2.3).
constexpr uint32_t kIpTos = 1, kIpTtl = 8, kIpChecksum = 10;
constexpr uint32_t kUdpChecksum = 6;
constexpr uint32_t kBthByte4 = 4;
constexpr uint32_t kUdpBytes = 8;

// The largest IPv4 packet plus the prefix; one buffer per thread, allocated once.
thread_local std::array<uint8_t, kIcrcPrefixBytes + 65536> t_masked;

}  // namespace

void use_fast_crc() { set_fastest_crc_path(); }

void mask_icrc_fields(uint8_t* m) {
  const uint32_t ihl_bytes = (m[0] & 0x0Fu) * 4u;
  m[kIpTos] = 0xFF;
  m[kIpTtl] = 0xFF;
  m[kIpChecksum] = m[kIpChecksum + 1] = 0xFF;
  uint8_t* udp = m + ihl_bytes;
  udp[kUdpChecksum] = udp[kUdpChecksum + 1] = 0xFF;
  udp[kUdpBytes + kBthByte4] = 0xFF;
}

uint32_t icrc_full(const uint8_t* ipv4, uint32_t covered) {
  uint8_t* buf = t_masked.data();
  std::memset(buf, 0xFF, kIcrcPrefixBytes);
  std::memcpy(buf + kIcrcPrefixBytes, ipv4, covered);
  mask_icrc_fields(buf + kIcrcPrefixBytes);
  return crc32_eth(buf, kIcrcPrefixBytes + covered);
}

}  // namespace rtb::wire
