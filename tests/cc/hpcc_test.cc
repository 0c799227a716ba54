// HPCC (cc_algos/hpcc/hpcc.h): every expected value is worked out by hand from the
// formulas there. 100 Gb/s, T = 1 us: W_init = 12,500 B, W_AI = 5 B (given),
// W_min = 100 Mb/s x 1 us = 12.5 B, eta = 0.95, maxStage = 5.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <array>

#include "cc_flow.h"

namespace rtb::cc::testing {
namespace {

using ::testing::HasSubstr;

FlowStart path() { return FlowStart{Rate::gbps(100), Time::us(1), 1, 1}; }

// One hop at 100 Gb/s: timestamp (us), cumulative tx bytes, queue bytes.
std::array<rtb_cc_int_hop, 1> hop(double ts_us, uint64_t tx, uint64_t q) {
  return {rtb_cc_int_hop{static_cast<uint64_t>(ts_us * 1e6), tx, q, 100'000'000'000}};
}

TEST(Hpcc, StartsAtTheLineRateWithOneBdpWindow) {
  HandFlow f("hpcc", {{"w_ai_bytes", 5.0}}, path());
  EXPECT_EQ(f.last().rate, Rate::gbps(100));
  EXPECT_EQ(f.last().window, Bytes(12'500));
  EXPECT_EQ(f.field("u", Time::zero()), 1.0);
}

TEST(Hpcc, PerAckReactionAndPerRttReferenceUpdate) {
  HandFlow f("hpcc", {{"w_ai_bytes", 5.0}}, path());
  f.sent(Time::zero(), 10'000);
  // First INT ACK: the hops are recorded, nothing changes (last update at 10,000 B sent).
  auto h = hop(1, 0, 0);
  EXPECT_EQ(f.ack_int(Time::us(1), 1'000, h).window, Bytes(12'500));
  // 0.5 us later, 6,250 B sent (100 Gb/s), queue 25 KB but 0 before: u' = 0 + 1.0;
  // tau/T = 0.5: U = 0.5 x 1 + 0.5 x 1 = 1.0 >= eta: W = 12500 / (1.0/0.95) + 5 = 11,880.
  // Acked 2,000 <= 10,000: the reference window stays.
  h = hop(1.5, 6'250, 25'000);
  const Decision d = f.ack_int(Time::us(1.5), 1'000, h);
  EXPECT_EQ(d.window, Bytes(11'880));
  EXPECT_EQ(d.rate, Rate::bps(95'040'000'000));  // 11,880 B per us
  EXPECT_EQ(f.field("ref_window_bytes", Time::zero()), 12'500.0);
  // Queue 25 KB on both ACKs: u' = 25000 / 12500 + 1.0 = 3; U = 0.5 x 1 + 0.5 x 3 = 2.
  // Acked 11,000 > 10,000: W = 12500 / (2/0.95) + 5 = 5,942.5 becomes the reference.
  h = hop(2, 12'500, 25'000);
  EXPECT_EQ(f.ack_int(Time::us(2), 9'000, h).window, Bytes(5'942));
  EXPECT_EQ(f.last().rate, Rate::bps(47'540'000'000));
  EXPECT_DOUBLE_EQ(f.field("u", Time::zero()), 2.0);
  EXPECT_DOUBLE_EQ(f.field("ref_window_bytes", Time::zero()), 5'942.5);
  EXPECT_EQ(f.field("inc_stage", Time::zero()), 0.0);
}

TEST(Hpcc, AdditiveStepsUntilMaxStageThenMultiplicative) {
  HandFlow f("hpcc", {{"w_ai_bytes", 5.0}}, path());
  uint64_t tx = 0;
  auto step = [&](int k, uint64_t delta) {  // one RTT apart (tau = T: U = u'), a full update
    f.sent(Time::us(k), 1'000);
    tx += delta;
    auto h = hop(k, tx, 0);
    return f.ack_int(Time::us(k), 1'000, h);
  };
  step(1, 0);                                   // first INT ACK: recorded
  EXPECT_EQ(step(2, 25'000).window, Bytes(5'942));  // u' = 2: 12500 x 0.475 + 5 = 5,942.5
  // u' = 0.5 < eta: W = Wc + 5, five times (incStage 1..5).
  for (int k = 3; k <= 7; ++k) step(k, 6'250);
  EXPECT_DOUBLE_EQ(f.field("ref_window_bytes", Time::zero()), 5'967.5);
  EXPECT_EQ(f.field("inc_stage", Time::zero()), 5.0);
  // incStage = maxStage: W = 5967.5 / (0.5/0.95) + 5 = 11,343.25 and incStage 0.
  EXPECT_EQ(step(8, 6'250).window, Bytes(11'343));
  EXPECT_EQ(f.field("inc_stage", Time::zero()), 0.0);
}

TEST(Hpcc, HeldBetweenTheMinimumAndTheLineRate) {
  HandFlow f("hpcc", {{"w_ai_bytes", 5.0}}, path());
  f.sent(Time::zero(), 1'000);
  auto h = hop(1, 0, 100'000'000);
  f.ack_int(Time::us(1), 1'000, h);
  // u' = 10^8 / 12500 + 0 = 8000: W = 12500 / (8000/0.95) + 5 = 6.48 B, held at 12.5 B.
  h = hop(2, 0, 100'000'000);
  f.sent(Time::us(2), 1'000);
  EXPECT_EQ(f.ack_int(Time::us(2), 1'000, h).rate, Rate::mbps(100));
  EXPECT_EQ(f.last().window, Bytes(12));
  // Idle links: u' = 0, U = 0: W = 12.5 + 5 per RTT, never above W_init.
  for (int k = 3; k < 20; ++k) {
    f.sent(Time::us(k), 1'000);
    h = hop(k, 0, 0);
    f.ack_int(Time::us(k), 1'000, h);
  }
  EXPECT_EQ(f.last().rate, Rate::gbps(100));
  EXPECT_EQ(f.last().window, Bytes(12'500));
}

TEST(Hpcc, AckWithoutNewRecordsChangesNothing) {
  HandFlow f("hpcc", {{"w_ai_bytes", 5.0}}, path());
  auto h = hop(1, 0, 0);
  f.ack_int(Time::us(1), 1'000, h);
  const Decision before = f.ack_int(Time::us(2), 1'000, h);  // same records again
  EXPECT_EQ(before.window, Bytes(12'500));
  EXPECT_EQ(f.field("u", Time::zero()), 1.0);
  EXPECT_EQ(f.ack(Time::us(3), 1'000, Time::zero()).window, Bytes(12'500));  // no INT at all
}

TEST(Hpcc, BaseRttParameterOverridesThePath) {
  HandFlow f("hpcc", {{"base_rtt_ns", int64_t{2'000}}, {"w_ai_bytes", 5.0}}, path());
  EXPECT_EQ(f.last().window, Bytes(25'000));  // 100 Gb/s x 2 us
  EXPECT_EQ(f.last().rate, Rate::gbps(100));
}

TEST(Hpcc, RangesAreChecked) {
  EXPECT_THAT(configure_error("hpcc", {{"eta", 1.5}}),
              HasSubstr("hpcc: eta = 1.5 is invalid"));
  EXPECT_THAT(configure_error("hpcc", {{"max_stage", 2.5}}), HasSubstr("max_stage = 2.5 is invalid"));
  EXPECT_THAT(configure_error("hpcc", {{"w_ai_bytes", -1.0}}), HasSubstr("w_ai_bytes = -1 is invalid"));
  EXPECT_THAT(configure_error("hpcc", {{"w_ai", int64_t{5}}}),
              HasSubstr("unknown parameter 'w_ai'; valid parameters: eta, max_stage, w_ai_bytes"));
}

// W_AI's default: W_init x (1 - eta) / 8 = 12,500 x 0.05 / 8 = 78.125 B: u' = 2 gives
// 12500 / (2/0.95) + 78.125 = 6,015.625 B, then one additive step (u' = 0.5) 6,093.75 B.
TEST(Hpcc, DefaultAdditiveStepIsThePapersRule) {
  HandFlow f("hpcc", {}, path());
  auto h = hop(1, 0, 0);
  f.sent(Time::us(1), 1'000);
  f.ack_int(Time::us(1), 1'000, h);
  h = hop(2, 25'000, 0);
  f.sent(Time::us(2), 1'000);
  EXPECT_EQ(f.ack_int(Time::us(2), 1'000, h).window, Bytes(6'015));
  h = hop(3, 31'250, 0);
  f.sent(Time::us(3), 1'000);
  EXPECT_EQ(f.ack_int(Time::us(3), 1'000, h).window, Bytes(6'093));
}

}  // namespace
}  // namespace rtb::cc::testing
