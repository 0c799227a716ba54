// When each recent frame of a queue pair last started on the wire, so that the ACK naming
// its PSN yields an RTT sample: the ACK's arrival minus that instant. This is how a NIC
// timestamps (TIMELY, SIGCOMM'15 §3: "the completion timestamp minus the send
// timestamp"), so the sample includes the responder's ACK turnaround and every queue on
// the way out and back.
//
// A ring of 2^log2 send times indexed by PSN, allocated once when the QP is added and
// only when its algorithm asked for RTT (log2 = 0: disabled). A retransmission overwrites
// its PSN's time (the sample then times the retransmission). A PSN more than the ring's
// size behind the newest one recorded has been overwritten and gives no sample.
#pragma once

#include <cstdint>
#include <vector>

#include "core/units.h"
#include "host/psn.h"

namespace rtb::host {

class SendTimes {
 public:
  explicit SendTimes(uint32_t log2) : times_(log2 == 0 ? 0 : size_t{1} << log2, Time::never()) {}

  bool enabled() const { return !times_.empty(); }

  void record(uint32_t psn, Time sent) {
    if (times_.empty()) return;
    times_[psn & mask()] = sent;
    if (!any_ || psn_diff(psn_add(psn, 1), next_) > 0) next_ = psn_add(psn, 1);
    any_ = true;
  }

  // now - the send time of `psn`, or zero when it is not held (never sent, or overwritten).
  Time rtt(uint32_t psn, Time now) const {
    if (!any_) return Time::zero();
    const int32_t behind = psn_diff(next_, psn);  // 1 for the newest PSN recorded
    if (behind <= 0 || static_cast<size_t>(behind) > times_.size()) return Time::zero();
    const Time sent = times_[psn & mask()];
    return sent.is_never() || now < sent ? Time::zero() : now - sent;
  }

 private:
  uint32_t mask() const { return static_cast<uint32_t>(times_.size() - 1); }
  std::vector<Time> times_;
  uint32_t next_ = 0;  // one past the newest PSN recorded
  bool any_ = false;
};

}  // namespace rtb::host
