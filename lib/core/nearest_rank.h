// Percentiles by the nearest-rank method: the smallest value with at least p percent of
// the values at or below it (value number ceil(p/100 x n), 1-based, of the sorted values).
#pragma once

#include <cstddef>
#include <vector>

namespace rtb {

// `sorted` ascending and not empty; p in (0, 100].
template <typename T>
T nearest_rank(const std::vector<T>& sorted, unsigned p) {
  const size_t rank = (sorted.size() * p + 99) / 100;
  return sorted[rank == 0 ? 0 : rank - 1];
}

}  // namespace rtb
