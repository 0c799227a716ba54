#include "analyze/timeline.h"

#include <algorithm>

namespace rtb::analyze {

TimelineBin& Timeline::at(Time ts) {
  const uint64_t index = ts / width_;
  if (bins_.empty() || bins_.back().index < index) {
    bins_.push_back(TimelineBin{index});
    return bins_.back();
  }
  if (bins_.back().index == index) return bins_.back();
  auto it = std::lower_bound(bins_.begin(), bins_.end(), index,
                             [](const TimelineBin& b, uint64_t i) { return b.index < i; });
  if (it == bins_.end() || it->index != index) it = bins_.insert(it, TimelineBin{index});
  return *it;
}

}  // namespace rtb::analyze
