// Checks of a lossless switch's thresholds, each printing its arithmetic:
//   ECN min < ECN max < XOFF point < buffer;
//   headroom (BUFFER_PROFILE xoff) >= what the cable needs (sw::headroom_need);
//   the headroom pool holds every lossless PG's headroom at once (or the over-subscribed
//   share of it), or, without one, every PG's own headroom fits the buffer;
//   the shared pool cannot run out before a PG reaches XOFF (static thresholds: ports x
//   lossless PGs x static_th <= shared; dynamic thresholds cannot exhaust it);
//   XON at least one largest frame below XOFF;
// and the switch's own validation (sw::validate) errors, so a set that passes here is one
// `rocetb run` accepts. The lossless TCs of a scenario share one set; the first is checked.
#pragma once

#include <string>
#include <vector>

#include "switch/config.h"

namespace rtb::plan {

struct Check {
  enum class Result { kOk, kWarn, kFail } result = Result::kOk;
  std::string what;        // "ECN min < ECN max"
  std::string arithmetic;  // "150000 B < 1200000 B"
};

// `small_packet_percent`: the share of minimum frames the headroom need assumes (planner.h).
std::vector<Check> check_thresholds(const sw::SwitchConfig& c, uint32_t small_packet_percent = 0);

bool any_failed(const std::vector<Check>& checks);

// One line per check: "  ok    ECN min < ECN max: 150000 B < 1200000 B".
std::string describe(const std::vector<Check>& checks);

}  // namespace rtb::plan
