// The paper preset's α is a real number, as in DCQCN (Zhu et al., SIGCOMM 2015, §3.1) and
// the CoNEXT'16 fluid model: every τ′ without a CNP α = (1 − g)α, on a CNP α = (1 − g)α + g,
// g = 1/256. Kept in the NIC's Q10 integers instead, (1020·α)/1024 rounds down by a whole
// 1/1024 whenever α < 0.25, so α fell by 1/1024 per period instead of α/256 (2.5 times too
// fast at α = 0.1) and a flow under steady marking settled near α = 0.004 instead of 0.09:
// cuts 25 times too small, twice the CNPs and three times the fluid model's queue.
#include <gtest/gtest.h>

#include <cmath>

#include "dcqcn_fixture.h"

namespace rtb::cc::testing {
namespace {

constexpr double kG = 1.0 / 256;

// One CNP every 10 α periods (550 µs), roughly the fluid model's 2-flow fixed point (one CNP
// per 540 µs). Between CNPs α decays 10 times; each CNP applies one more decay step with its
// rise, so α just after a CNP converges to g / (1 − (1 − g)^11) = 0.0928.
TEST(DcqcnPaperAlpha, SteadyCnpTrainSettlesWhereTheRealNumberRecurrenceDoes) {
  PaperFlow f({}, Rate::gbps(40));
  Time t = Time::zero();
  for (int k = 0; k < 2000; ++k, t = t + Time::us(550)) f.cnp(t);
  const Time last = t - Time::us(550);
  const double expected = kG / (1 - std::pow(1 - kG, 11));
  EXPECT_NEAR(f.alpha_shown(last), expected, 1e-9);
  // Nine whole periods later (just before the next CNP): α·(1 − g)^9.
  EXPECT_NEAR(f.alpha_shown(last + Time::us(550) - Time::ns(1)), expected * std::pow(1 - kG, 9), 1e-9);
}

// From α = 1 with no further CNP: α = (1 − g)^k after k periods; small α keeps decaying
// geometrically instead of reaching zero after a finite time.
TEST(DcqcnPaperAlpha, DecayIsGeometric) {
  PaperFlow f({}, Rate::gbps(40));
  f.cnp(Time::zero());  // α = 1 stays 1
  for (uint64_t k : {1u, 100u, 600u, 1200u, 3000u})
    EXPECT_NEAR(f.alpha_shown(Time::us(55 * k)), std::pow(1 - kG, static_cast<double>(k)), 1e-12) << k;
  EXPECT_GT(f.alpha_shown(Time::us(55 * 3000)), 0.0);
}

// The cut uses the real α: R_C(1 − α/2) with α = (1 − g)·α + g after 200 periods of decay.
TEST(DcqcnPaperAlpha, CutUsesTheRealAlpha) {
  PaperFlow f({}, Rate::gbps(40));
  f.cnp(Time::zero());  // R_C = 20 Gb/s, α = 1
  f.run_until(Time::us(55 * 200));
  const double rc = static_cast<double>(f.rc());
  const double alpha = (1 - kG) * std::pow(1 - kG, 200) + kG;
  f.cnp(Time::us(55 * 200));
  EXPECT_NEAR(static_cast<double>(f.rc()), rc * (1 - alpha / 2), 1.0);
}

}  // namespace
}  // namespace rtb::cc::testing
