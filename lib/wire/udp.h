// UDP header (RFC 768) and the RoCEv2 UDP source-port convention.
#pragma once

#include <cstdint>

#include "wire/bytes.h"

namespace rtb::wire {

inline constexpr uint16_t kRoceV2Port = 4791;  // IBTA Annex A17 (RoCEv2) destination port

struct UdpHdr {
  uint8_t src_port[2];
  uint8_t dst_port[2];
  uint8_t length[2];  // header + payload; for RoCEv2 it includes the 4-byte ICRC
  uint8_t checksum[2];

  uint16_t sport() const { return load_be16(src_port); }
  uint16_t dport() const { return load_be16(dst_port); }
  uint16_t len() const { return load_be16(length); }
  uint16_t cksum() const { return load_be16(checksum); }
};
static_assert(sizeof(UdpHdr) == 8 && alignof(UdpHdr) == 1);

// Linux rdma_calc_flow_label (include/rdma/ib_verbs.h; reference §2.5): a 20-bit flow
// label from the QP pair, symmetric in (lqpn, rqpn):
//   v = lqpn * rqpn; v ^= v >> 20; v ^= v >> 40; fl = v & 0xFFFFF
constexpr uint32_t roce_flow_label(uint32_t lqpn, uint32_t rqpn) {
  uint64_t v = uint64_t{lqpn} * rqpn;
  v ^= v >> 20;
  v ^= v >> 40;
  return static_cast<uint32_t>(v & 0xFFFFF);
}

// Linux rdma_flow_label_to_udp_sport: fold the 20-bit label into 14 bits and set the top
// two bits, so the port is in 0xC000..0xFFFF:
//   sport = ((fl & 0x3FFF) ^ ((fl & 0xFC000) >> 14)) | 0xC000
constexpr uint16_t roce_udp_sport_from_flow_label(uint32_t fl) {
  return static_cast<uint16_t>(((fl & 0x3FFF) ^ ((fl & 0xFC000) >> 14)) | 0xC000);
}

// rdma_get_udp_sport with no GRH flow label: the source port both ends of an RC
// connection agree on.
constexpr uint16_t roce_udp_sport(uint32_t lqpn, uint32_t rqpn) {
  return roce_udp_sport_from_flow_label(roce_flow_label(lqpn, rqpn));
}

}  // namespace rtb::wire
