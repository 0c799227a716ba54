// The receiving side of one RC queue pair (IBTA vol 1 §9.7.5, "Responder side"): PSN
// tracking, in-order delivery, ACKs on AckReq, one NAK "PSN sequence error" per gap, and
// re-ACKs of duplicates. Pure logic; the host builds the ACK/NAK frames.
//
// ECN echo: the next ACK or NAK carries BECN when a frame it answers arrived CE-marked
// (RoCEv2 Annex A17 carries congestion back in the BTH BECN bit). A reply answers the
// frames accepted since the previous reply, or the duplicate it re-acknowledges; a frame
// dropped for a PSN gap is answered by nothing (it is sent again, and marked again or not).
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
  bool becn = false;              // reply: data it answers arrived CE-marked
};

class Responder {
 public:
  explicit Responder(uint32_t start_psn = 0) : epsn_(start_psn) {}

  // A data frame with `psn`; `last` for LAST/ONLY opcodes; `ce` when it arrived CE-marked.
  Response on_data(uint32_t psn, uint32_t payload_bytes, bool ack_req, bool last,
                   bool ce = false);

  uint32_t expected_psn() const { return epsn_; }
  uint32_t msn() const { return msn_; }
  const ResponderCounters& counters() const { return counters_; }

 private:
  uint32_t epsn_;
  uint32_t msn_ = 0;  // messages completed (24 bits on the wire)
  bool nak_outstanding_ = false;
  bool ce_unanswered_ = false;  // an accepted frame since the last reply was CE-marked
  ResponderCounters counters_;
};

}  // namespace rtb::host
