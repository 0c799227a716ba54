#include "host/responder.h"

#include <utility>

#include "host/psn.h"

namespace rtb::host {

Response Responder::on_data(uint32_t psn, uint32_t payload_bytes, bool ack_req, bool last,
                            bool ce) {
  Response r;
  const int32_t d = psn_diff(psn, epsn_);
  if (d > 0) {  // a gap: earlier frames were lost; drop and NAK once for this gap
    ++counters_.out_of_sequence;
    if (!nak_outstanding_) {
      nak_outstanding_ = true;
      ++counters_.naks_sent;
      r.reply = Response::Kind::kNakSeqErr;
      r.psn = epsn_;
      r.msn = msn_;
      r.becn = std::exchange(ce_unanswered_, false);  // it acknowledges up to epsn - 1
    }
    return r;
  }
  if (d < 0) {  // a duplicate (the requester went back): ACK what we have
    ++counters_.duplicate_request;
    ++counters_.acks_sent;
    r.reply = Response::Kind::kAck;
    r.psn = psn_add(epsn_, kPsnMask);
    r.msn = msn_;
    r.becn = std::exchange(ce_unanswered_, false) || ce;
    return r;
  }
  nak_outstanding_ = false;
  epsn_ = psn_add(epsn_, 1);
  ++counters_.frames_accepted;
  counters_.payload_bytes_accepted += payload_bytes;
  r.accepted = true;
  ce_unanswered_ = ce_unanswered_ || ce;
  if (last) {
    msn_ = (msn_ + 1) & kPsnMask;
    ++counters_.messages_received;
    r.message_complete = true;
  }
  if (ack_req) {
    ++counters_.acks_sent;
    r.reply = Response::Kind::kAck;
    r.psn = psn;
    r.msn = msn_;
    r.becn = std::exchange(ce_unanswered_, false);
  }
  return r;
}

}  // namespace rtb::host
