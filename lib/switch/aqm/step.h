// DCTCP-style step marking at K (profiles.h, StepProfile).
#pragma once

#include <cstdint>

#include "switch/aqm/profiles.h"
#include "switch/aqm/verdict.h"

namespace rtb::sw {

class StepMarker {
 public:
  explicit StepMarker(const StepProfile& p) : k_(p.k_threshold.count()) {}
  bool never_acts(uint64_t queue_bytes) const { return queue_bytes <= k_; }
  // Mark an ECT frame when q > K (RFC 8257 §3.1), draw nothing; pass a non-ECT frame.
  AqmVerdict decide(uint64_t queue_bytes, bool ect) const {
    return ect && queue_bytes > k_ ? AqmVerdict::kMark : AqmVerdict::kPass;
  }

 private:
  uint64_t k_;
};

}  // namespace rtb::sw
