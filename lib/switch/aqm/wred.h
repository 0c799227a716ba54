// WRED / ECN on an egress queue with SONiC WRED_PROFILE semantics (reference §3.4), the
// green colour, and the DCQCN congestion-point curve (reference §1.1, [CONEXT] eq:mark):
//
//   p(q) = 0                                    q <= Kmin
//        = (q - Kmin) / (Kmax - Kmin) x Pmax    Kmin < q <= Kmax
//        = 1                                    q > Kmax
//
// with q the queue's bytes, Kmin/Kmax = green_min/max_threshold and Pmax =
// green_drop_probability / 100. An ECT frame is marked CE with probability p when the
// profile's `ecn` covers green; a non-ECT frame is dropped with probability p when
// wred_green_enable is set; otherwise the frame passes.
#pragma once

#include <cstdint>

#include "core/rng.h"
#include "switch/aqm/verdict.h"
#include "switch/config.h"

namespace rtb::sw {

class Wred {
 public:
  Wred() = default;  // disabled: always passes
  explicit Wred(const WredProfile& p);

  bool enabled() const { return mark_ || drop_; }
  double probability(uint64_t queue_bytes) const;
  // p(q) = 0: decide() passes the frame without a draw, whatever its ECN field.
  bool never_acts(uint64_t queue_bytes) const { return queue_bytes <= kmin_; }
  // `ect`: the frame's ECN field is ECT(0), ECT(1) or CE. Draws from `rng` only when
  // 0 < p < 1, so the stream of draws depends only on the queue lengths seen.
  AqmVerdict decide(uint64_t queue_bytes, bool ect, Rng& rng) const;

 private:
  uint64_t kmin_ = 0, kmax_ = 0;
  double pmax_ = 0;
  bool mark_ = false, drop_ = false;
};

}  // namespace rtb::sw
