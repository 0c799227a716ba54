// The alpha jump table gives exactly what k single fixed-point steps give.
#include <gtest/gtest.h>

#include <memory>

#include "cc_algos/dcqcn/alpha.h"

namespace rtb::cc::dcqcn {
namespace {

TEST(AlphaDecayTable, EqualsRepeatedSingleSteps) {
  auto table = std::make_unique<AlphaDecayTable>();
  for (uint32_t g : {0u, 1u, 4u, 512u, 960u, 1019u, 1020u, 1023u}) {
    table->build(g);
    for (uint32_t a0 = 0; a0 <= kAlphaOne; ++a0) {
      uint32_t a = a0;
      for (uint64_t k = 0; k <= 2100; ++k) {
        ASSERT_EQ(table->decay(a0, k), a) << "g " << g << " alpha " << a0 << " k " << k;
        a = alpha_decay_step(a, g);
      }
    }
  }
}

TEST(AlphaDecayTable, HugeGapsGiveZero) {
  AlphaDecayTable t;
  t.build(1023);
  // Slowest possible decay, from the largest alpha: 1024 steps reach 0.
  uint32_t a = kAlphaOne;
  int steps = 0;
  while (a != 0) a = alpha_decay_step(a, 1023), ++steps;
  EXPECT_EQ(steps, 1024);
  EXPECT_EQ(t.decay(kAlphaOne, 1023), 1u);
  EXPECT_EQ(t.decay(kAlphaOne, 1024), 0u);
  EXPECT_EQ(t.decay(kAlphaOne, UINT64_MAX), 0u);
}

TEST(AlphaSteps, MatchTheMlx5Formulas) {
  // [NV-2790] v19: with a CNP, alpha = g*alpha/1024 + (1024 - g), capped (NIC: 1023).
  EXPECT_EQ(alpha_rise_step(1023, 1019, kNicAlphaMax), 1023u);  // 1018 + 5
  EXPECT_EQ(alpha_rise_step(0, 1019, kNicAlphaMax), 5u);
  EXPECT_EQ(alpha_rise_step(1024, 1020, kAlphaOne), 1024u);  // paper: alpha = 1 stays 1
  EXPECT_EQ(alpha_decay_step(1023, 1019), 1018u);             // 1042437/1024
  EXPECT_EQ(alpha_decay_step(1024, 1020), 1020u);
}

// The resolution of the NIC's Q10 α (kept in the `dcqcn` model only): a decay step rounds
// down, so below α = (1024 − g)⁻¹ in Q10 units (205/1024 ≈ 0.20 for the mlx5 default
// 1019, 256/1024 = 0.25 for g = 1/256, i.e. 1020) every period removes exactly 1/1024
// instead of the fraction (1024 − g)/1024 of α: a linear fall to 0 within at most 255
// periods, and a rise step that adds (1024 − g) minus up to one unit of rounding.
TEST(AlphaSteps, Q10ResolutionBelowTheFloorThreshold) {
  for (uint32_t g : {1019u, 1020u}) {
    const uint32_t below = (1024 + (1024 - g) - 1) / (1024 - g);  // ceil(1024 / (1024 − g))
    for (uint32_t a = 1; a < below; ++a) ASSERT_EQ(alpha_decay_step(a, g), a - 1) << g << " " << a;
  }
  // g = 1/256 at α = 102/1024 ≈ 0.1: the real decay is 0.4/1024 per period, Q10 takes 1.
  EXPECT_EQ(alpha_decay_step(102, 1020), 101u);
  EXPECT_EQ(alpha_rise_step(102, 1020, kAlphaOne), 105u);  // real: 105.6
}

}  // namespace
}  // namespace rtb::cc::dcqcn
