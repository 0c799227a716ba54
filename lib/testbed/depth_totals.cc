#include "testbed/depth_totals.h"

#include <algorithm>

namespace rtb::testbed {

DepthTotals::DepthTotals(const std::vector<size_t>& ports) {
  for (size_t n : ports) ports_.emplace_back(n);
}

void DepthTotals::add(uint32_t sw, uint16_t port, uint64_t bytes) {
  Port& p = ports_[sw][port];
  ++p.count[bytes];
  ++p.samples;
  p.sum += bytes;
}

DepthStats DepthTotals::stats(uint32_t sw, uint16_t port) const {
  const Port& p = ports_[sw][port];
  DepthStats d;
  if (p.samples == 0) return d;
  d.mean = static_cast<double>(p.sum) / static_cast<double>(p.samples);
  // Nearest-rank percentiles: the ceil(p N)-th smallest sample.
  const auto rank = [&](uint64_t percent) {
    const uint64_t r = std::max<uint64_t>((percent * p.samples + 99) / 100, 1);
    uint64_t below = 0;
    for (const auto& [value, n] : p.count) {
      below += n;
      if (below >= r) return value;
    }
    return p.count.rbegin()->first;
  };
  d.p50 = rank(50);
  d.p99 = rank(99);
  d.max = p.count.rbegin()->first;
  return d;
}

uint64_t DepthTotals::distinct() const {
  uint64_t n = 0;
  for (const auto& sw : ports_) {
    for (const Port& p : sw) n += p.count.size();
  }
  return n;
}

}  // namespace rtb::testbed
