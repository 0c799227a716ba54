// PIE, Proportional Integral controller Enhanced (RFC 8033), on one egress queue, with
// ECN marking as RFC 8033 §5.1 allows, in rocetb's terms:
//
// - the queue delay is estimated by Little's law (§4.3: qdelay = queue bytes / dequeue
//   rate), with the port's line or shaper rate as the dequeue rate (the rate while the
//   queue is served and not paused) in place of §5.2's measured one;
// - every t_update (§4.2):
//     p = alpha·(qdelay − QDELAY_REF) + beta·(qdelay − qdelay_old)    (delays in seconds)
//     p scaled down while drop_prob is small (÷2048 below 1e-6 … ÷2 below 0.1);
//     p ≤ 0.02 once drop_prob ≥ 0.1 (§5.5);  drop_prob += p;
//     drop_prob ×= 0.98 when qdelay and qdelay_old are both 0;  drop_prob in [0, 1];
//     burst_allowance −= t_update (not below 0), and back to MAX_BURST when drop_prob = 0
//     and both delays are below QDELAY_REF/2 (§4.4);
// - per frame (§4.1, drop_early): pass while burst_allowance > 0, while qdelay_old <
//   QDELAY_REF/2 and drop_prob < 0.2, or while the queue holds at most two MTU frames;
//   otherwise act with probability drop_prob: mark an ECT frame CE, drop a non-ECT one.
//
// ECT frames are marked at any probability, never dropped (RFC 8033 §5.1 suggests dropping
// above 10 %): RoCE runs lossless, where a drop costs a go-back-N of the whole window.
// Timers are lazy (rocetb's rule): the periodic updates due up to `now` are caught up at
// the next frame the queue sees, with the queue delay of that moment (the queue does not
// change between the frames it sees).
#pragma once

#include <cstdint>

#include "core/rng.h"
#include "core/units.h"
#include "switch/aqm/profiles.h"
#include "switch/aqm/verdict.h"

namespace rtb::sw {

class Pie {
 public:
  Pie(const PieProfile& p, Rate drain_rate, uint32_t mtu_bytes);

  // `ect`: ECT(0), ECT(1) or CE. Draws from `rng` only when the frame is not let through
  // by the rules above and 0 < drop_prob < 1.
  AqmVerdict decide(uint64_t queue_bytes, bool ect, Time now, Rng& rng);

  double drop_prob() const { return drop_prob_; }
  Time burst_allowance() const { return burst_allowance_; }

 private:
  void catch_up(uint64_t queue_bytes, Time now);
  void update(Time qdelay);

  PieProfile p_;
  Rate drain_;
  uint64_t two_mtu_bytes_;
  double drop_prob_ = 0;
  Time qdelay_old_ = Time::zero();
  Time burst_allowance_;
  Time next_update_;
};

}  // namespace rtb::sw
