// Strict priority and DWRR (Shreedhar & Varghese 1995): backlogged DWRR queues share the
// port within 1% of their weights, whatever their frame sizes.
#include "switch/egress_scheduler.h"

#include <gtest/gtest.h>

#include "core/rng.h"

namespace rtb::sw {
namespace {

std::array<SchedulerConfig, kPriorities> dwrr(std::array<uint32_t, kPriorities> weights) {
  std::array<SchedulerConfig, kPriorities> c{};
  for (int q = 0; q < kPriorities; ++q) c[q] = {SchedulerConfig::Type::kDwrr, weights[q]};
  return c;
}

TEST(EgressScheduler, DwrrSharesBytesWithinOnePercentOfTheWeights) {
  const std::array<uint32_t, kPriorities> weights{1, 2, 5, 3, 1, 1, 1, 1};
  EgressScheduler s(dwrr(weights), 9'216);
  Rng rng(9, 9);
  std::array<uint32_t, kPriorities> heads{};
  for (int q = 0; q < 4; ++q) heads[q] = 64 + static_cast<uint32_t>(rng.uniform_int(9'000));
  std::array<uint64_t, kPriorities> sent{};
  uint64_t total = 0;
  for (int i = 0; i < 200'000; ++i) {
    const int q = s.select(0x0F, heads);  // queues 0..3 always backlogged
    ASSERT_GE(q, 0);
    ASSERT_LT(q, 4);
    sent[q] += heads[q];
    total += heads[q];
    s.on_sent(q, heads[q], false);
    heads[q] = 64 + static_cast<uint32_t>(rng.uniform_int(9'000));
  }
  const double weight_sum = 1 + 2 + 5 + 3;
  for (int q = 0; q < 4; ++q) {
    const double share = static_cast<double>(sent[q]) / static_cast<double>(total);
    const double want = weights[q] / weight_sum;
    EXPECT_NEAR(share / want, 1.0, 0.01) << "queue " << q;
  }
}

TEST(EgressScheduler, AQueueThatIsNotEligibleIsSkippedAndOthersShare) {
  EgressScheduler s(dwrr({1, 1, 1, 1, 1, 1, 1, 1}), 1'500);
  std::array<uint32_t, kPriorities> heads{};
  heads.fill(1'000);
  std::array<int, kPriorities> count{};
  for (int i = 0; i < 3'000; ++i) {
    const int q = s.select(0b0000'0101, heads);  // queue 1 paused, 0 and 2 backlogged
    ++count[q];
    s.on_sent(q, 1'000, false);
  }
  EXPECT_EQ(count[1], 0);
  EXPECT_EQ(count[0], 1'500);
  EXPECT_EQ(count[2], 1'500);
  EXPECT_EQ(s.select(0, heads), -1);
}

TEST(EgressScheduler, StrictQueuesGoFirstHighestNumberFirst) {
  auto c = dwrr({1, 1, 1, 1, 1, 1, 1, 1});
  c[6].type = SchedulerConfig::Type::kStrict;
  c[5].type = SchedulerConfig::Type::kStrict;
  EgressScheduler s(c, 9'216);
  std::array<uint32_t, kPriorities> heads{};
  heads.fill(100);
  EXPECT_EQ(s.select(0xFF, heads), 6);
  EXPECT_EQ(s.select(0b0010'0001, heads), 5);
  EXPECT_EQ(s.select(0b0000'1001, heads), 0);
}

}  // namespace
}  // namespace rtb::sw
