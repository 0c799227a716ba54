#include "switch/aqm/wred.h"

namespace rtb::sw {

Wred::Wred(const WredProfile& p)
    : kmin_(p.green_min_threshold.count()),
      kmax_(p.green_max_threshold.count()),
      pmax_(static_cast<double>(p.green_drop_probability) / 100.0),
      mark_(ecn_marks_green(p.ecn)),
      drop_(p.wred_green_enable) {}

double Wred::probability(uint64_t q) const {
  if (q <= kmin_) return 0.0;
  if (q > kmax_) return 1.0;
  return static_cast<double>(q - kmin_) / static_cast<double>(kmax_ - kmin_) * pmax_;
}

AqmVerdict Wred::decide(uint64_t queue_bytes, bool ect, Rng& rng) const {
  if (ect ? !mark_ : !drop_) return AqmVerdict::kPass;
  const double p = probability(queue_bytes);
  if (p <= 0.0) return AqmVerdict::kPass;
  const bool hit = p >= 1.0 || rng.uniform() < p;
  if (!hit) return AqmVerdict::kPass;
  return ect ? AqmVerdict::kMark : AqmVerdict::kDrop;
}

}  // namespace rtb::sw
