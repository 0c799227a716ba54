// HPCC in-band network telemetry (INT): the trailer a data frame carries after its ICRC
// and the 8-byte record a switch writes into it per hop (README "HPCC INT records").
//
// Records follow the HPCC simulator's IntHop (Li et al., "HPCC: High Precision Congestion
// Control", SIGCOMM 2019, §3.2 and §5; alibaba-edu/High-Precision-Congestion-Control
// int-header.h): one 64-bit word per hop, big-endian on the wire,
//
//   bits 63..61  link rate code (3)        kIntRateBps[code]
//   bits 60..37  timestamp, ns mod 2^24    the switch's clock when the frame left
//   bits 36..17  tx bytes / 128 mod 2^20   bytes the egress port sent before this frame
//   bits 16..0   queue bytes / 80          the egress port's queued bytes after it left,
//                                          saturated at 2^17 - 1 (10.5 MB)
//
// The trailer is the hop slots followed by a 4-byte descriptor, so that whoever holds the
// frame finds it from the end of the IPv4 packet:
//
//   slot 0 | slot 1 | ... | slot n-1 | 'I' 'N' | n (slots) | hops written
#pragma once

#include <cstdint>
#include <optional>

#include "core/units.h"

namespace rtb::wire {

constexpr uint32_t kIntMaxHops = 5;  // as HPCC's simulator reserves (IntHeader::maxHop)
constexpr uint32_t kIntHopBytes = 8;
constexpr uint32_t kIntDescriptorBytes = 4;
constexpr uint16_t kIntTrailerBytes = kIntMaxHops * kIntHopBytes + kIntDescriptorBytes;  // 44
constexpr uint16_t kIntMagic = 0x494E;  // "IN"

constexpr uint32_t kIntTimeBits = 24, kIntBytesBits = 20, kIntQlenBits = 17;
constexpr uint64_t kIntByteUnit = 128;  // tx bytes unit (HPCC simulator's byteUnit)
constexpr uint64_t kIntQlenUnit = 80;   // queue bytes unit (qlenUnit)
// Rate codes 0..4 are the simulator's (25, 50, 100, 200, 400 Gb/s); 5..7 are ours.
constexpr uint64_t kIntRateBps[8] = {25'000'000'000, 50'000'000'000, 100'000'000'000,
                                     200'000'000'000, 400'000'000'000, 800'000'000'000,
                                     10'000'000'000, 40'000'000'000};

// The code of a link rate, or nothing when INT cannot carry it.
std::optional<uint8_t> int_rate_code(uint64_t bps);

struct IntHopRecord {  // the fields of one record, in record units
  uint8_t rate_code = 0;
  uint32_t time_ns = 0;      // mod 2^24
  uint32_t tx_units = 0;     // tx bytes / 128, mod 2^20
  uint32_t qlen_units = 0;   // queue bytes / 80, saturated
};

uint64_t encode_int_hop(Time now, uint64_t tx_bytes, uint64_t queue_bytes, uint8_t rate_code);
IntHopRecord decode_int_hop(uint64_t word);

// The trailer's descriptor, read from the last 4 bytes of `trailer_bytes` at `end`
// (one past the trailer, which is the end of the IPv4 packet). Nothing if it is not one.
struct IntDescriptor {
  uint8_t slots = 0;
  uint8_t hops = 0;
};
std::optional<IntDescriptor> read_int_descriptor(const uint8_t* end, uint32_t room);

// Writes an empty trailer (zeroed slots, descriptor with `bytes` worth of slots) at `p`.
void init_int_trailer(uint8_t* p, uint16_t bytes);
// Appends `word` in the next free slot of the trailer ending at `end` (room: bytes
// before `end` that belong to the packet). False (nothing written) if the bytes there are
// not a trailer or every slot is taken.
bool push_int_hop(uint8_t* end, uint32_t room, uint64_t word);
// Record `i` (< hops) of the trailer ending at `end` with `d` its descriptor.
uint64_t int_hop_word(const uint8_t* end, const IntDescriptor& d, uint32_t i);

// Extends a record's wrapping counters to 64 bits against the previous value of the same
// hop (what HPCC's GetTimeDelta / GetBytesDelta do per difference).
constexpr uint64_t int_unwrap(uint64_t previous, uint32_t raw, uint32_t bits) {
  const uint64_t mask = (uint64_t{1} << bits) - 1;
  return previous + ((raw - (previous & mask)) & mask);
}

}  // namespace rtb::wire
