#include "analyze/message_tracker.h"

#include "wire/opcode.h"

namespace rtb::analyze {

MessagePart message_part(uint8_t opcode) {
  if (opcode == wire::op::kCnp) return MessagePart::kNone;
  // RC, UC, RD and UD share the operation codes in the low five bits (IBTA Table 38).
  switch (opcode & 0x1F) {
    case wire::op::kSendFirst: case wire::op::kWriteFirst: case wire::op::kReadResponseFirst:
      return MessagePart::kFirst;
    case wire::op::kSendMiddle: case wire::op::kWriteMiddle: case wire::op::kReadResponseMiddle:
      return MessagePart::kMiddle;
    case wire::op::kSendLast: case wire::op::kSendLastImm: case wire::op::kWriteLast:
    case wire::op::kWriteLastImm: case wire::op::kReadResponseLast: case wire::op::kSendLastInv:
      return MessagePart::kLast;
    case wire::op::kSendOnly: case wire::op::kSendOnlyImm: case wire::op::kWriteOnly:
    case wire::op::kWriteOnlyImm: case wire::op::kReadResponseOnly: case wire::op::kSendOnlyInv:
      return MessagePart::kOnly;
    default: return MessagePart::kNone;  // requests without data, ACKs
  }
}

void MessageTracker::add(uint8_t opcode, Time ts, uint64_t payload_bytes) {
  switch (message_part(opcode)) {
    case MessagePart::kNone: return;
    case MessagePart::kOnly:
      completion_.add(Time::zero());
      bytes_ += payload_bytes;
      return;
    case MessagePart::kFirst:
      if (open_) ++incomplete_;
      open_ = true;
      start_ = ts;
      open_bytes_ = payload_bytes;
      return;
    case MessagePart::kMiddle:
      if (open_) open_bytes_ += payload_bytes;
      return;
    case MessagePart::kLast:
      if (!open_) { ++incomplete_; return; }
      open_ = false;
      completion_.add(ts >= start_ ? ts - start_ : Time::zero());
      bytes_ += open_bytes_ + payload_bytes;
      return;
  }
}

}  // namespace rtb::analyze
