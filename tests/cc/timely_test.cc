// TIMELY: every expected rate is computed by hand from the formulas in
// cc_algos/timely/timely.h with the defaults (T_low 50 us, T_high 500 us, D_minRTT 20 us,
// alpha 0.875, beta 0.8, delta 100 Mb/s, 500 Mb/s after 5 increases in a row).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "cc_flow.h"

namespace rtb::cc::testing {
namespace {

using ::testing::HasSubstr;

FlowStart start_100g() { return FlowStart{Rate::gbps(100), Time::us(10), 1}; }

TEST(Timely, FollowsTheGradientOncePerRoundTrip) {
  HandFlow f("timely", {}, start_100g());
  EXPECT_EQ(f.last().rate, Rate::gbps(100));
  // The first sample only sets prev = 60 us; the next update is due at 1 + 60 us.
  EXPECT_EQ(f.ack(Time::us(1), 1024, Time::us(60)).rate, Rate::gbps(100));
  EXPECT_EQ(f.ack(Time::us(30), 1024, Time::us(80)).rate, Rate::gbps(100));  // not due
  EXPECT_EQ(f.ack(Time::us(40), 1024, Time::zero()).rate, Rate::gbps(100));   // no sample
  // rtt_diff = 0.875 * 4 us = 3.5 us, gradient 0.175: R = 100 G * (1 - 0.8 * 0.175) = 86 G.
  EXPECT_EQ(f.ack(Time::us(61), 1024, Time::us(64)).rate, Rate::gbps(86));
  // rtt_diff = 0.125 * 3.5 us + 0.875 * (-4 us) < 0: R += 100 M.
  EXPECT_EQ(f.ack(Time::us(125), 1024, Time::us(60)).rate, Rate::mbps(86'100));
  EXPECT_DOUBLE_EQ(f.field("rtt_diff_ps", Time::us(125)), -3'062'500.0);
  // Below T_low: four more increases of 100 M, then hyperactive increase (500 M).
  Time t = Time::us(185);
  for (uint64_t expect : {86'200, 86'300, 86'400, 86'500, 87'000, 87'500}) {
    EXPECT_EQ(f.ack(t, 1024, Time::us(40)).rate, Rate::mbps(expect)) << t;
    t += Time::us(40);
  }
  // Above T_high (1 ms): R = 87.5 G * (1 - 0.8 * (1 - 500/1000)) = 52.5 G; stage restarts.
  EXPECT_EQ(f.ack(t, 1024, Time::ms(1)).rate, Rate::mbps(52'500));
  EXPECT_EQ(f.field("inc_stage", t), 0.0);
  EXPECT_EQ(f.ack(t + Time::ms(1), 1024, Time::us(40)).rate, Rate::mbps(52'600));
  EXPECT_TRUE(f.last().next_deadline.is_never());
}

TEST(Timely, HeldBetweenTheMinimumAndTheLineRate) {
  HandFlow f("timely", {}, start_100g());
  f.ack(Time::us(1), 1024, Time::us(100));
  // gradient = 0.875 * 100 us / 20 us = 4.375: 1 - 0.8 * 4.375 < 0, so R = R_min = 100 M.
  EXPECT_EQ(f.ack(Time::us(101), 1024, Time::us(200)).rate, Rate::mbps(100));
  HandFlow g("timely", {}, start_100g());
  g.ack(Time::us(1), 1024, Time::us(30));
  EXPECT_EQ(g.ack(Time::us(31), 1024, Time::us(30)).rate, Rate::gbps(100));  // not 100.1 G
}

TEST(Timely, RangesAreChecked) {
  EXPECT_THAT(configure_error("timely", {{"t_low_ns", int64_t{600'000}}}),
              HasSubstr("timely: t_low_ns = 600000 is not below t_high_ns = 500000"));
  EXPECT_THAT(configure_error("timely", {{"beta", 1.5}}),
              HasSubstr("timely: beta = 1.5 is invalid: expected a number in 0..1"));
  EXPECT_THAT(configure_error("timely", {{"min_rtt_ns", int64_t{0}}}),
              HasSubstr("min_rtt_ns = 0 is invalid: expected a whole number in 1..1000000000 (ns)"));
  EXPECT_THAT(configure_error("timely", {{"t_low_us", int64_t{5}}}),
              HasSubstr("unknown parameter 't_low_us'; valid parameters: t_low_ns, t_high_ns"));
}

}  // namespace
}  // namespace rtb::cc::testing
