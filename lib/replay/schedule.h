// When each frame of an open-loop replay is due, from the start of the replay: one pass of
// the capture, computed once before sending, and the pass's length (where the next pass of
// --loop N begins, so timing continues across passes).
//
//   capture timing, --speed X: due[i] = (ts[i] - ts[0]) / X. A frame stamped before its
//     predecessor (captures merged from several interfaces) is due with that predecessor:
//     order is the file's, never the timestamps' (counted in `backwards`). The next pass
//     starts when the last frame of this one is due (tcpreplay sends a loop's first frame
//     right after the previous loop's last).
//   --rate R: due[0] = 0, due[i] = due[i-1] + the wire time of frame i-1 at R (frame, FCS,
//     preamble and inter-frame gap: runtime::wire_occupancy), carried without drift
//     (SerialClock); a pass lasts the wire time of all its frames, so passes chain back to
//     back exactly as frames do.
//   --top-speed: nothing is due at a time; `due` is empty.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/units.h"
#include "replay/timing.h"

namespace rtb::replay {

struct Schedule {
  std::vector<Time> due;   // per frame of one pass, from the pass's start (empty: top speed)
  Time period;             // one pass: pass k's frame i is due at k * period + due[i]
  uint64_t backwards = 0;  // frames stamped before their predecessor (due with it)

  bool timed() const { return !due.empty(); }
};

// `ts_ns`: each frame's timestamp as stored (ns, any origin); `lengths`: its length as
// sent (bytes without FCS). Both of the same size.
Schedule make_schedule(std::span<const uint64_t> ts_ns, std::span<const uint32_t> lengths,
                       const Timing& timing);

}  // namespace rtb::replay
