#include "wire/ipv4.h"

#include <rte_ip.h>

#include "wire/frame_size.h"

namespace rtb::wire {

uint16_t ipv4_checksum(const uint8_t* hdr, uint32_t header_bytes) {
  // Sum with the checksum field excluded: sum the two halves around it.
  uint32_t sum = rte_raw_cksum(hdr, 10);
  sum += rte_raw_cksum(hdr + 12, header_bytes - 12);
  sum = (sum & 0xFFFF) + (sum >> 16);
  sum = (sum & 0xFFFF) + (sum >> 16);
  // rte_raw_cksum returns the sum in host order of 16-bit loads; convert to wire order.
  const uint16_t folded = rte_be_to_cpu_16(static_cast<uint16_t>(sum));
  return static_cast<uint16_t>(~folded);
}

// The usual header (no options) is summed with its length known, so that the compiler
// unrolls rte_raw_cksum's loop of 16-bit words instead of counting through it.
bool ipv4_checksum_ok(const uint8_t* hdr, uint32_t header_bytes) {
  if (header_bytes == kIpv4Bytes) return rte_raw_cksum(hdr, kIpv4Bytes) == 0xFFFF;
  return rte_raw_cksum(hdr, header_bytes) == 0xFFFF;
}

}  // namespace rtb::wire
