// Ring pairs: two ports back to back; what one sends the other receives, in order and
// byte for byte, both ways. A single net_ring vdev loops back to itself.
#include <gtest/gtest.h>

#include "tests/ethport/ethport_test_util.h"

namespace rtb::ethport::testing {
namespace {

class RingPair : public PortTest {};

std::vector<rte_mbuf*> make_frames(runtime::MbufPool& pool, uint32_t n, uint8_t dir) {
  std::vector<rte_mbuf*> frames;
  for (uint32_t i = 0; i < n; ++i) {
    frames.push_back(make_frame(pool, test_bytes(60 + (i * 37) % 1400, i, dir)));
  }
  return frames;
}

void expect_in_order(const std::vector<std::vector<uint8_t>>& got, uint32_t n, uint8_t dir) {
  ASSERT_EQ(got.size(), n);
  for (uint32_t i = 0; i < n; ++i) {
    EXPECT_EQ(got[i], test_bytes(60 + (i * 37) % 1400, i, dir)) << "frame " << i;
  }
}

TEST_F(RingPair, FramesCrossBothWaysInOrder) {
  auto pair = EthPort::ring_pair(unique_name("rp"));
  ASSERT_TRUE(pair.ok()) << pair.error().message;
  EthPort& a = *pair.value().first;
  EthPort& b = *pair.value().second;
  EXPECT_EQ(a.id(), b.id());  // one port id for the pair: its queue 0 and queue 1
  EXPECT_EQ(a.queue(), 0);
  EXPECT_EQ(b.queue(), 1);
  EXPECT_TRUE(a.link_up());
  EXPECT_EQ(a.max_frame(), kMaxFrameBytes);

  constexpr uint32_t kFrames = 500;  // more than one ring's worth is fine: b drains
  for (uint8_t dir = 0; dir < 2; ++dir) {
    EthPort& from = dir == 0 ? a : b;
    EthPort& to = dir == 0 ? b : a;
    auto frames = make_frames(pool(), kFrames, dir);
    // 500 frames fit in the 1023-frame ring: send them all, then receive.
    ASSERT_EQ(send_all(from, frames, after_seconds(10)), kFrames);
    expect_in_order(receive(to, kFrames, after_seconds(10)), kFrames, dir);
  }
  // Each end counts its own queue: both directions carried kFrames.
  EXPECT_EQ(a.stats_json()["opackets"], kFrames);
  EXPECT_EQ(a.stats_json()["ipackets"], kFrames);
  EXPECT_EQ(b.stats_json()["ipackets"], kFrames);
  EXPECT_EQ(b.stats_json()["opackets"], kFrames);
}

TEST_F(RingPair, FullRingRefusesAndFramesLeftAreFreedAtTheEnd) {
  auto pair = EthPort::ring_pair(unique_name("rp"), 0, 16);
  ASSERT_TRUE(pair.ok()) << pair.error().message;
  auto frames = make_frames(pool(), 20, 0);
  const uint16_t taken = pair.value().first->tx(frames.data(), 20);
  EXPECT_EQ(taken, 15);  // a ring of 16 holds 15
  rte_pktmbuf_free_bulk(frames.data() + taken, 20 - taken);
  // The 15 frames stay in the ring: the ports and the rings free them (leak check).
}

TEST_F(RingPair, SingleRingVdevLoopsBack) {
  auto port = EthPort::open({.device = unique_name("net_ring")}, mempool());
  ASSERT_TRUE(port.ok()) << port.error().message;
  auto frames = make_frames(pool(), 10, 0);
  ASSERT_EQ(send_all(*port.value(), frames, after_seconds(10)), 10u);
  expect_in_order(receive(*port.value(), 10, after_seconds(10)), 10, 0);
}

TEST_F(RingPair, BadNamesAndSizesAreRefused) {
  auto long_name = EthPort::ring_pair("a_name_that_is_far_too_long");
  ASSERT_FALSE(long_name.ok());
  EXPECT_NE(long_name.error().message.find("1 to 16"), std::string::npos);
  auto size = EthPort::ring_pair(unique_name("rp"), 0, 100);
  ASSERT_FALSE(size.ok());
  EXPECT_NE(size.error().message.find("power of two"), std::string::npos);
  const std::string name = unique_name("rp");
  auto first = EthPort::ring_pair(name);
  ASSERT_TRUE(first.ok()) << first.error().message;
  auto again = EthPort::ring_pair(name);
  ASSERT_FALSE(again.ok());
  EXPECT_NE(again.error().message.find(name), std::string::npos);
}

}  // namespace
}  // namespace rtb::ethport::testing
