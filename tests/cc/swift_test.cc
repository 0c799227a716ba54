// Swift's fabric loop: every expected value is computed by hand from the formulas in
// cc_algos/swift/swift.h.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "cc_flow.h"

namespace rtb::cc::testing {
namespace {

using ::testing::HasSubstr;

// No flow scaling, a window of at most 10 packets of 1024 bytes, beta = 1/2.
ParamMap plain() {
  return {{"fs_range_ns", int64_t{0}}, {"max_cwnd", 10.0}, {"beta", 0.5}};
}
FlowStart path(uint32_t hops) { return FlowStart{Rate::gbps(100), Time::us(1), 1, hops}; }

TEST(Swift, CutsAboveTheTargetOncePerRttAndGrowsBelowIt) {
  HandFlow f("swift", plain(), path(2));  // target = 2000 + 2 * 500 ns = 3 us
  EXPECT_EQ(f.last().window, Bytes(10'240));
  EXPECT_EQ(f.last().rate, Rate::gbps(100));
  // delay 4 us: cwnd = 10 * max(1 - 0.5 * (4 - 3)/4, 0.5) = 8.75 packets.
  EXPECT_EQ(f.ack(Time::us(1), 1024, Time::us(4)).window, Bytes(8'960));
  // delay 6 us, but the last cut was 2 us ago, less than an RTT (6 us): no cut.
  EXPECT_EQ(f.ack(Time::us(3), 1024, Time::us(6)).window, Bytes(8'960));
  // delay 2 us < 3 us: cwnd += 1 * (2240/1024)/8.75 = 0.25 packets.
  EXPECT_EQ(f.ack(Time::us(4), 2240, Time::us(2)).window, Bytes(9'216));
  // delay 30 us: 1 - 0.5 * 27/30 = 0.55 > 1 - max_mdf: cwnd = 9 * 0.55 = 4.95 packets.
  EXPECT_EQ(f.ack(Time::us(9), 1024, Time::us(30)).window, Bytes(9'216));  // 8 us since the cut < 30 us
  EXPECT_EQ(f.ack(Time::us(40), 1024, Time::us(30)).window->count(), 5068u);  // 4.95 * 1024
}

TEST(Swift, TheTargetGrowsWithTheHopCount) {
  // delay 3.5 us: above 2 + 2 * 0.5 = 3 us (a cut), below 2 + 4 * 0.5 = 4 us (growth).
  HandFlow two("swift", plain(), path(2));
  HandFlow four("swift", plain(), path(4));
  EXPECT_EQ(two.field("target_delay_ps", Time::zero()), 3'000'000.0);
  EXPECT_EQ(four.field("target_delay_ps", Time::zero()), 4'000'000.0);
  EXPECT_LT(two.ack(Time::us(1), 1024, Time::ns(3'500)).window, Bytes(10'240));
  EXPECT_EQ(four.ack(Time::us(1), 1024, Time::ns(3'500)).window, Bytes(10'240));  // at max
}

TEST(Swift, TheTargetShrinksAsTheWindowGrows) {
  // fs_range R = 1 us over windows 1..4: A = R/(1/1 - 1/2) = 2R, B = -R, so
  // fs(cwnd) = 2R/sqrt(cwnd) - R, held in [0, R]. No hop scaling: target = 2 us + fs.
  auto target = [](double cwnd) {
    HandFlow f("swift", {{"fs_range_ns", int64_t{1'000}}, {"fs_min_cwnd", 1.0},
                         {"fs_max_cwnd", 4.0}, {"max_cwnd", cwnd}, {"min_cwnd", 0.01}},
               path(0));
    return f.field("target_delay_ps", Time::zero());
  };
  EXPECT_DOUBLE_EQ(target(0.25), 3'000'000.0);           // 3R clamped to R
  EXPECT_DOUBLE_EQ(target(1.0), 3'000'000.0);            // R
  EXPECT_DOUBLE_EQ(target(2.25), 2'000'000.0 + 1e6 / 3);  // 2R/1.5 - R = R/3
  EXPECT_DOUBLE_EQ(target(4.0), 2'000'000.0);            // 0
  EXPECT_DOUBLE_EQ(target(100.0), 2'000'000.0);          // below 0, held at 0
}

TEST(Swift, BelowOnePacketItPacesOnePacketPerRttOverCwnd) {
  HandFlow f("swift", {{"max_cwnd", 1.0}}, path(1));  // base RTT 1 us
  // A NAK (fast recovery) halves the window: 0.5 packets, paced 0.5 * 8192 bits per 1 us.
  EXPECT_EQ(f.ack(Time::us(1), 0, Time::zero(), false, true).rate, Rate::mbps(4'096));
  EXPECT_EQ(f.last().window, Bytes(1024));
  EXPECT_EQ(f.ack(Time::ns(1'500), 0, Time::zero(), false, true).rate, Rate::mbps(4'096));
  EXPECT_EQ(f.ack(Time::us(2), 0, Time::zero(), false, true).rate, Rate::mbps(2'048));
  // Below one packet, growth is ai * acked packets: 0.25 + 0.5 = 0.75 packets.
  EXPECT_EQ(f.ack(Time::us(3), 512, Time::us(2)).rate, Rate::mbps(3'072));  // 0.75*8192/2us
}

TEST(Swift, RangesAreChecked) {
  EXPECT_THAT(configure_error("swift", {{"fs_min_cwnd", 200.0}}),
              HasSubstr("swift: fs_min_cwnd = 200 is not below fs_max_cwnd = 100"));
  EXPECT_THAT(configure_error("swift", {{"max_mdf", 1.0}}),
              HasSubstr("swift: max_mdf = 1 is invalid: expected a number in 0..0.99"));
  EXPECT_THAT(configure_error("swift", {{"max_cwnd", 0.001}}),
              HasSubstr("max_cwnd = 0.001 is below min_cwnd = 0.01"));
  EXPECT_THAT(configure_error("swift", {{"target_us", int64_t{5}}}),
              HasSubstr("unknown parameter 'target_us'; valid parameters: base_target_ns"));
}

}  // namespace
}  // namespace rtb::cc::testing
