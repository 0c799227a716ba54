#include "analyze/icrc_ipv6.h"

#include <cstring>

#include "wire/crc32_combine.h"
#include "wire/frame_size.h"
#include "wire/icrc.h"

namespace rtb::analyze {

uint32_t icrc_ipv6(const uint8_t* ipv6, uint32_t covered) {
  constexpr uint32_t kHeaders = kIpv6Bytes + wire::kUdpBytes + wire::kBthBytes;
  uint8_t head[wire::kIcrcPrefixBytes + kHeaders];
  std::memset(head, 0xFF, wire::kIcrcPrefixBytes);
  uint8_t* h = head + wire::kIcrcPrefixBytes;
  std::memcpy(h, ipv6, kHeaders);
  h[0] |= 0x0F;                 // version(4) | traffic class high nibble
  h[1] = h[2] = h[3] = 0xFF;    // traffic class low nibble | flow label
  h[7] = 0xFF;                  // hop limit
  h[kIpv6Bytes + 6] = h[kIpv6Bytes + 7] = 0xFF;          // UDP checksum
  h[kIpv6Bytes + wire::kUdpBytes + 4] = 0xFF;            // BTH FECN | BECN | resv6
  const uint32_t rest = covered - kHeaders;
  const uint32_t head_crc = wire::crc32_eth(head, sizeof(head));
  return wire::crc32_combine(head_crc, wire::crc32_eth(ipv6 + kHeaders, rest), rest);
}

}  // namespace rtb::analyze
