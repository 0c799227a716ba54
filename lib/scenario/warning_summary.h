// Warnings as a user reads them: one line per cause, with a count. A scenario's warnings
// read "WHERE: CAUSE", WHERE the part of the scenario it is about ("switch leaf3 port
// Ethernet4", "traffic[2]", "cc") and CAUSE what is wrong, with its arithmetic. A leaf-spine
// fabric repeats one switch setting on every port of every switch: hundreds of warnings
// with one cause. Those become one line,
//   switch leaf0 port Ethernet0, switch leaf0 port Ethernet1, switch leaf0 port Ethernet2 and 181 more (184 in all): CAUSE
// in the order each cause first appeared. A warning without ": " is its own cause.
#pragma once

#include <string>
#include <vector>

namespace rtb::scenario {

inline constexpr size_t kWarningPlacesShown = 3;

std::vector<std::string> summarize_warnings(const std::vector<std::string>& warnings);

}  // namespace rtb::scenario
