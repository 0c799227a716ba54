// Message completion times on one QP: from the first packet of a SEND, RDMA WRITE or
// RDMA READ response to its last (IBTA Vol. 1 §9.7.2: First, Middle..., Last, or Only),
// as the capture point saw them. An Only packet completes in zero time at the tap.
#pragma once

#include <cstdint>

#include "core/units.h"

namespace rtb::analyze {

// Count, sum, min and max of a series of durations.
struct DurationStats {
  uint64_t count = 0;
  Time sum;
  Time min = Time::never();
  Time max;

  void add(Time d) {
    ++count;
    sum += d;
    if (d < min) min = d;
    if (d > max) max = d;
  }
  Time mean() const { return count == 0 ? Time::zero() : sum / count; }
};

// Where an opcode's packet sits in its message.
enum class MessagePart : uint8_t { kNone, kFirst, kMiddle, kLast, kOnly };
MessagePart message_part(uint8_t opcode);

class MessageTracker {
 public:
  void add(uint8_t opcode, Time ts, uint64_t payload_bytes);

  const DurationStats& completion() const { return completion_; }
  uint64_t bytes() const { return bytes_; }  // payload bytes of completed messages
  // Messages whose start or end the capture does not hold (it began or ended inside
  // them), or that a new First interrupted.
  uint64_t incomplete() const { return incomplete_ + (open_ ? 1 : 0); }

 private:
  DurationStats completion_;
  uint64_t bytes_ = 0;
  uint64_t incomplete_ = 0;
  bool open_ = false;
  Time start_;
  uint64_t open_bytes_ = 0;
};

}  // namespace rtb::analyze
