// The order statistics of each switch port's egress occupancy (summary.json queue_bytes
// {mean, p50, p99, max}), accumulated sample by sample instead of from a kept series: a
// count per distinct occupancy value, so the nearest-rank percentiles are exact and the
// memory grows with the number of distinct values a port took (at most one entry per byte
// count its buffer can hold; in practice sums of a few frame sizes), not with the run's
// length.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <vector>

namespace rtb::testbed {

struct DepthStats {
  double mean = 0;
  uint64_t p50 = 0;
  uint64_t p99 = 0;
  uint64_t max = 0;
};

class DepthTotals {
 public:
  // `ports[sw]`: the number of ports of switch sw.
  explicit DepthTotals(const std::vector<size_t>& ports);

  void add(uint32_t sw, uint16_t port, uint64_t bytes);
  // All zero for a port without samples.
  DepthStats stats(uint32_t sw, uint16_t port) const;
  // Distinct values held, all ports (the memory it takes: about 48 bytes each).
  uint64_t distinct() const;

 private:
  struct Port {
    std::map<uint64_t, uint64_t> count;  // occupancy (bytes) -> samples
    uint64_t samples = 0;
    uint64_t sum = 0;
  };
  std::vector<std::vector<Port>> ports_;  // [sw][port]
};

}  // namespace rtb::testbed
