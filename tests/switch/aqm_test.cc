// The AQMs a queue can run (lib/switch/aqm): step marking at K, PIE (RFC 8033) with a
// hand-driven clock, and the per-queue wrapper, which must give WRED's exact verdicts and
// draws (scenarios' results stay byte-identical).
#include "switch/aqm/aqm.h"

#include <gtest/gtest.h>

#include <cmath>

namespace rtb::sw {
namespace {

TEST(StepAqm, MarksEveryEctFrameAboveKAndNothingElse) {
  Aqm a = Aqm::make(AqmProfile{StepProfile{Bytes::kb(30)}}, std::nullopt, Rate::gbps(100), 1024);
  Rng rng(1, 2), untouched(1, 2);
  EXPECT_TRUE(a.never_acts(30'000));
  EXPECT_FALSE(a.never_acts(30'001));
  EXPECT_EQ(a.decide(30'000, true, Time::zero(), rng), AqmVerdict::kPass);
  EXPECT_EQ(a.decide(30'001, true, Time::zero(), rng), AqmVerdict::kMark);
  EXPECT_EQ(a.decide(5'000'000, true, Time::zero(), rng), AqmVerdict::kMark);
  EXPECT_EQ(a.decide(5'000'000, false, Time::zero(), rng), AqmVerdict::kPass);  // never drops
  EXPECT_EQ(rng.uniform(), untouched.uniform());  // no draws
}

TEST(WredAqm, SameVerdictsAndDrawsAsWred) {
  const WredProfile w{Bytes::kb(100), Bytes::kb(200), 20, true, EcnMode::kAll};
  Aqm a = Aqm::make(std::nullopt, w, Rate::gbps(100), 1024);
  const Wred ref(w);
  Rng r1(9, 3), r2(9, 3), sizes(5, 5);
  for (int i = 0; i < 20'000; ++i) {
    const uint64_t q = sizes.uniform_int(250'000);
    const bool ect = sizes.bernoulli(0.8);
    ASSERT_EQ(a.decide(q, ect, Time::us(static_cast<uint64_t>(i)), r1), ref.decide(q, ect, r2)) << i;
    ASSERT_EQ(a.never_acts(q), ref.never_acts(q));
  }
  EXPECT_EQ(r1.uniform(), r2.uniform());
  EXPECT_FALSE(Aqm().enabled());
  EXPECT_EQ(Aqm().decide(1'000'000, false, Time::zero(), r1), AqmVerdict::kPass);
}

// A PIE at 100 Gb/s (8 ns per 100 bytes) with datacenter-scale times.
PieProfile dc_pie() {
  PieProfile p;
  p.qdelay_ref = Time::us(10);
  p.t_update = Time::us(10);
  p.max_burst = Time::us(20);
  p.alpha_hz = 12'500;  // RFC 8033's 0.125 Hz and 1.25 Hz scaled by 15 ms / 15 us ... x 100
  p.beta_hz = 125'000;
  return p;
}

TEST(PieAqm, FirstUpdateFollowsRfc8033) {
  Pie pie(dc_pie(), Rate::gbps(100), 1024);
  Rng rng(3, 4);
  // 1,250,000 B at 100 Gb/s is 100 us of queue. Before the first update: burst allowance.
  EXPECT_EQ(pie.decide(1'250'000, true, Time::us(5), rng), AqmVerdict::kPass);
  EXPECT_EQ(pie.drop_prob(), 0.0);
  // At 10 us: p = 12500 (100 - 10) us + 125000 (100 - 0) us = 1.125 + 12.5, then / 2048
  // (drop_prob below 1e-6); burst allowance 20 - 10 = 10 us, so still no action.
  EXPECT_EQ(pie.decide(1'250'000, true, Time::us(10), rng), AqmVerdict::kPass);
  EXPECT_DOUBLE_EQ(pie.drop_prob(), (1.125 + 12.5) / 2048);
  EXPECT_EQ(pie.burst_allowance(), Time::us(10));
  // At 20 us: p = 1.125 + 0 (no change in delay), drop_prob 0.00665 < 0.01: / 8.
  pie.decide(1'250'000, true, Time::us(20), rng);
  EXPECT_DOUBLE_EQ(pie.drop_prob(), (1.125 + 12.5) / 2048 + 1.125 / 8);
  EXPECT_EQ(pie.burst_allowance(), Time::zero());
}

TEST(PieAqm, MarksEctAndDropsNonEctUnderStandingDelayThenForgets) {
  Pie pie(dc_pie(), Rate::gbps(100), 1024);
  Rng rng(3, 4);
  Time t = Time::zero();
  // 0.00665 and 0.147 after two periods (FirstUpdateFollowsRfc8033), then at most 0.02 a
  // period once above 0.1: 0.507 after 20 periods, capped at 1 from the 45th.
  for (int k = 0; k < 20; ++k) pie.decide(1'250'000, true, t += Time::us(10), rng);
  EXPECT_NEAR(pie.drop_prob(), (1.125 + 12.5) / 2048 + 1.125 / 8 + 18 * 0.02, 1e-12);
  for (int k = 20; k < 45; ++k) pie.decide(1'250'000, true, t += Time::us(10), rng);
  ASSERT_EQ(pie.drop_prob(), 1.0);
  EXPECT_EQ(pie.decide(1'250'000, true, t, rng), AqmVerdict::kMark);
  EXPECT_EQ(pie.decide(1'250'000, false, t, rng), AqmVerdict::kDrop);
  EXPECT_EQ(pie.decide(2'048, true, t, rng), AqmVerdict::kPass);  // at most two MTU frames
  // An empty queue for a while: p < 0 pulls drop_prob down, then x0.98 per idle period;
  // once it reaches 0 with both delays below QDELAY_REF/2 the burst allowance returns.
  pie.decide(0, true, t += Time::ms(10), rng);
  EXPECT_EQ(pie.drop_prob(), 0.0);
  EXPECT_EQ(pie.burst_allowance(), Time::us(20));
  EXPECT_EQ(pie.decide(1'250'000, true, t + Time::ns(1), rng), AqmVerdict::kPass);
}

TEST(PieAqm, MarkingRateFollowsDropProb) {
  Pie pie(dc_pie(), Rate::gbps(100), 1024);
  Rng rng(11, 1);
  Time t = Time::zero();
  // Hold 20 us of queue (above QDELAY_REF = 10 us) until drop_prob passes 0.2.
  while (pie.drop_prob() < 0.2) pie.decide(250'000, true, t += Time::us(10), rng);
  const double p = pie.drop_prob();
  int marked = 0;
  constexpr int n = 20'000;
  for (int i = 0; i < n; ++i) marked += pie.decide(250'000, true, t, rng) == AqmVerdict::kMark;
  EXPECT_NEAR(static_cast<double>(marked) / n, p, 5 * std::sqrt(p * (1 - p) / n));
}

}  // namespace
}  // namespace rtb::sw
