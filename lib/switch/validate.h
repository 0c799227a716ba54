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

}  // namespace rtb::sw
