// HPCC in-band telemetry at the switch: one record per egress, pushed at dequeue into the
// INT trailer a RoCE data frame carries (wire/int_trailer.h; HPCC, SIGCOMM 2019, §3.2:
// "the switch inserts ... ts, txBytes, qLen, B" as the packet leaves the egress port).
//
// Only the trailer's bytes change: they lie after the ICRC and inside the lengths the
// sender already wrote, so no length, IPv4 checksum or ICRC changes.
#pragma once

#include <cstdint>

#include "core/units.h"

namespace rtb::sw {

struct IntHopState {
  Time now;               // the instant the frame starts on the egress wire
  uint64_t tx_bytes;      // bytes the egress port sent before this frame
  uint64_t queue_bytes;   // bytes queued at the egress port after this frame left
  uint8_t rate_code;      // wire::int_rate_code of the port's line rate
};

// Pushes a record into `frame` (IPv4 header at `l3_offset`) if it is a RoCE data frame
// with DSCP `int_dscp` carrying a trailer with a free slot. Returns whether it did.
bool push_int_record(uint8_t* frame, uint32_t len, uint32_t l3_offset, uint8_t int_dscp,
                     const IntHopState& hop);

}  // namespace rtb::sw
