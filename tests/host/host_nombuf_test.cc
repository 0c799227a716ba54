// A host whose pools run dry, under both rules (lib/host/README.md): with OnEmpty::kCount
// (realtime) every stage that allocates counts the failure and the run goes on, with
// every mbuf back at the end; with OnEmpty::kFatal (virtual time) the process ends with
// the pool's sizing message. The hosts are polled by hand at fixed steps, as a realtime
// loop would poll them, so each count is exact.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <string>
#include <vector>

#include "host/host.h"
#include "tests/host/host_fixture.h"
#include "wire/payload_pattern.h"

namespace rtb::host {
namespace {

using testing::TwoHosts;
using testing::controller;
using testing::host_config;

// A small pool set of its own (names unique in the process) with the given rule.
runtime::PoolSet tiny_pools(const std::string& prefix, runtime::OnEmpty rule) {
  runtime::PoolSizes sizes;
  sizes.data_count = 64;
  sizes.data_room = RTE_PKTMBUF_HEADROOM + 4'096 + 256;
  sizes.control_count = 16;
  sizes.control_room = RTE_PKTMBUF_HEADROOM + 256;
  auto p = runtime::PoolSet::create(sizes, &wire::payload_byte, prefix, rule);
  EXPECT_TRUE(p) << p.error().message;
  return std::move(p).value();
}

// Takes every mbuf the pool has left (what a pool run dry looks like to a stage).
struct Hold {
  explicit Hold(runtime::MbufPool& pool) {
    while (rte_mbuf* m = rte_pktmbuf_alloc(pool.mempool())) held.push_back(m);
  }
  void release() {
    for (rte_mbuf* m : held) rte_pktmbuf_free(m);
    held.clear();
  }
  ~Hold() { release(); }
  std::vector<rte_mbuf*> held;
};

void poll_both(TwoHosts& t, Time now) {
  t.a->poll(now);
  t.b->poll(now);
}

// Polls both hosts every 10 ns in [from, until).
void poll_until(TwoHosts& t, Time from, Time until) {
  for (Time now = from; now < until; now += Time::ns(10)) poll_both(t, now);
}

struct Nombuf : ::testing::Test {
  cc::Controller line_rate = controller("fixed_rate");
};

TEST_F(Nombuf, ADataFrameWaitsForAnMbufAndItsQpStaysReady) {
  runtime::PoolSet pools = tiny_pools("nb_data", runtime::OnEmpty::kCount);
  {
    TwoHosts t(line_rate, line_rate, host_config("a", 1), host_config("b", 2), 1,
               Rate::gbps(100), Time::us(1), false, &pools);
    QpSpec spec;
    spec.requester.path_mtu = 1024;
    t.connect(1, spec);
    t.a->post(0, 10'000, Time::zero());  // 10 frames
    Hold hold(pools.data());
    Time now = Time::zero();
    for (; t.a->counters().tx_nombuf_data == 0 && now < Time::us(1); now += Time::ns(1)) {
      t.a->poll(now);
    }
    ASSERT_EQ(t.a->counters().tx_nombuf_data, 1u);
    for (int k = 0; k < 2; ++k) t.a->poll(now);  // one failed frame per poll
    EXPECT_EQ(t.a->counters().tx_nombuf_data, 3u);
    EXPECT_EQ(pools.data().alloc_failures(), 3u);
    EXPECT_EQ(t.a->qp(0).counters.frames_sent, 0u);
    hold.release();
    poll_until(t, now, Time::us(20));
    // The QP sent its whole message once mbufs were back, and nothing was lost.
    EXPECT_EQ(t.a->counters().tx_nombuf_data, 3u);
    EXPECT_EQ(t.a->qp(0).counters.frames_sent, 10u);
    EXPECT_EQ(t.a->qp(0).counters.retransmitted_frames, 0u);
    EXPECT_EQ(t.b->qp(0).counters.payload_bytes_received, 10'000u);
    ASSERT_EQ(t.a->qp(0).requester.messages().size(), 1u);
    EXPECT_FALSE(t.a->qp(0).requester.messages()[0].completed.is_never());
    EXPECT_EQ(t.a->counters().tx_nombuf_control + t.b->counters().tx_nombuf_control, 0u);
  }
  EXPECT_TRUE(pools.check_no_leaks()) << pools.check_no_leaks().message();
}

TEST_F(Nombuf, AnAckWaitsForAnMbufAndIsSentLaterNotLost) {
  runtime::PoolSet pools = tiny_pools("nb_ack", runtime::OnEmpty::kCount);
  {
    TwoHosts t(line_rate, line_rate, host_config("a", 1), host_config("b", 2), 1,
               Rate::gbps(100), Time::us(1), false, &pools);
    QpSpec spec;
    spec.requester.path_mtu = 1024;
    t.connect(1, spec);
    t.a->post(0, 1'024, Time::zero());  // one frame, one ACK
    Hold hold(pools.control());
    // The frame reaches B after about 1.09 us and its ACK is ready 500 ns later: B's
    // polls from then on each find the control pool empty.
    Time now = Time::zero();
    for (; t.b->counters().tx_nombuf_control == 0 && now < Time::us(10); now += Time::ns(10)) {
      poll_both(t, now);
    }
    ASSERT_EQ(t.b->counters().tx_nombuf_control, 1u);
    for (int k = 0; k < 4; ++k) t.b->poll(now);
    EXPECT_EQ(t.b->counters().tx_nombuf_control, 5u);
    EXPECT_EQ(pools.control().alloc_failures(), 5u);
    EXPECT_EQ(t.a->qp(0).requester.counters().acks, 0u);
    hold.release();
    poll_until(t, now, now + Time::us(5));
    // The same ACK left on the next poll: A has it and the message completed.
    EXPECT_EQ(t.b->counters().tx_nombuf_control, 5u);
    EXPECT_EQ(t.b->qp(0).responder.counters().acks_sent, 1u);
    EXPECT_EQ(t.a->qp(0).requester.counters().acks, 1u);
    EXPECT_FALSE(t.a->qp(0).requester.messages()[0].completed.is_never());
  }
  EXPECT_TRUE(pools.check_no_leaks()) << pools.check_no_leaks().message();
}

TEST_F(Nombuf, AStormXoffIsLostAndCountedAndTheStormGoesOn) {
  runtime::PoolSet pools = tiny_pools("nb_storm", runtime::OnEmpty::kCount);
  {
    HostConfig cb = host_config("b", 2);
    cb.pfc_storm = PfcStorm{Time::us(10), Time::us(50), 3, 0xFFFF, Time::us(20)};
    TwoHosts t(line_rate, line_rate, host_config("a", 1), cb, 1, Rate::gbps(100), Time::us(1),
               false, &pools);
    Hold hold(pools.control());
    poll_until(t, Time::zero(), Time::us(20));  // the XOFF due at 10 us finds no mbuf
    EXPECT_EQ(t.b->counters().tx_nombuf_control, 1u);
    EXPECT_EQ(t.b->counters().tx_pfc_frames, 0u);
    hold.release();
    poll_until(t, Time::us(20), Time::us(60));  // the one at 30 us goes (50 us: the end)
    EXPECT_EQ(t.b->counters().tx_nombuf_control, 1u);
    EXPECT_EQ(t.b->counters().tx_pfc_frames, 1u);
    EXPECT_EQ(t.a->counters().rx_pfc_frames[3], 1u);
  }
  EXPECT_TRUE(pools.check_no_leaks()) << pools.check_no_leaks().message();
}

// Virtual time: each stage's first allocation from an empty pool ends the process with
// the pool's sizing message (the child of the death test; this process goes on).
struct NombufDeathTest : Nombuf {};

constexpr const char* kFatal = "fatal configuration error: mbuf pool '{}' is exhausted: all {} "
                               "configured mbufs are in use.*needs at least {}";

std::string fatal(const std::string& pool, int count) {
  return fmt::format(fmt::runtime(kFatal), pool, count, count + 1);
}

TEST_F(NombufDeathTest, AnEmptyDataPoolEndsAVirtualRunWithItsSizingMessage) {
  runtime::PoolSet pools = tiny_pools("nd_data", runtime::OnEmpty::kFatal);
  TwoHosts t(line_rate, line_rate, host_config("a", 1), host_config("b", 2), 1,
             Rate::gbps(100), Time::us(1), false, &pools);
  t.connect(1);
  t.a->post(0, 10'000, Time::zero());
  Hold hold(pools.data());
  EXPECT_EXIT(t.run(), ::testing::ExitedWithCode(EXIT_FAILURE), fatal("nd_data_data", 64));
}

TEST_F(NombufDeathTest, AnEmptyControlPoolEndsAVirtualRunAtTheFirstAck) {
  runtime::PoolSet pools = tiny_pools("nd_ack", runtime::OnEmpty::kFatal);
  TwoHosts t(line_rate, line_rate, host_config("a", 1), host_config("b", 2), 1,
             Rate::gbps(100), Time::us(1), false, &pools);
  t.connect(1);
  t.a->post(0, 10'000, Time::zero());
  Hold hold(pools.control());
  EXPECT_EXIT(t.run(), ::testing::ExitedWithCode(EXIT_FAILURE), fatal("nd_ack_ctrl", 16));
}

TEST_F(NombufDeathTest, AnEmptyControlPoolEndsAVirtualRunAtTheFirstStormXoff) {
  runtime::PoolSet pools = tiny_pools("nd_storm", runtime::OnEmpty::kFatal);
  HostConfig cb = host_config("b", 2);
  cb.pfc_storm = PfcStorm{Time::us(10), Time::us(50), 3, 0xFFFF, Time::us(20)};
  TwoHosts t(line_rate, line_rate, host_config("a", 1), cb, 1, Rate::gbps(100), Time::us(1),
             false, &pools);
  Hold hold(pools.control());
  EXPECT_EXIT(t.run(Time::us(100)), ::testing::ExitedWithCode(EXIT_FAILURE),
              fatal("nd_storm_ctrl", 16));
}

}  // namespace
}  // namespace rtb::host
