// EthBridge over ring pairs: a stage sends on a WireLink, a bridge puts the frames on a
// port, the ring carries them, the bridge at the other end delivers them onto a WireLink,
// and a receiving stage gets them in order. With a port that refuses frames, the held
// frames stop the link and the sender (back-pressure), and all arrive once the far side
// drains. Time here is a hand-driven value, as a realtime lcore's clock would pass it.
#include <gtest/gtest.h>

#include "ethport/eth_bridge.h"
#include "tests/ethport/ethport_test_util.h"
#include "tests/runtime/test_stages.h"

namespace rtb::ethport::testing {
namespace {

using runtime::WireLink;
using runtime::testing::ReceiverStage;
using runtime::testing::SenderStage;

class Bridge : public PortTest {};

WireLink make_link(const std::string& name) {
  return WireLink({.name = name, .rate = Rate::gbps(100)});
}

uint32_t frame_len(uint32_t i) { return 60 + (i * 53) % 1500; }

// Polls `stages` with now advancing by `step` until `done()` or `max_loops`.
template <typename Done>
Time run(std::initializer_list<runtime::Stage*> stages, Time now, Done done,
         uint32_t max_loops = 100'000, Time step = Time::ns(100)) {
  for (uint32_t i = 0; i < max_loops && !done(); ++i) {
    now += step;
    for (runtime::Stage* s : stages) s->poll(now);
  }
  return now;
}

void expect_in_order(const ReceiverStage& rx, uint32_t n, uint8_t tag_offset) {
  ASSERT_EQ(rx.arrivals().size(), n);
  for (uint32_t i = 0; i < n; ++i) {
    EXPECT_EQ(rx.arrivals()[i].length, frame_len(i)) << "frame " << i;
    EXPECT_EQ(rx.arrivals()[i].first_byte, static_cast<uint8_t>(i + tag_offset)) << i;
  }
}

TEST_F(Bridge, StageToStageThroughARingPairBothWays) {
  auto pair = EthPort::ring_pair(unique_name("br"));
  ASSERT_TRUE(pair.ok()) << pair.error().message;
  WireLink a_out = make_link("a->port"), a_in = make_link("port->a");
  WireLink b_out = make_link("b->port"), b_in = make_link("port->b");
  EthBridge bridge_a("bridge_a", *pair.value().first, &a_out, &a_in);
  EthBridge bridge_b("bridge_b", *pair.value().second, &b_out, &b_in);
  SenderStage send_a("send_a", a_out), send_b("send_b", b_out);
  ReceiverStage recv_a("recv_a", a_in), recv_b("recv_b", b_in);
  EXPECT_EQ(bridge_a.next_deadline(), Time::zero());

  constexpr uint32_t kFrames = 1000;
  uint64_t bytes = 0;
  for (uint32_t i = 0; i < kFrames; ++i) {
    std::vector<uint8_t> f(frame_len(i), 0);
    f[0] = static_cast<uint8_t>(i);
    send_a.enqueue(make_frame(pool(), f));
    f[0] = static_cast<uint8_t>(i + 100);
    send_b.enqueue(make_frame(pool(), f));
    bytes += f.size();
  }
  run({&send_a, &send_b, &bridge_a, &bridge_b, &recv_a, &recv_b}, Time::zero(), [&] {
    return recv_a.arrivals().size() == kFrames && recv_b.arrivals().size() == kFrames;
  });
  expect_in_order(recv_b, kFrames, 0);
  expect_in_order(recv_a, kFrames, 100);
  for (const EthBridge* b : {&bridge_a, &bridge_b}) {
    EXPECT_EQ(b->counters().tx_frames, kFrames) << b->name();
    EXPECT_EQ(b->counters().tx_bytes, bytes) << b->name();
    EXPECT_EQ(b->counters().rx_frames, kFrames) << b->name();
    EXPECT_EQ(b->counters().rx_bytes, bytes) << b->name();
    EXPECT_EQ(b->counters().tx_held_retries, 0u) << b->name();
  }
  EXPECT_EQ(b_in.counters().delivered, kFrames);
}

TEST_F(Bridge, FullPortHoldsFramesAndBackPressuresTheSender) {
  constexpr uint32_t kRing = 64;  // holds 63 frames
  auto pair = EthPort::ring_pair(unique_name("br"), 0, kRing);
  ASSERT_TRUE(pair.ok()) << pair.error().message;
  WireLink out = make_link("a->port"), in = make_link("port->b");
  EthBridge bridge_a("bridge_a", *pair.value().first, &out, nullptr);
  EthBridge bridge_b("bridge_b", *pair.value().second, nullptr, &in);
  SenderStage send("send", out);
  ReceiverStage recv("recv", in);

  constexpr uint32_t kFrames = 600;
  for (uint32_t i = 0; i < kFrames; ++i) {
    std::vector<uint8_t> f(frame_len(i), 0);
    f[0] = static_cast<uint8_t>(i);
    send.enqueue(make_frame(pool(), f));
  }
  // The far side is not polled: the ring fills, the bridge holds a burst, the link fills.
  Time now = run({&send, &bridge_a}, Time::zero(), [] { return false; }, 5'000);
  EXPECT_FALSE(out.can_send(now));
  EXPECT_LE(out.room(), WireLink::kControlReserve);
  EXPECT_GE(bridge_a.held(), 1u);
  EXPECT_GT(bridge_a.counters().tx_held_retries, 0u);
  EXPECT_EQ(bridge_a.counters().tx_frames, kRing - 1);
  // Nothing lost: every frame is in the sender's queue, the link, the bridge or the ring.
  EXPECT_EQ(send.queued() + out.in_flight() + bridge_a.held() + (kRing - 1), kFrames);
  EXPECT_GT(send.queued(), 0u);

  // The far side drains: the held frames go, then everything else, in order.
  run({&send, &bridge_a, &bridge_b, &recv}, now,
      [&] { return recv.arrivals().size() == kFrames; });
  expect_in_order(recv, kFrames, 0);
  EXPECT_EQ(bridge_a.counters().tx_frames, kFrames);
  EXPECT_EQ(bridge_a.held(), 0u);
  EXPECT_EQ(bridge_a.drain(), 0u);
}

TEST_F(Bridge, DrainFreesHeldFrames) {
  auto pair = EthPort::ring_pair(unique_name("br"), 0, 4);  // holds 3
  ASSERT_TRUE(pair.ok()) << pair.error().message;
  WireLink out = make_link("a->port");
  EthBridge bridge("bridge", *pair.value().first, &out, nullptr);
  SenderStage send("send", out);
  for (uint32_t i = 0; i < 10; ++i) send.enqueue(make_frame(pool(), std::vector<uint8_t>(64)));
  Time now = run({&send, &bridge}, Time::zero(), [] { return false; }, 100);
  EXPECT_EQ(bridge.counters().tx_frames, 3u);
  const uint32_t held = bridge.held();
  EXPECT_GE(held, 1u);
  EXPECT_EQ(3 + held + out.in_flight() + send.queued(), 10u);
  EXPECT_EQ(bridge.drain(), held);
  EXPECT_EQ(bridge.held(), 0u);
  // Free what the sender still holds: let it send, and take the frames off the link.
  rte_mbuf* burst[16];
  for (int i = 0; i < 100 && (send.queued() > 0 || out.in_flight() > 0); ++i) {
    now += Time::us(1);
    send.poll(now);
    rte_pktmbuf_free_bulk(burst, out.receive(now, burst, 16));
  }
}


TEST_F(Bridge, InboundTakesNoMoreThanTheLinkHasRoomFor) {
  auto pair = EthPort::ring_pair(unique_name("br"));
  ASSERT_TRUE(pair.ok()) << pair.error().message;
  WireLink in = make_link("port->b");
  EthBridge bridge("bridge_b", *pair.value().second, nullptr, &in);
  ReceiverStage recv("recv", in);
  constexpr uint32_t kFrames = 500;
  std::vector<rte_mbuf*> frames;
  for (uint32_t i = 0; i < kFrames; ++i) {
    std::vector<uint8_t> f(frame_len(i), 0);
    f[0] = static_cast<uint8_t>(i);
    frames.push_back(make_frame(pool(), f));
  }
  ASSERT_EQ(send_all(*pair.value().first, frames, after_seconds(10)), kFrames);
  // The receiving stage is not polled: the link fills and the rest waits in the ring.
  Time now = run({&bridge}, Time::zero(), [] { return false; }, 100);
  EXPECT_EQ(in.room(), 0u);
  EXPECT_EQ(bridge.counters().rx_frames, in.in_flight());
  EXPECT_LT(bridge.counters().rx_frames, kFrames);
  run({&bridge, &recv}, now, [&] { return recv.arrivals().size() == kFrames; });
  expect_in_order(recv, kFrames, 0);
}

// Mbufs whose length fields lie (a broken driver or peer) are counted and freed before any
// stage reads them; good frames around them arrive.
TEST_F(Bridge, MalformedMbufsAreDroppedBeforeAnyStageReadsThem) {
  auto pair = EthPort::ring_pair(unique_name("br"));
  ASSERT_TRUE(pair.ok()) << pair.error().message;
  WireLink in = make_link("port->b");
  EthBridge bridge("bridge_b", *pair.value().second, nullptr, &in);
  ReceiverStage recv("recv", in);
  std::vector<rte_mbuf*> frames;
  for (uint32_t i = 0; i < 4; ++i) {
    std::vector<uint8_t> f(frame_len(i), 0);
    f[0] = static_cast<uint8_t>(i);
    frames.push_back(make_frame(pool(), f));
  }
  frames[1]->pkt_len = frames[1]->data_len + 100;                            // lengths disagree
  frames[2]->data_len = static_cast<uint16_t>(frames[2]->buf_len);           // past the buffer's end
  frames[2]->pkt_len = frames[2]->data_len;
  ASSERT_EQ(send_all(*pair.value().first, frames, after_seconds(10)), 4u);
  run({&bridge, &recv}, Time::zero(), [&] { return recv.arrivals().size() == 2; });
  ASSERT_EQ(recv.arrivals().size(), 2u);
  EXPECT_EQ(recv.arrivals()[0].first_byte, 0);
  EXPECT_EQ(recv.arrivals()[1].first_byte, 3);
  EXPECT_EQ(bridge.counters().rx_dropped_malformed, 2u);
  EXPECT_EQ(bridge.counters().rx_frames, 2u);
}

}  // namespace
}  // namespace rtb::ethport::testing
