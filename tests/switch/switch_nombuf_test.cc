// The switch's PFC frames when its control pool runs dry, under both rules
// (lib/switch/README.md): with OnEmpty::kCount (realtime) the frame is lost, counted in
// pfc_nombuf, and the generator's next refresh sends the XOFF again; with OnEmpty::kFatal
// (virtual time) the process ends with the pool's sizing message. Same set-up and times
// as SwitchPfc.XoffAtTheThresholdRefreshedWhileAboveXonAndXonOnDrain.
#include <gtest/gtest.h>

#include <vector>

#include "tests/switch/test_hosts.h"

namespace rtb::sw {
namespace {

using testing::roce_frame;
using testing::Star;

constexpr Time kFrame = Time::ps(88'480);
constexpr Time kPfcWire = Time::ps(6'720);
constexpr Time kProp = Time::ns(100);
const Time kTrigger = kFrame * 24 + kProp;               // PG3 of port 0 reaches XOFF
const Time kHalfPause = Time::ps(65'535ULL * 5'120 / 2);  // the XOFF refresh interval

SwitchConfig pfc_config() {
  SwitchConfig c = tuning_guide_config(3, Rate::gbps(100));
  c.pool.size = Bytes::mb(2);
  c.pool.xoff = Bytes(0);
  c.pfc_enable = 1u << 3;
  c.pg[3] = PgProfile{Bytes(0), ThresholdMode::kStatic, Bytes(30'000), 0, Bytes(64'000), Bytes(9'216)};
  c.wred[3].reset();
  return c;
}

runtime::MbufPool pfc_pool(const char* name, runtime::OnEmpty rule) {
  auto p = runtime::MbufPool::create({.name = name, .count = 8,
                                      .data_room = RTE_PKTMBUF_HEADROOM + 256, .on_empty = rule});
  EXPECT_TRUE(p) << p.error().message;
  return std::move(p).value();
}

// Host 0 sends 200 frames to host 2, which keeps the switch's egress to it paused until
// 400 us: port 0's PG3 crosses XOFF at kTrigger.
void incast_into_a_paused_port(Star& net) {
  for (uint32_t i = 0; i < 200; ++i) net.host(0).enqueue(roce_frame(0, 2, i), 3);
  net.host(2).storm(3, 0xFFFF, Time::us(100), Time::zero(), Time::us(300));
  net.host(2).pfc_at(Time::us(400), 3, 0);
}

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

TEST(SwitchNombuf, ALostXoffIsCountedAndSentAgainAtTheNextRefresh) {
  runtime::MbufPool pool = pfc_pool("sw_nombuf", runtime::OnEmpty::kCount);
  {
    Star net(3, pfc_config(), kProp, &pool);
    incast_into_a_paused_port(net);
    Hold hold(pool);
    net.scheduler.run(kTrigger + Time::ns(1));
    EXPECT_EQ(net.sw->counters(net.scheduler.now()).pfc_nombuf, 1u);
    EXPECT_EQ(pool.alloc_failures(), 1u);
    EXPECT_EQ(net.port(0, net.scheduler.now()).pfc_tx[3], 0u);
    hold.release();
    net.scheduler.run();

    // The refresh half a pause later carries the XOFF the pool could not; then the
    // refreshes and the XON as without the loss.
    const auto& pfc = net.host(0).pfc_received();
    ASSERT_EQ(pfc.size(), 3u);
    EXPECT_EQ(pfc[0].at, kTrigger + kHalfPause + kPfcWire + kProp);
    EXPECT_EQ(pfc[0].quanta, 0xFFFF);
    EXPECT_EQ(pfc[1].at, kTrigger + kHalfPause * 2 + kPfcWire + kProp);
    EXPECT_EQ(pfc[2].quanta, 0);
    const SwitchCounters c = net.sw->counters(net.scheduler.now());
    EXPECT_EQ(c.pfc_nombuf, 1u);
    EXPECT_EQ(c.ports[0].pfc_tx[3], 3u);
    // Host 0 was not paused for half a pause time: the headroom overflowed, and the run
    // went on to deliver the rest.
    EXPECT_GT(c.ports[0].rx_drp, 0u);
    EXPECT_EQ(net.host(2).arrivals().size() + c.ports[0].rx_drp, 200u);
  }
  EXPECT_TRUE(pool.check_no_leaks()) << pool.check_no_leaks().message();
}

TEST(SwitchNombufDeathTest, AnEmptyPfcPoolEndsAVirtualRunWithItsSizingMessage) {
  runtime::MbufPool pool = pfc_pool("sw_nombuf_fatal", runtime::OnEmpty::kFatal);
  Star net(3, pfc_config(), kProp, &pool);
  incast_into_a_paused_port(net);
  Hold hold(pool);
  EXPECT_EXIT(net.scheduler.run(), ::testing::ExitedWithCode(EXIT_FAILURE),
              "fatal configuration error: mbuf pool 'sw_nombuf_fatal' is exhausted: all 8 "
              "configured mbufs are in use.*needs at least 9");
}

}  // namespace
}  // namespace rtb::sw
