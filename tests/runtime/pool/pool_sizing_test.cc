// Pool sizing arithmetic (no EAL needed).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "runtime/pool/mbuf_pool_sizing.h"

namespace rtb::runtime {
namespace {

using ::testing::HasSubstr;

TEST(FramesFor, RoundsUp) {
  EXPECT_EQ(frames_for(Bytes(0), 64), 0u);
  EXPECT_EQ(frames_for(Bytes(64), 64), 1u);
  EXPECT_EQ(frames_for(Bytes(65), 64), 2u);
  EXPECT_EQ(frames_for(Bytes::mb(4), 64), 62'500u);
  EXPECT_EQ(frames_for(Bytes(100'000), 64), 1'563u);
}

PoolConfig example() {
  PoolConfig c;
  c.data_buffer_bytes = Bytes::mb(4);          // one 4 MB switch buffer
  c.data_in_flight_bytes = Bytes(100'000);
  c.smallest_data_frame_bytes = 64;
  c.largest_data_frame_bytes = 1024 + 128;
  c.control_buffer_bytes = Bytes(60'000);
  c.control_in_flight_bytes = Bytes(6'000);
  c.smallest_control_frame_bytes = 60;
  c.largest_control_frame_bytes = 128;
  return c;
}

TEST(SizePools, BufferOverSmallestFramePlusInFlightPlusBurst) {
  auto s = size_pools(example());
  ASSERT_TRUE(s) << s.error().message;
  EXPECT_EQ(s.value().data_count, 62'500u + 1'563u + 32u);
  EXPECT_EQ(s.value().control_count, 1'000u + 100u + 32u);
  EXPECT_EQ(s.value().data_room, 128u + 1152u);
  EXPECT_EQ(s.value().control_room, 128u + 128u);
  EXPECT_EQ(s.value().cache_size, 0u);
}

TEST(SizePools, CacheAndLcoreSlack) {
  auto c = example();
  c.lcores = 2;
  c.cache_size = 256;
  c.burst = 64;
  auto s = size_pools(c);
  ASSERT_TRUE(s);
  // Each lcore: up to 1.5 x 256 cached plus one burst of 64.
  EXPECT_EQ(s.value().data_count, 62'500u + 1'563u + 2 * (384u + 64u));
  EXPECT_EQ(s.value().cache_size, 256u);
}

TEST(SizePools, MemoryEstimateCoversEveryMbuf) {
  auto s = size_pools(example());
  ASSERT_TRUE(s);
  const auto& p = s.value();
  EXPECT_GE(p.memory_bytes(), uint64_t{p.data_count} * mbuf_footprint_bytes(p.data_room) +
                                  uint64_t{p.control_count} *
                                      mbuf_footprint_bytes(p.control_room));
  // A 2 KB data room costs about 2.4 KB, not a 4 KiB page.
  EXPECT_LT(mbuf_footprint_bytes(2048 + 128), 2600u);
  EXPECT_GE(mbuf_footprint_bytes(2048 + 128), 2048u + 128u + 128u + 32u);
}

TEST(SizePools, Errors) {
  auto c = example();
  c.smallest_data_frame_bytes = 0;
  auto e = size_pools(c);
  ASSERT_FALSE(e);
  EXPECT_THAT(e.error().message, HasSubstr("smallest_data_frame_bytes is 0"));

  c = example();
  c.smallest_control_frame_bytes = 200;
  e = size_pools(c);
  ASSERT_FALSE(e);
  EXPECT_THAT(e.error().message,
              HasSubstr("smallest_control_frame_bytes = 200 is larger than "
                        "largest_control_frame_bytes = 128"));

  c = example();
  c.largest_data_frame_bytes = 65'500;
  e = size_pools(c);
  ASSERT_FALSE(e);
  EXPECT_THAT(e.error().message, HasSubstr("largest_data_frame_bytes = 65500"));
  EXPECT_THAT(e.error().message, HasSubstr("65535"));

  c = example();
  c.lcores = 0;
  EXPECT_FALSE(size_pools(c));

  c = example();
  c.data_buffer_bytes = Bytes::mb(1'000'000);  // 1 TB of 1-byte frames
  c.smallest_data_frame_bytes = 1;
  e = size_pools(c);
  ASSERT_FALSE(e);
  EXPECT_THAT(e.error().message, HasSubstr("data pool would need"));
}

}  // namespace
}  // namespace rtb::runtime
