// The WRED/ECN curve (reference §1.1 and §3.4) and its marking rate under a fixed seed.
#include "switch/aqm/wred.h"

#include <gtest/gtest.h>

#include <cmath>

namespace rtb::sw {
namespace {

WredProfile profile(EcnMode ecn = EcnMode::kAll, bool drop = false) {
  return WredProfile{Bytes::kb(100), Bytes::kb(200), 20, drop, ecn};
}

TEST(Wred, CurveIsZeroLinearThenOne) {
  const Wred w(profile());
  EXPECT_EQ(w.probability(0), 0.0);
  EXPECT_EQ(w.probability(100'000), 0.0);
  EXPECT_DOUBLE_EQ(w.probability(150'000), 0.10);
  EXPECT_DOUBLE_EQ(w.probability(175'000), 0.15);
  EXPECT_DOUBLE_EQ(w.probability(200'000), 0.20);
  EXPECT_EQ(w.probability(200'001), 1.0);
}

// The fraction marked at fixed queue lengths matches p(q) within 5 standard deviations
// of a binomial(n, p) count: |k/n - p| <= 5 sqrt(p (1 - p) / n).
TEST(Wred, MarkingRateFollowsTheCurveWithinTheBinomialBound) {
  const Wred w(profile());
  Rng rng(42, 7);
  constexpr int n = 200'000;
  for (uint64_t q : {110'000ULL, 150'000ULL, 190'000ULL, 200'000ULL}) {
    const double p = w.probability(q);
    int marked = 0;
    for (int i = 0; i < n; ++i) marked += w.decide(q, true, rng) == AqmVerdict::kMark;
    const double bound = 5.0 * std::sqrt(p * (1.0 - p) / n);
    EXPECT_NEAR(static_cast<double>(marked) / n, p, bound) << "q = " << q;
  }
}

TEST(Wred, AboveMaxEveryEctFrameIsMarkedAndNoDrawIsTaken) {
  const Wred w(profile());
  Rng rng(1, 1), untouched(1, 1);
  for (int i = 0; i < 100; ++i) EXPECT_EQ(w.decide(300'000, true, rng), AqmVerdict::kMark);
  EXPECT_EQ(rng.next_u64(), untouched.next_u64());
}

TEST(Wred, NonEctFramesAreDroppedOnlyWhenWredIsEnabled) {
  Rng rng(3, 3);
  EXPECT_EQ(Wred(profile()).decide(300'000, false, rng), AqmVerdict::kPass);
  EXPECT_EQ(Wred(profile(EcnMode::kAll, true)).decide(300'000, false, rng), AqmVerdict::kDrop);
  EXPECT_EQ(Wred(profile(EcnMode::kAll, true)).decide(50'000, false, rng), AqmVerdict::kPass);
}

TEST(Wred, EcnModesWithoutGreenDoNotMark) {
  Rng rng(3, 3);
  EXPECT_EQ(Wred(profile(EcnMode::kNone)).decide(300'000, true, rng), AqmVerdict::kPass);
  EXPECT_EQ(Wred(profile(EcnMode::kYellowRed)).decide(300'000, true, rng), AqmVerdict::kPass);
  EXPECT_EQ(Wred(profile(EcnMode::kGreenRed)).decide(300'000, true, rng), AqmVerdict::kMark);
  EXPECT_FALSE(Wred().enabled());
}

}  // namespace
}  // namespace rtb::sw
