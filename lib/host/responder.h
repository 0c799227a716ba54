// The receiving side of one RC queue pair (IBTA vol 1 §9.7.5, "Responder side"): PSN
// tracking, in-order delivery, ACKs on AckReq, one NAK "PSN sequence error" per gap, and
// re-ACKs of duplicates. Pure logic; the host builds the ACK/NAK frames.
#pragma once

#include <cstdint>

namespace rtb::host {

struct ResponderCounters {
  uint64_t frames_accepted = 0;
  uint64_t payload_bytes_accepted = 0;
  uint64_t messages_received = 0;
  uint64_t out_of_sequence = 0;  // mlx5 out_of_sequence: frames dropped for a PSN gap
  uint64_t duplicate_request = 0;  // mlx5 duplicate_request
  uint64_t naks_sent = 0;
  uint64_t acks_sent = 0;
};

struct Response {
  enum class Kind : uint8_t { kNone, kAck, kNakSeqErr };
  Kind reply = Kind::kNone;
  uint32_t psn = 0;  // ACK: the PSN acknowledged; NAK: the PSN expected
  uint32_t msn = 0;
  bool accepted = false;          // the payload was delivered
  bool message_complete = false;  // the frame was a message's LAST/ONLY
};

class Responder {
 public:
  explicit Responder(uint32_t start_psn = 0) : epsn_(start_psn) {}

  // A data frame with `psn`; `last` for LAST/ONLY opcodes.
  Response on_data(uint32_t psn, uint32_t payload_bytes, bool ack_req, bool last);

  uint32_t expected_psn() const { return epsn_; }
  uint32_t msn() const { return msn_; }
  const ResponderCounters& counters() const { return counters_; }

 private:
  uint32_t epsn_;
  uint32_t msn_ = 0;  // messages completed (24 bits on the wire)
  bool nak_outstanding_ = false;
  ResponderCounters counters_;
};

}  // namespace rtb::host
