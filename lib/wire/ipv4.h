// IPv4 header (RFC 791) with the DSCP/ECN split of the TOS byte (RFC 2474, RFC 3168).
#pragma once

#include <cstddef>
#include <cstdint>

#include "wire/bytes.h"

namespace rtb::wire {

inline constexpr uint8_t kIpProtoUdp = 17;

// RFC 3168 §5: the two low bits of the TOS byte.
enum class Ecn : uint8_t { NotEct = 0, Ect1 = 1, Ect0 = 2, Ce = 3 };

struct Ipv4Hdr {
  uint8_t ver_ihl;
  uint8_t tos;  // DSCP(6) | ECN(2)
  uint8_t total_length[2];
  uint8_t id[2];
  uint8_t flags_frag[2];  // reserved(1) DF(1) MF(1) fragment offset(13)
  uint8_t ttl;
  uint8_t protocol;
  uint8_t checksum[2];
  uint8_t src[4];
  uint8_t dst[4];

  uint8_t version() const { return ver_ihl >> 4; }
  uint32_t header_bytes() const { return (ver_ihl & 0x0Fu) * 4u; }
  uint8_t dscp() const { return tos >> 2; }
  Ecn ecn() const { return static_cast<Ecn>(tos & 3u); }
  void set_tos(uint8_t dscp, Ecn e) {
    tos = static_cast<uint8_t>((dscp << 2) | static_cast<uint8_t>(e));
  }
  uint16_t length() const { return load_be16(total_length); }
  void set_length(uint16_t v) { store_be16(total_length, v); }
  bool dont_fragment() const { return (flags_frag[0] & 0x40) != 0; }
  bool more_fragments() const { return (flags_frag[0] & 0x20) != 0; }
  uint16_t fragment_offset() const { return load_be16(flags_frag) & 0x1FFF; }
  uint16_t cksum() const { return load_be16(checksum); }
  uint32_t src_addr() const { return load_be32(src); }
  uint32_t dst_addr() const { return load_be32(dst); }
};
static_assert(sizeof(Ipv4Hdr) == 20 && alignof(Ipv4Hdr) == 1);

// RFC 791 header checksum over `header_bytes` bytes (the checksum field is taken as 0),
// computed with DPDK's rte_raw_cksum (no EAL needed).
uint16_t ipv4_checksum(const uint8_t* hdr, uint32_t header_bytes);
// True when the stored checksum is right (RFC 1071: the one's-complement sum is 0xFFFF).
bool ipv4_checksum_ok(const uint8_t* hdr, uint32_t header_bytes);

// RFC 1624 eqn. 3: HC' = ~(~HC + ~m + m'), updating a checksum for one changed 16-bit
// word m -> m'.
constexpr uint16_t cksum_update16(uint16_t hc, uint16_t old_word, uint16_t new_word) {
  uint32_t sum = static_cast<uint16_t>(~hc) + static_cast<uint32_t>(static_cast<uint16_t>(~old_word)) +
                 new_word;
  sum = (sum & 0xFFFF) + (sum >> 16);
  sum = (sum & 0xFFFF) + (sum >> 16);
  return static_cast<uint16_t>(~sum);
}

// What a switch does to mark CE (or any codepoint): rewrite the ECN bits and patch the
// checksum incrementally. The ICRC masks the TOS byte (reference §2.3), so it stays valid.
inline void set_ecn_in_place(Ipv4Hdr& ip, Ecn e) {
  const uint16_t old_word = load_be16(&ip.ver_ihl);
  ip.tos = static_cast<uint8_t>((ip.tos & 0xFC) | static_cast<uint8_t>(e));
  store_be16(ip.checksum, cksum_update16(ip.cksum(), old_word, load_be16(&ip.ver_ihl)));
}

}  // namespace rtb::wire
