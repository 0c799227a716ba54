// Validation of a switch configuration before anything starts (style habit 8). Errors are
// what cannot work (min above max, reserved + headroom over the buffer, probabilities
// outside 0-100 %, inverted XON/XOFF); warnings are what is risky and print their
// arithmetic (ECN thresholds not below the XOFF point, headroom below what the cable
// needs, term by term). Every message names the key and its value.
#pragma once

#include <string>
#include <vector>

#include "switch/config.h"

namespace rtb::sw {

struct ValidationReport {
  std::vector<std::string> errors;
  std::vector<std::string> warnings;
  bool ok() const { return errors.empty(); }
  std::string describe() const;  // "error: ..." and "warning: ..." lines
};

ValidationReport validate(const SwitchConfig& config);

// Lossless PGs whose static thresholds let the shared buffer run out before any PG reaches
// its XOFF point (with traffic from a few ports), each with its arithmetic. Apart from
// validate(): the SONiC tuning guide's own settings do this, knowingly.
std::vector<std::string> pool_before_xoff_warnings(const SwitchConfig& config);

}  // namespace rtb::sw
