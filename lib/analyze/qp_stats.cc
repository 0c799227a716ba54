#include "analyze/qp_stats.h"

#include <cstring>

namespace rtb::analyze {

// Multiply-xorshift over the key's five words (the order of rows in the results comes
// from sorting keys, never from this hash).
size_t QpKeyHash::operator()(const QpKey& k) const {
  uint64_t w[4];
  std::memcpy(w, k.src.b.data(), 16);
  std::memcpy(w + 2, k.dst.b.data(), 16);
  uint64_t h = k.dest_qpn;
  for (uint64_t x : w) {
    h = (h ^ x) * 0x9E3779B97F4A7C15ULL;
    h ^= h >> 29;
  }
  return static_cast<size_t>(h);
}

}  // namespace rtb::analyze
