// A QP's traffic in fixed time bins ("rate over time"): frames, bytes, CE marks and CNPs
// per bin, kept only for bins that saw a frame. Bins are appended in time order; a frame
// stamped earlier than the last bin (captures merged from several taps) is added to its
// own bin wherever it falls.
#pragma once

#include <cstdint>
#include <vector>

#include "core/units.h"

namespace rtb::analyze {

struct TimelineBin {
  uint64_t index = 0;  // the bin [index * width, (index + 1) * width) from the capture's start
  uint64_t frames = 0;
  uint64_t wire_bytes = 0;
  uint64_t ce = 0;
  uint64_t cnps = 0;
};

class Timeline {
 public:
  explicit Timeline(Time width) : width_(width) {}
  // The bin holding `ts` (created when new).
  TimelineBin& at(Time ts);
  const std::vector<TimelineBin>& bins() const { return bins_; }
  Time width() const { return width_; }

 private:
  Time width_;
  std::vector<TimelineBin> bins_;
};

}  // namespace rtb::analyze
