// The results model (summary.h) as a short table for the terminal: the window, the flows
// (the first `max_flows`), the totals, the FCT slowdown, the whole-run counts, and why a
// realtime run is invalid. And, for runs without flows of their own (a replay through the
// switches), the switch ports that carried frames.
#pragma once

#include <cstddef>
#include <iosfwd>

#include "results/summary.h"

namespace rtb::results {

void print_summary(std::ostream& out, const Summary& s, size_t max_flows = 16);

// Each switch port that received or sent a frame (the first `max_ports`): frames in and
// out, its deepest egress queue (the queues' watermark), ECN marks, PFC frames sent and
// received, drops; then the whole run's marks, PFC frames and drops.
void print_switch_ports(std::ostream& out, const Summary& s, size_t max_ports = 32);

}  // namespace rtb::results
