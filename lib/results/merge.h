// A realtime run split across processes (`rocetb run --process ROLE`, one per role) joined
// into the summary a single process would have written:
//   flows     joined by id: each figure from the process that knows it (the sender's
//             process its qpn, FCT, CNPs handled and retransmissions; the receiver's the
//             bytes delivered), then the figures that need both ends derived (derive.h);
//   switches, hosts   each from the process that had it, in the order of the parts;
//   counts    added up (each process counted its own nodes);
//   roles     the processes; "valid" only when every part was valid, the reasons joined;
//             "complete" only when every part was.
#pragma once

#include <string>
#include <vector>

#include "core/error.h"
#include "results/summary.h"

namespace rtb::results {

struct Part {
  Summary summary;
  std::string source;  // where it came from, for errors ("DIR/summary.json")
  std::string role;    // its role when the summary does not say (the folder's name)
};

// Refused, in one line naming the part, when the parts are not of one run: another
// scenario, seed, clock, window start or flow list than the first part's, a role given
// twice, or a switch or host that two parts both have. The processes stop on their own
// clocks, microseconds apart: the merged duration and window end are the first part's.
Expected<Summary> merge(const std::vector<Part>& parts);

}  // namespace rtb::results
