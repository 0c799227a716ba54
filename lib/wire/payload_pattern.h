// The payload bytes every rocetb data frame carries.
//
// Payload is written once (when a mempool is initialised, design.md "Memory and mbufs")
// and never per frame, so the builder knows the payload only through this function. The
// ICRC tables hold the CRC of every prefix of the pattern (icrc_tables.h), which is what
// lets a frame of any length get its ICRC without reading its payload.
#pragma once

#include <cstdint>

namespace rtb::wire {

// Byte i of every payload: not periodic in 256, so an off-by-256 offset changes the ICRC.
constexpr uint8_t payload_byte(uint32_t i) {
  return static_cast<uint8_t>((i * 0x9Du) ^ (i >> 8) ^ 0x5Au);
}

// Writes payload_byte(0..n) to `p` (pool initialisation, tests).
inline void write_payload_pattern(uint8_t* p, uint32_t n) {
  for (uint32_t i = 0; i < n; ++i) p[i] = payload_byte(i);
}

// The builder writes pad, ICRC, an INT trailer and minimum-frame fill right after the
// payload, over pattern bytes. Before a buffer is reused for a longer payload, the bytes
// [from, to) of the previous frame's tail must be pattern again (mbuf_frame.h does it).
inline void restore_payload_pattern(uint8_t* payload, uint32_t from, uint32_t to) {
  for (uint32_t i = from; i < to; ++i) payload[i] = payload_byte(i);
}

}  // namespace rtb::wire
