// Longest-prefix forwarding and ECMP by a deterministic 5-tuple hash.
#include "switch/route_table.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

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

// The first route in longest-prefix order that matches, by a plain scan: what the table's
// index of /32 routes must agree with.
int reference_lookup(std::vector<Route> routes, const FlowKey& k, uint64_t seed) {
  std::stable_sort(routes.begin(), routes.end(),
                   [](const Route& a, const Route& b) { return a.prefix_len > b.prefix_len; });
  for (const Route& r : routes) {
    const uint32_t mask = r.prefix_len == 0 ? 0 : ~uint32_t{0} << (32 - r.prefix_len);
    if ((k.dst_ip & mask) != (r.prefix & mask)) continue;
    // A one-route table of this route alone forwards by the same hash.
    return RouteTable({{r.prefix, r.prefix_len, r.ports}}, seed).lookup(k);
  }
  return kNoPort;
}

TEST(RouteTable, ManyHostRoutesAndPrefixesForwardAsTheLongestPrefixScan) {
  // A spine's table: a /32 per host (some twice, the first wins), /24 per leaf, a default
  // over four uplinks.
  std::vector<Route> routes;
  for (uint32_t leaf = 0; leaf < 8; ++leaf) {
    routes.push_back({0x0A000000u | (leaf << 8), 24, {static_cast<uint16_t>(leaf)}});
    for (uint32_t h = 0; h < 16; h += (leaf % 3 == 0 ? 2 : 1)) {
      routes.push_back({0x0A000000u | (leaf << 8) | h, 32, {static_cast<uint16_t>(20 + h % 4)}});
    }
  }
  routes.push_back({0x0A000105u, 32, {31}});  // a second route to 10.0.1.5: not taken
  routes.push_back({0, 0, {40, 41, 42, 43}});
  const RouteTable t(routes, 0x77);
  for (uint32_t i = 0; i < 5'000; ++i) {
    const FlowKey k{0x0A000000u + i % 9, 0x0A000000u + (i * 37) % 2'600, static_cast<uint16_t>(i), 4791, 17};
    ASSERT_EQ(t.lookup(k), reference_lookup(routes, k, 0x77)) << std::hex << k.dst_ip;
  }
  EXPECT_EQ(t.lookup({1, 0x0A000105u, 1, 4791, 17}), 20 + 5 % 4);
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
