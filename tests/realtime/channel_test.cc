// The SPSC channel: order and completeness across two threads, and a full channel refusing.
#include "realtime/channel.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <thread>

namespace rtb::realtime {
namespace {

TEST(Channel, FullRefusesUntilPopped) {
  Channel<int, 4> c;
  EXPECT_EQ(c.capacity(), 4u);
  for (int i = 0; i < 4; ++i) EXPECT_TRUE(c.push(i)) << i;
  EXPECT_EQ(c.room(), 0u);
  EXPECT_FALSE(c.push(99));
  EXPECT_EQ(c.pending(), 4u);
  int v = -1;
  ASSERT_TRUE(c.pop(v));
  EXPECT_EQ(v, 0);
  EXPECT_TRUE(c.push(4));
  for (int want = 1; want <= 4; ++want) {
    ASSERT_TRUE(c.pop(v));
    EXPECT_EQ(v, want);
  }
  EXPECT_FALSE(c.pop(v));
}

struct Sample {
  uint64_t seq;
  uint64_t twice;
};

TEST(Channel, AMillionItemsAcrossThreadsInOrderNoneLost) {
  constexpr uint64_t kItems = 1'000'000;
  auto c = std::make_unique<Channel<Sample, 1024>>();
  uint64_t refused = 0;  // the producer counts full pushes, as a worker would count losses
  std::thread producer([&] {
    for (uint64_t i = 0; i < kItems;) {
      if (c->push(Sample{i, 2 * i})) {
        ++i;
      } else {
        ++refused;
        std::this_thread::yield();
      }
    }
  });
  uint64_t next = 0;
  uint64_t out_of_order = 0;
  while (next < kItems) {
    Sample s;
    if (!c->pop(s)) {
      std::this_thread::yield();
      continue;
    }
    if (s.seq != next || s.twice != 2 * next) ++out_of_order;
    next = s.seq + 1;
  }
  producer.join();
  EXPECT_EQ(out_of_order, 0u);
  EXPECT_EQ(next, kItems);
  Sample extra;
  EXPECT_FALSE(c->pop(extra));
  RecordProperty("refused_pushes", static_cast<int>(refused));
}

}  // namespace
}  // namespace rtb::realtime
