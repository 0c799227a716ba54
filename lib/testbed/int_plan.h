// HPCC INT for a run (lib/wire/README.md "HPCC INT records"): when the algorithm asks for
// INT feedback every RoCE connection carries an INT trailer of wire::kIntTrailerBytes on
// its data, ACK and NAK frames, and every switch pushes a hop record into the data frames
// whose DSCP is the flows' DSCP. Frames are known by that DSCP, so the flows of an INT run
// share one; the trailer must fit within the port MTU with the largest data frame.
#pragma once

#include <cstdint>

#include "cc_algos/algorithm.h"
#include "core/error.h"
#include "scenario/scenario.h"

namespace rtb::testbed {

struct IntPlan {
  uint8_t dscp = 0xFF;            // sw::kNoIntDscp: no INT in this run
  uint16_t trailer_bytes = 0;     // per frame
  bool on() const { return trailer_bytes != 0; }
};

Expected<IntPlan> plan_int(const scenario::Scenario& s, const cc::Algorithm& algorithm);

}  // namespace rtb::testbed
