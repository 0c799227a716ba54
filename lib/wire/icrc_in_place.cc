#include "wire/icrc_in_place.h"

#include <cstring>

#include "wire/crc32_combine.h"
#include "wire/frame_size.h"
#include "wire/icrc.h"

namespace rtb::wire {
namespace {

constexpr uint32_t kMaxIpv4HeaderBytes = 60;  // IHL 15
constexpr uint32_t kMaxHeadBytes = kIcrcPrefixBytes + kMaxIpv4HeaderBytes + kUdpBytes + kBthBytes;

}  // namespace

uint32_t icrc_in_place(const uint8_t* ipv4, uint32_t covered) {
  const uint32_t headers = (ipv4[0] & 0x0Fu) * 4u + kUdpBytes + kBthBytes;
  uint8_t head[kMaxHeadBytes];
  std::memset(head, 0xFF, kIcrcPrefixBytes);
  std::memcpy(head + kIcrcPrefixBytes, ipv4, headers);
  mask_icrc_fields(head + kIcrcPrefixBytes);
  const uint32_t rest = covered - headers;
  // The shift depends on the head only: started first, it overlaps the long CRC below.
  const uint32_t head_crc = crc32_eth(head, kIcrcPrefixBytes + headers);
  const uint32_t shifted = crc32_multiply(head_crc, crc32_x8n(rest));
  return shifted ^ crc32_eth(ipv4 + headers, rest);
}

}  // namespace rtb::wire
