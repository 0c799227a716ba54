// Longest-prefix forwarding and ECMP by a deterministic 5-tuple hash.
#include "switch/route_table.h"

#include <gtest/gtest.h>

#include <array>
#include <cmath>

namespace rtb::sw {
namespace {

FlowKey flow(uint32_t i) {
  return FlowKey{0x0A000000u + (i % 251), 0x0A010000u + 7, static_cast<uint16_t>(0xC000 + i), 4791, 17};
}

TEST(RouteTable, LongestPrefixWins) {
  const RouteTable t({{0x0A010000, 16, {0}}, {0x0A010007, 32, {2}}, {0, 0, {3}}}, 0);
  EXPECT_EQ(t.lookup({1, 0x0A010007, 1, 2, 17}), 2);
  EXPECT_EQ(t.lookup({1, 0x0A010008, 1, 2, 17}), 0);
  EXPECT_EQ(t.lookup({1, 0x0B000001, 1, 2, 17}), 3);
  EXPECT_EQ(RouteTable({{0x0A010000, 16, {0}}}, 0).lookup({1, 0x0B000001, 1, 2, 17}), kNoPort);
}

TEST(RouteTable, EcmpSpreadsFlowsEvenlyAndDeterministically) {
  const RouteTable a({{0x0A010000, 16, {4, 5, 6, 7}}}, 0x1234);
  const RouteTable b({{0x0A010000, 16, {4, 5, 6, 7}}}, 0x1234);
  std::array<int, 8> per_port{};
  constexpr int kFlows = 4'000;
  for (uint32_t i = 0; i < kFlows; ++i) {
    const int p = a.lookup(flow(i));
    ASSERT_GE(p, 4);
    ASSERT_EQ(p, a.lookup(flow(i)));  // the same flow always takes the same path
    ASSERT_EQ(p, b.lookup(flow(i)));  // on every switch built with the same seed
    ++per_port[p];
  }
  // Binomial(4000, 1/4): mean 1000, sd 27.4; allow 5 sd.
  for (int p = 4; p < 8; ++p) EXPECT_NEAR(per_port[p], 1'000, 137) << "port " << p;
}

TEST(RouteTable, AnotherSeedMovesFlows) {
  const RouteTable a({{0x0A010000, 16, {0, 1}}}, 1);
  const RouteTable b({{0x0A010000, 16, {0, 1}}}, 2);
  int moved = 0;
  for (uint32_t i = 0; i < 1'000; ++i) moved += a.lookup(flow(i)) != b.lookup(flow(i));
  EXPECT_GT(moved, 400);
  EXPECT_LT(moved, 600);
}

TEST(RouteTable, HashIsAFixedFunctionOfTheTuple) {
  // Pinned values: a change of the hash changes every ECMP result in every scenario.
  EXPECT_EQ(flow_hash(FlowKey{0x0A000001, 0x0A000002, 0xC000, 4791, 17}, 0), 
            fmix64(fmix64(0x0A0000010A000002ULL) ^ ((0xC000ULL << 24) | (4791ULL << 8) | 17)));
  EXPECT_NE(flow_hash(FlowKey{1, 2, 3, 4, 17}, 0), flow_hash(FlowKey{1, 2, 4, 3, 17}, 0));
}

}  // namespace
}  // namespace rtb::sw
