// PFC through the switch in virtual time, exact to the picosecond. At 100 Gb/s a byte
// lasts 80 ps; a 1,082-byte RoCE frame (1,024 B payload) occupies 1,106 wire bytes =
// 88.48 ns; a PFC frame 84 wire bytes = 6.72 ns; the cables are 100 ns long.
#include <gtest/gtest.h>

#include "switch/headroom.h"
#include "tests/switch/test_hosts.h"

namespace rtb::sw {
namespace {

using testing::roce_frame;
using testing::Star;

constexpr Time kFrame = Time::ps(88'480);
constexpr Time kPfcWire = Time::ps(6'720);
constexpr Time kProp = Time::ns(100);

// Three 100G ports, PG3 lossless: static_th 30,000 B (118 cells of 256 B), xon_offset
// 9,216 B (36 cells), 64 KB headroom per PG.
SwitchConfig pfc_config() {
  SwitchConfig c = tuning_guide_config(3, Rate::gbps(100));
  c.pool.size = Bytes::mb(2);
  c.pool.xoff = Bytes(0);
  c.pfc_enable = 1u << 3;
  c.pg[3] = PgProfile{Bytes(0), ThresholdMode::kStatic, Bytes(30'000), 0, Bytes(64'000), Bytes(9'216)};
  c.wred[3].reset();
  return c;
}

TEST(SwitchPfc, XoffAtTheThresholdRefreshedWhileAboveXonAndXonOnDrain) {
  Star net(3, pfc_config(), kProp);
  for (uint32_t i = 0; i < 200; ++i) net.host(0).enqueue(roce_frame(0, 2, i), 3);
  // Host 2 keeps the switch's egress to it paused from t = 0 until 400 us.
  net.host(2).storm(3, 0xFFFF, Time::us(100), Time::zero(), Time::us(300));
  net.host(2).pfc_at(Time::us(400), 3, 0);
  net.scheduler.run();

  // Frame k of host 0 reaches the switch at k x 88.48 ns + 100 ns. Nothing leaves, so
  // PG3 of port 0 holds 5 cells per frame; it reaches 118 cells with frame 24.
  const Time trigger = kFrame * 24 + kProp;
  const Time half_pause = Time::ps(65'535ULL * 5'120 / 2);  // refresh: half of 0xFFFF quanta
  const auto& pfc = net.host(0).pfc_received();
  ASSERT_EQ(pfc.size(), 4u);
  EXPECT_EQ(pfc[0].at, trigger + kPfcWire + kProp);
  EXPECT_EQ(pfc[0].quanta, 0xFFFF);
  EXPECT_EQ(pfc[1].at, trigger + half_pause + kPfcWire + kProp);
  EXPECT_EQ(pfc[2].at, trigger + half_pause * 2 + kPfcWire + kProp);
  // Host 0 started 27 frames before the pause reached it (the 27th at 26 x 88.48 ns).
  // The XON (quanta 0) arrives from 400 us + 106.72 ns on: the switch sends the 27
  // frames' cells back, headroom first (4 frames), then shared cells down to 118 - 36
  // = 82: 7 more frames. The 11th departure is 10 frame times after the first.
  const Time resume = Time::us(400) + kPfcWire + kProp;
  EXPECT_EQ(pfc[3].at, resume + kFrame * 10 + kPfcWire + kProp);
  EXPECT_EQ(pfc[3].quanta, 0);
  EXPECT_EQ(pfc[3].priority, 3);

  ASSERT_EQ(net.host(2).arrivals().size(), 200u);
  EXPECT_EQ(net.host(2).arrivals()[0].at, resume + kFrame + kProp);
  const PortCounters& p0 = net.port(0, net.scheduler.now());
  EXPECT_EQ(p0.pfc_tx[3], 4u);
  EXPECT_EQ(p0.pgs[3].headroom_watermark_bytes, 4u * 5 * 256);
  EXPECT_EQ(p0.pgs[3].shared_watermark_bytes, 23u * 5 * 256);
  const PortCounters& p2 = net.port(2, net.scheduler.now());
  EXPECT_EQ(p2.pfc_rx[3], 4u);
  EXPECT_EQ(p2.pfc_rx_pause_duration[3], Time::us(400));
  EXPECT_EQ(p2.queues[3].packets, 200u);
  EXPECT_EQ(net.snapshot.drops, (std::array<uint64_t, kDropReasons>{}));
}

TEST(SwitchPfc, ReceivedPauseStopsEgressAfterTheFrameOnTheWireAndExpires) {
  Star net(3, pfc_config(), kProp);
  for (uint32_t i = 0; i < 6; ++i) net.host(0).enqueue(roce_frame(0, 1, i), 3);
  net.host(1).pfc_at(Time::ns(300), 3, 1'000);  // 1,000 x 5.12 ns = 5.12 us
  net.scheduler.run();
  // Frames leave the switch back to back from 188.48 ns; the pause arrives at 406.72 ns,
  // during frame 3, which completes; frame 4 waits until 406.72 ns + 5.12 us.
  const Time pause_at = Time::ns(300) + kPfcWire + kProp;
  const auto& a = net.host(1).arrivals();
  ASSERT_EQ(a.size(), 6u);
  EXPECT_EQ(a[2].at, kFrame * 4 + kProp * 2);
  EXPECT_EQ(a[3].at, pause_at + Time::ns(5'120) + kFrame + kProp);
  EXPECT_EQ(a[4].at, a[3].at + kFrame);
}

TEST(SwitchPfc, XonResumesAtOnceAndOtherPrioritiesKeepFlowing) {
  Star net(3, pfc_config(), kProp);
  for (uint32_t i = 0; i < 6; ++i) net.host(0).enqueue(roce_frame(0, 1, i), 3);
  net.host(1).pfc_at(Time::ns(300), 3, 0xFFFF);
  net.host(1).pfc_at(Time::ns(2'000), 3, 0);
  net.host(0).enqueue(roce_frame(0, 1, 99, 1024, wire::Ecn::Ect0, 48), 6, Time::ns(600));
  net.scheduler.run();
  const auto& a = net.host(1).arrivals();
  ASSERT_EQ(a.size(), 7u);
  // The DSCP 48 (TC 6) frame is not paused: it follows frame 3 directly.
  EXPECT_EQ(a[3].dscp, 48);
  EXPECT_EQ(a[4].at, Time::ns(2'000) + kPfcWire + kProp + kFrame + kProp);
}

// An 8:1 burst: with headroom from the formula no lossless frame is lost; with too
// little headroom the losses are counted by reason and the rest arrive.
uint64_t incast_drops(Bytes headroom, size_t* delivered) {
  constexpr int kSenders = 8;
  SwitchConfig c = tuning_guide_config(kSenders + 1, Rate::gbps(100));
  c.pool.xoff = Bytes(0);
  c.pool.size = Bytes::mb(8);
  c.pfc_enable = 1u << 3;
  for (auto& p : c.ports) p.mtu = 1'082;
  c.pg[3].static_th = Bytes::kb(50);
  c.pg[3].xoff = headroom;
  c.wred[3].reset();
  Star net(kSenders + 1, c, Time::us(1));  // 200 m cables
  for (int s = 0; s < kSenders; ++s) {
    for (uint32_t i = 0; i < 300; ++i) net.host(s).enqueue(roce_frame(s, kSenders, i), 3);
  }
  net.scheduler.run();
  *delivered = net.host(kSenders).arrivals().size();
  const SwitchCounters sc = net.sw->counters(net.scheduler.now());
  return sc.drops[static_cast<int>(DropReason::kHeadroomFull)];
}

TEST(SwitchPfc, NoLosslessDropsUnderIncastWhenHeadroomFollowsTheFormula) {
  const HeadroomNeed need = headroom_need({Rate::gbps(100), Time::us(1), 1'082, 1'082, Bytes(256)});
  size_t delivered = 0;
  EXPECT_EQ(incast_drops(need.need, &delivered), 0u) << need.describe();
  EXPECT_EQ(delivered, 8u * 300);
}

TEST(SwitchPfc, TooLittleHeadroomLosesFramesAndCountsThem) {
  size_t delivered = 0;
  const uint64_t drops = incast_drops(Bytes(6'400), &delivered);
  EXPECT_GT(drops, 0u);
  EXPECT_EQ(delivered + drops, 8u * 300);
}

}  // namespace
}  // namespace rtb::sw
