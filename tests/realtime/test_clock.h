// One calibrated TscClock per test binary (calibration sleeps 100 ms); tests copy it.
#pragma once

#include "realtime/tsc_clock.h"

namespace rtb::realtime::testing {

inline const TscClock& calibrated_clock() {
  static const TscClock clock = TscClock::calibrate();
  return clock;
}

}  // namespace rtb::realtime::testing
