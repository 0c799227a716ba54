// DCQCN's alpha in the mlx5 fixed point (cc-reference.md §1.3, "Fixed-point α semantics",
// [NV-2790] v19, identical in [ISEKAI]): α is Q10 (1024 = 1.0) and every alpha period
//
//   with a CNP in the period:   α = (dce_tcp_g · α)/1024 + (1024 − dce_tcp_g)
//   without:                    α = (dce_tcp_g · α)/1024
//
// i.e. dce_tcp_g/1024 is the weight of the old α and the paper's g = (1024 − dce_tcp_g)/1024.
//
// Lazy catch-up: the period is 1 µs on the NIC, so it is never fired as a timer. k periods
// without a CNP are applied at once by AlphaDecayTable, giving exactly the value k single
// steps give (same integer rounding), in at most 10 table look-ups.
#pragma once

#include <cstdint>

namespace rtb::cc::dcqcn {

inline constexpr uint32_t kAlphaOne = 1024;   // α = 1.0 in Q10
inline constexpr uint32_t kNicAlphaMax = 1023; // the NIC's α field tops at 1023

constexpr uint32_t alpha_decay_step(uint32_t alpha, uint32_t g) { return g * alpha / 1024; }

constexpr uint32_t alpha_rise_step(uint32_t alpha, uint32_t g, uint32_t max) {
  const uint32_t a = g * alpha / 1024 + (1024 - g);
  return a > max ? max : a;
}

// after_[j][α] = α after 2^j decay steps. Every step with α > 0 lowers α by at least 1
// (g ≤ 1023 gives floor(g·α/1024) ≤ α − 1 for 1 ≤ α ≤ 1024), so 1024 steps take any
// α ≤ 1024 to 0, and k < 1024 needs the 10 levels 2^0..2^9.
class AlphaDecayTable {
 public:
  void build(uint32_t g);
  uint32_t decay(uint32_t alpha, uint64_t periods) const {
    if (periods >= kAlphaOne) return 0;
    for (int j = 0; periods != 0 && alpha != 0; ++j, periods >>= 1)
      if (periods & 1) alpha = after_[j][alpha];
    return alpha;
  }

 private:
  static constexpr int kLevels = 10;
  uint16_t after_[kLevels][kAlphaOne + 1];
};

}  // namespace rtb::cc::dcqcn
