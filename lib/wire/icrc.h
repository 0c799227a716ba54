// RoCEv2 Invariant CRC, full computation (reference §2.3):
//
//   buf  = 8 x 0xFF                               (stands in for the masked IB LRH)
//        + IPv4 header with TOS = 0xFF, TTL = 0xFF, header checksum = 0xFFFF
//        + UDP header with checksum = 0xFFFF      (ports and length NOT masked)
//        + BTH with byte 4 (FECN|BECN|resv6) = 0xFF
//        + extended headers + payload + pad       (up to, not including, the ICRC)
//   icrc = CRC-32/IEEE 802.3 (buf)                (= zlib crc32 = rte_net_crc CRC32_ETH)
//   wire = icrc in little-endian byte order
//
// The Ethernet header, any VLAN tag and the FCS are not covered. This file is the
// reference every faster path is tested against; it copies the covered bytes.
#pragma once

#include <array>
#include <cstdint>

#include "wire/frame_size.h"

namespace rtb::wire {

inline constexpr uint32_t kIcrcBytes = 4;
inline constexpr uint32_t kIcrcPrefixBytes = 8;  // the 8 x 0xFF in place of the LRH

// CRC-32/IEEE 802.3 of n bytes, on the path crc_path.h chose (isal unless a test chose
// another; works without EAL). Defined in crc_path.cc beside the choice.
uint32_t crc32_eth(const uint8_t* p, uint32_t n);

// crc32_eth(A || p[0..n)) from crc = crc32_eth(A), n <= 65535: ISA-L continues from `crc`
// (zlib's crc32(crc, p, n)); rte_net_crc cannot, so its paths combine (crc32_combine.h).
uint32_t crc32_eth_continue(uint32_t crc, const uint8_t* p, uint32_t n);

// Switches crc32_eth back to the fastest algorithm (crc_path.h: ISA-L's multi-lane PCLMULQDQ
// folding, about twice DPDK's SSE4.2 handler on a 1 KiB frame here and over 10x the scalar
// table). The results are identical (the ICRC tests run every path).
void use_fast_crc();

// ICRC of a RoCEv2 packet given from its IPv4 header: `covered` is the number of bytes
// from the start of the IPv4 header up to (not including) the ICRC. The header length
// is taken from the IHL field; the caller has checked that IPv4, UDP and BTH fit.
uint32_t icrc_full(const uint8_t* ipv4, uint32_t covered);

// The bytes the ICRC masks to ones, from the start of an IPv4 header of `ihl_bytes`: TOS,
// TTL, header checksum (2), UDP checksum (2), BTH byte 4; ascending.
constexpr std::array<uint32_t, 7> icrc_masked_offsets(uint32_t ihl_bytes) {
  constexpr uint32_t kUdpChecksum = 6, kBthByte4 = kUdpBytes + 4;
  return {1, 8, 10, 11, ihl_bytes + kUdpChecksum, ihl_bytes + kUdpChecksum + 1,
          ihl_bytes + kBthByte4};
}

// Sets the masked fields of a copy of the IPv4, UDP and BTH headers (IPv4 first, its IHL
// field intact) to ones: TOS, TTL, header checksum, UDP checksum, BTH byte 4.
void mask_icrc_fields(uint8_t* ipv4_copy);

// Wire form: the CRC's least significant byte first (like the Ethernet FCS).
inline void store_icrc(uint8_t* p, uint32_t icrc) {
  for (int i = 0; i < 4; ++i) p[i] = static_cast<uint8_t>(icrc >> (8 * i));
}
inline uint32_t load_icrc(const uint8_t* p) {
  return uint32_t{p[0]} | (uint32_t{p[1]} << 8) | (uint32_t{p[2]} << 16) | (uint32_t{p[3]} << 24);
}

}  // namespace rtb::wire
