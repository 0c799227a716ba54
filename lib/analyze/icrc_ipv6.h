// RoCEv2 Invariant CRC of a packet carried over IPv6 (IBTA Vol. 1 Annex A17.4.5.1), read
// in place like wire/icrc_in_place.h does for IPv4:
//
//   buf  = 8 x 0xFF                                  (stands in for the masked IB LRH)
//        + IPv6 header with Traffic Class = 0xFF, Flow Label = 0xFFFFF, Hop Limit = 0xFF
//        + UDP header with checksum = 0xFFFF
//        + BTH with byte 4 = 0xFF
//        + extended headers + payload + pad          (up to, not including, the ICRC)
//   icrc = CRC-32/IEEE 802.3 (buf), on the wire least significant byte first
//
// (the same masks as Linux's Soft-RoCE, drivers/infiniband/sw/rxe/rxe_icrc.c). No IPv6
// extension headers: RoCEv2 packets carry UDP as the IPv6 next header.
#pragma once

#include <cstdint>

namespace rtb::analyze {

inline constexpr uint32_t kIpv6Bytes = 40;

// `covered` bytes from the start of the IPv6 header up to the ICRC; the caller has
// checked that the IPv6, UDP and BTH headers fit in them.
uint32_t icrc_ipv6(const uint8_t* ipv6, uint32_t covered);

}  // namespace rtb::analyze
