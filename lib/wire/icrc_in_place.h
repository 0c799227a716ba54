// RoCEv2 ICRC of a received frame without copying it: the receive path's check.
//
// What the ICRC covers is the 8 x 0xFF in place of the LRH, then the frame from its IPv4
// header with seven bytes masked to ones (icrc.h). CRC-32 is affine, f(M') = f(M) xor
// L(M xor M') for messages of one length, so with `end` just past the last masked byte:
//
//   crc  = crc32_eth_continue(crc(8 x 0xFF), frame, covered)   one pass, in place
//   fix  = xor over the masked bytes v at k bytes before end of L(v xor 0xFF || 0^k)
//                                                               seven look-ups (74 KB table)
//   icrc = crc xor fix * x^(8 (covered - end)) mod P            (crc32_combine.h)
//
// One CRC call (ISA-L continues from a value; rte_net_crc's paths combine, a second
// product) and two products. Equal to icrc_full() for every input (the tests check it on
// every path).
#pragma once

#include <cstdint>

namespace rtb::wire {

// Same contract as icrc_full: `covered` bytes from the start of the IPv4 header up to
// (not including) the ICRC, at most 65535; the caller has checked that the IPv4 header
// (by its IHL), the UDP header and the BTH fit in them.
uint32_t icrc_in_place(const uint8_t* ipv4, uint32_t covered);

}  // namespace rtb::wire
