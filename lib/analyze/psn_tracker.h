// PSN gaps and repeated PSNs on one QP's request (or read-response) stream.
//
// PSNs are 24-bit and wrap (IBTA Vol. 1 §9.7.1); a PSN is ahead of the expected one when
// (psn - expected) mod 2^24 < 2^23, as a responder judges it (§9.7.5.1.2). The tracker
// expects the highest PSN seen plus one:
//   psn == expected        in order
//   psn ahead of expected  a gap: (psn - expected) PSNs never seen (lost before the tap)
//   psn behind expected    a repeated PSN: a retransmission (go-back-N resends from the
//                          NAKed PSN, so every resent packet counts)
// An RDMA READ request uses one PSN per response packet, which the capture cannot tell
// without the path MTU: after one, the tracker starts again at the next PSN it sees.
#pragma once

#include <cstdint>

namespace rtb::analyze {

class PsnTracker {
 public:
  // Returns true when `psn` repeats one already passed (a retransmission).
  bool add(uint32_t psn);
  void resync() { started_ = false; }

  uint64_t gaps() const { return gaps_; }
  uint64_t missing() const { return missing_; }
  uint64_t repeated() const { return repeated_; }

 private:
  static constexpr uint32_t kMask = 0xFFFFFF;
  static constexpr uint32_t kHalf = 0x800000;
  bool started_ = false;
  uint32_t expected_ = 0;
  uint64_t gaps_ = 0;
  uint64_t missing_ = 0;
  uint64_t repeated_ = 0;
};

inline bool PsnTracker::add(uint32_t psn) {
  if (!started_) {
    started_ = true;
    expected_ = (psn + 1) & kMask;
    return false;
  }
  const uint32_t ahead = (psn - expected_) & kMask;
  if (ahead >= kHalf) {
    ++repeated_;
    return true;
  }
  if (ahead != 0) {
    ++gaps_;
    missing_ += ahead;
  }
  expected_ = (psn + 1) & kMask;
  return false;
}

}  // namespace rtb::analyze
