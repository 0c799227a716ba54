// DCTCP, rate form: every expected value below is computed by hand from the formulas in
// cc_algos/dctcp/dctcp.h with the defaults g = 1/16, alpha0 = 1, R_AI = 615 Mb/s.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "cc_flow.h"

namespace rtb::cc::testing {
namespace {

using ::testing::HasSubstr;

FlowStart start_100g() { return FlowStart{Rate::gbps(100), Time::us(10), 1}; }

TEST(Dctcp, CutsOncePerRoundTripOnEchoesAndUpdatesAlphaOncePerRoundTrip) {
  HandFlow f("dctcp", {}, start_100g());
  EXPECT_EQ(f.last().rate, Rate::gbps(100));
  // Echo outside CWR: R = 100 G * (1 - 1/2) = 50 G; CWR until 1 + 10 us.
  EXPECT_EQ(f.ack(Time::us(1), 1000, Time::us(10), true).rate, Rate::gbps(50));
  EXPECT_EQ(f.ack(Time::us(5), 1000, Time::us(10), true).rate, Rate::gbps(50));  // in CWR
  // First round trip ends at 10 us: F = 2000/4000, alpha = 15/16 + 1/32 = 31/32. Still CWR.
  EXPECT_EQ(f.ack(Time::us(10), 2000, Time::us(10)).rate, Rate::gbps(50));
  EXPECT_DOUBLE_EQ(f.field("alpha", Time::us(10)), 31.0 / 32);
  // CWR over (12 >= 11): R = 50 G * (1 - 31/64) = 25.78125 G; CWR until 12 + 8 us.
  EXPECT_EQ(f.ack(Time::us(12), 1000, Time::us(8), true).rate, Rate::bps(25'781'250'000));
  // Round trip ends at 20 us: F = 1000/4000, alpha = 15/16 * 31/32 + 1/64 = 473/512; CWR
  // ends; one additive increase: 25.78125 G + 615 M.
  EXPECT_EQ(f.ack(Time::us(20), 3000, Time::us(8)).rate, Rate::bps(26'396'250'000));
  EXPECT_DOUBLE_EQ(f.field("alpha", Time::us(20)), 473.0 / 512);
  EXPECT_EQ(f.ack(Time::us(21), 1000, Time::us(8)).rate, Rate::bps(26'396'250'000));
  // Next round trip (28 us), no echo in it: alpha = 15/16 * 473/512, R += 615 M.
  EXPECT_EQ(f.ack(Time::us(28), 1000, Time::us(8)).rate, Rate::bps(27'011'250'000));
  EXPECT_DOUBLE_EQ(f.field("alpha", Time::us(28)), 15.0 / 16 * 473.0 / 512);
  EXPECT_TRUE(f.last().next_deadline.is_never());
  EXPECT_FALSE(f.last().window.has_value());
}

TEST(Dctcp, HeldBetweenTheMinimumAndTheLineRate) {
  HandFlow f("dctcp", {{"min_rate_mbps", int64_t{20'000}}}, start_100g());
  // alpha stays 1 (every byte marked): 100 -> 50 -> 25 -> floor 20 G, one cut per 10 us.
  Time t = Time::us(1);
  for (Rate expect : {Rate::gbps(50), Rate::gbps(25), Rate::gbps(20), Rate::gbps(20)}) {
    EXPECT_EQ(f.ack(t, 1000, Time::us(10), true).rate, expect) << t;
    t += Time::us(10);
  }
  HandFlow g("dctcp", {{"ai_rate_mbps", int64_t{40'000}}}, start_100g());
  EXPECT_EQ(g.ack(Time::us(1), 1000, Time::us(10), true).rate, Rate::gbps(50));
  EXPECT_EQ(g.ack(Time::us(11), 1000, Time::us(10)).rate, Rate::gbps(90));  // + 40 G
  EXPECT_EQ(g.ack(Time::us(21), 1000, Time::us(10)).rate, Rate::gbps(100));  // not 130 G
}

TEST(Dctcp, RangesAreChecked) {
  EXPECT_THAT(configure_error("dctcp", {{"g", 0.0}}),
              HasSubstr("dctcp: g = 0 is invalid: expected a number in 0.0009765625..1"));
  EXPECT_THAT(configure_error("dctcp", {{"ai_rate_mbps", 1.5}}),
              HasSubstr("ai_rate_mbps = 1.5 is invalid: expected a whole number in 1..10000000 (Mb/s)"));
  EXPECT_THAT(configure_error("dctcp", {{"initial_alpha", std::string("x")}}),
              HasSubstr("initial_alpha = \"x\" is invalid"));
  EXPECT_THAT(configure_error("dctcp", {{"k_bytes", int64_t{1}}}),
              HasSubstr("unknown parameter 'k_bytes'; valid parameters: g, initial_alpha, "
                        "ai_rate_mbps, min_rate_mbps"));
}

}  // namespace
}  // namespace rtb::cc::testing
