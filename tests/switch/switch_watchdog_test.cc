// A host that never stops sending PFC pauses (a storm) and the SONiC PFC watchdog
// (reference §3.3): detection at a poll once the queue has been paused for
// detection_time, each action (drop, forward, alert), restoration once no PFC frame has
// come for restoration_time; and, without a watchdog, the pause spreading upstream
// through a chain of two switches. 10 Gb/s links: a 1,082-byte frame lasts 884.8 ns, a
// PFC frame 67.2 ns, 0xFFFF quanta 3,355,392 ns; cables are 100 ns.
#include <gtest/gtest.h>

#include "tests/switch/test_hosts.h"

namespace rtb::sw {
namespace {

using testing::Host;
using testing::host_ip;
using testing::roce_frame;
using testing::Star;

constexpr Time kFrame10G = Time::ps(884'800);
constexpr Time kPfcWire10G = Time::ps(67'200);
constexpr Time kProp = Time::ns(100);

SwitchConfig storm_config(int ports, bool watchdog, PfcWdConfig::Action action) {
  SwitchConfig c = tuning_guide_config(ports, Rate::gbps(10));
  c.pfc_enable = 1u << 3;
  c.pg[3].static_th = Bytes::kb(100);
  c.wred[3].reset();
  c.pfcwd = {watchdog, action, Time::ms(10), Time::ms(20), Time::ms(5)};
  return c;
}

// Host 0 sends 1,000 frames at once and 100 more at 80 ms to host 1, which storms XOFF
// every 1 ms from 0 to 49 ms. The first storm frame reaches the switch at 167.2 ns; the
// polls at 5 and 10 ms see less than 10 ms of pause, the poll at 15 ms a storm. The last
// storm frame arrives at 49 ms + 167.2 ns; the poll at 70 ms is the first 20 ms after it.
struct StormRun {
  explicit StormRun(PfcWdConfig::Action action) : net(2, storm_config(2, true, action), kProp) {
    for (uint32_t i = 0; i < 1'000; ++i) net.host(0).enqueue(roce_frame(0, 1, i), 3);
    for (uint32_t i = 0; i < 100; ++i) net.host(0).enqueue(roce_frame(0, 1, 1'000 + i), 3, Time::ms(80));
    net.host(1).storm(3, 0xFFFF, Time::ms(1), Time::zero(), Time::ms(50));
  }
  PfcWdCounters wd_at(Time t) {
    net.scheduler.run(t);
    return net.sw->counters(t).ports[1].pfcwd[3];
  }
  Star net;
};

void expect_detect_at_15ms_and_restore_at_70ms(StormRun& r) {
  EXPECT_EQ(r.wd_at(Time::ms(15) - Time::ps(1)).storms_detected, 0u);
  const PfcWdCounters at15 = r.wd_at(Time::ms(15));
  EXPECT_EQ(at15.storms_detected, 1u);
  EXPECT_TRUE(at15.in_storm);
  EXPECT_EQ(r.wd_at(Time::ms(70) - Time::ps(1)).storms_restored, 0u);
  const PfcWdCounters at70 = r.wd_at(Time::ms(70));
  EXPECT_EQ(at70.storms_restored, 1u);
  EXPECT_FALSE(at70.in_storm);
  r.net.scheduler.run();
}

TEST(PfcWatchdog, DropActionDiscardsTheQueueAndItsTrafficUntilRestored) {
  StormRun r(PfcWdConfig::Action::kDrop);
  expect_detect_at_15ms_and_restore_at_70ms(r);
  const SwitchCounters c = r.net.sw->counters(r.net.scheduler.now());
  EXPECT_EQ(c.ports[1].pfcwd[3].tx_dropped, 1'000u);
  EXPECT_EQ(c.drops[static_cast<int>(DropReason::kPfcWatchdog)], 1'000u);
  EXPECT_EQ(c.ports[1].pfcwd[3].pfc_ignored, 35u);  // storm frames of 15..49 ms
  const auto& a = r.net.host(1).arrivals();
  ASSERT_EQ(a.size(), 100u);  // only the frames sent after restoration
  EXPECT_EQ(a.front().psn, 1'000u);
  EXPECT_EQ(a.front().at, Time::ms(80) + kFrame10G * 2 + kProp * 2);
  EXPECT_EQ(r.net.host(0).queued(), 0u);
}

TEST(PfcWatchdog, ForwardActionIgnoresPausesAndDeliversEverything) {
  StormRun r(PfcWdConfig::Action::kForward);
  expect_detect_at_15ms_and_restore_at_70ms(r);
  const auto& a = r.net.host(1).arrivals();
  ASSERT_EQ(a.size(), 1'100u);
  EXPECT_EQ(a.front().at, Time::ms(15) + kFrame10G + kProp);  // the queue resumes at 15 ms
  const SwitchCounters c = r.net.sw->counters(r.net.scheduler.now());
  EXPECT_EQ(c.drops, (std::array<uint64_t, kDropReasons>{}));
}

TEST(PfcWatchdog, AlertActionOnlyCountsAndTheQueueWaitsForTheStormToEnd) {
  StormRun r(PfcWdConfig::Action::kAlert);
  expect_detect_at_15ms_and_restore_at_70ms(r);
  const auto& a = r.net.host(1).arrivals();
  ASSERT_EQ(a.size(), 1'100u);
  const Time last_pause_ends = Time::ms(49) + kPfcWire10G + kProp + Time::ps(65'535ULL * 51'200);
  EXPECT_EQ(a.front().at, last_pause_ends + kFrame10G + kProp);
}

// host A -- sw1 -- sw2 -- host B (storming).
struct Chain {
  explicit Chain(bool watchdog_on_sw2) {
    for (int i = 0; i < 3; ++i) {
      const std::string n = std::to_string(i);
      cables.push_back(std::make_unique<runtime::Cable>(
          runtime::WireLinkConfig{"c" + n + "ab", Rate::gbps(10), kProp, Bytes(9'216)},
          runtime::WireLinkConfig{"c" + n + "ba", Rate::gbps(10), kProp, Bytes(9'216)}));
    }
    a = std::make_unique<Host>("A", cables[0]->ab, cables[0]->ba);
    b = std::make_unique<Host>("B", cables[2]->ba, cables[2]->ab);  // sends towards A
    // Cable i's "ab" direction points towards host B, "ba" towards host A.
    sw1 = make_switch("sw1", false, {&cables[0]->ab, &cables[0]->ba}, {&cables[1]->ba, &cables[1]->ab});
    sw2 = make_switch("sw2", watchdog_on_sw2, {&cables[1]->ab, &cables[1]->ba}, {&cables[2]->ba, &cables[2]->ab});
    for (runtime::Stage* s : std::initializer_list<runtime::Stage*>{a.get(), b.get(), sw1.get(), sw2.get()})
      scheduler.add(*s);
    a->set_waker(&scheduler);
    b->set_waker(&scheduler);
    cables[0]->ab.connect_receiver(&scheduler, sw1->id());
    cables[0]->ba.connect_receiver(&scheduler, a->id());
    cables[1]->ab.connect_receiver(&scheduler, sw2->id());
    cables[1]->ba.connect_receiver(&scheduler, sw1->id());
    cables[2]->ab.connect_receiver(&scheduler, b->id());
    cables[2]->ba.connect_receiver(&scheduler, sw2->id());
    for (uint32_t i = 0; i < 2'000; ++i) a->enqueue(roce_frame(0, 1, i), 3);
    b->storm(3, 0xFFFF, Time::ms(1), Time::zero(), Time::ms(50));
  }
  std::unique_ptr<Switch> make_switch(std::string name, bool watchdog, PortLinks left, PortLinks right) {
    SwitchConfig c = storm_config(2, watchdog, PfcWdConfig::Action::kDrop);
    c.name = std::move(name);
    c.routes = {{host_ip(0), 32, {0}}, {host_ip(1), 32, {1}}};
    auto s = Switch::make(c, {left, right}, &runtime::testing::test_control_pool(), 3);
    if (!s.ok()) throw std::runtime_error(s.error().message);
    return std::move(s.value());
  }
  std::vector<std::unique_ptr<runtime::Cable>> cables;
  std::unique_ptr<Host> a, b;
  std::unique_ptr<Switch> sw1, sw2;
  runtime::VirtualScheduler scheduler;
};

TEST(PfcStorm, WithoutAWatchdogThePauseSpreadsUpstreamThroughTwoSwitches) {
  Chain net(false);
  net.scheduler.run(Time::ms(30));
  const SwitchCounters c1 = net.sw1->counters(Time::ms(30));
  const SwitchCounters c2 = net.sw2->counters(Time::ms(30));
  EXPECT_GT(c2.ports[0].pfc_tx[3], 0u);  // sw2 pauses sw1
  EXPECT_GT(c1.ports[0].pfc_tx[3], 0u);  // sw1 pauses host A
  EXPECT_GT(c1.ports[1].pfc_rx_pause_duration[3], Time::ms(29));
  ASSERT_FALSE(net.a->pfc_received().empty());
  EXPECT_NE(net.a->pfc_received().back().quanta, 0);  // still paused
  EXPECT_GT(net.a->queued(), 1'000u);
  EXPECT_TRUE(net.b->arrivals().empty());
  net.scheduler.run();  // the storm ends at 50 ms: everything is delivered, nothing lost
  EXPECT_EQ(net.b->arrivals().size(), 2'000u);
  EXPECT_EQ(net.sw1->counters(net.scheduler.now()).drops, (std::array<uint64_t, kDropReasons>{}));
  EXPECT_EQ(net.sw2->counters(net.scheduler.now()).drops, (std::array<uint64_t, kDropReasons>{}));
}

TEST(PfcStorm, AWatchdogOnTheStormingPortStopsTheSpread) {
  Chain net(true);
  net.scheduler.run(Time::ms(30));
  const SwitchCounters c1 = net.sw1->counters(Time::ms(30));
  const SwitchCounters c2 = net.sw2->counters(Time::ms(30));
  EXPECT_EQ(c2.ports[1].pfcwd[3].storms_detected, 1u);
  ASSERT_FALSE(net.a->pfc_received().empty());
  EXPECT_EQ(net.a->pfc_received().back().quanta, 0);  // host A was released (XON)
  EXPECT_LT(net.a->pfc_received().back().at, Time::ms(16));
  EXPECT_EQ(net.a->queued(), 0u);
  EXPECT_LT(c1.ports[1].pfc_rx_pause_duration[3], Time::ms(16));
  EXPECT_EQ(c2.drops[static_cast<int>(DropReason::kPfcWatchdog)], 2'000u);
  EXPECT_TRUE(net.b->arrivals().empty());
  net.scheduler.run();
}

}  // namespace
}  // namespace rtb::sw
