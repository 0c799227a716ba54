// RoCEv2 ICRC of a received frame without copying it: the receive path's check.
//
// Only the first bytes the ICRC covers differ from the frame (icrc.h): the 8 x 0xFF in
// place of the LRH and the masked IPv4, UDP and BTH fields. So
//
//   head = 8 x 0xFF + IPv4 header + UDP header + BTH, masked   (48..88 bytes, on the stack)
//   rest = extended headers + payload + pad, read in place by rte_net_crc
//   icrc = crc32_combine(crc(head), crc(rest), |rest|)          (crc32_combine.h)
//
// Two rte_net_crc calls on whichever path crc_path.h chose, one shift by x^(8|rest|).
// Equal to icrc_full() for every input (the tests check it on every path).
#pragma once

#include <cstdint>

namespace rtb::wire {

// Same contract as icrc_full: `covered` bytes from the start of the IPv4 header up to
// (not including) the ICRC, at most 65535; the caller has checked that the IPv4 header
// (by its IHL), the UDP header and the BTH fit in them.
uint32_t icrc_in_place(const uint8_t* ipv4, uint32_t covered);

}  // namespace rtb::wire
