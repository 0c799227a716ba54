// The results model (summary.h) as a short table for the terminal: the window, the flows
// (the first `max_flows`), the totals, the FCT slowdown, the whole-run counts, and why a
// realtime run is invalid.
#pragma once

#include <cstddef>
#include <iosfwd>

#include "results/summary.h"

namespace rtb::results {

void print_summary(std::ostream& out, const Summary& s, size_t max_flows = 16);

}  // namespace rtb::results
