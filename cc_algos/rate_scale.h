// A rate times a real factor (TIMELY's and DCTCP's multiplicative cuts), rounded to the
// nearest bit per second. Factors are in [0, 1] or slightly above; the result is exact for
// factors and rates that are exact in binary, so tests can state expected rates by hand.
#pragma once

#include <algorithm>
#include <cmath>

#include "core/units.h"

namespace rtb::cc {

inline Rate scale_rate(Rate r, double factor) {
  const double v = std::nearbyint(static_cast<double>(r.bps()) * std::max(factor, 0.0));
  return Rate::bps(static_cast<uint64_t>(v));
}

}  // namespace rtb::cc
