// The lossy pool (BUFFER_POOL lossy_size, SONiC egress_lossy_pool) through the switch in
// virtual time: a lossless incast that fills the lossless pool no longer starves lossy
// frames such as CNPs (DSCP 48, TC 6), and lossy traffic filling its own pool triggers no
// PFC and costs no lossless frame. lossy_size = 0 reproduces the one shared pool.
#include <gtest/gtest.h>

#include "tests/switch/test_hosts.h"

namespace rtb::sw {
namespace {

using testing::roce_frame;
using testing::Star;

// Four 100G ports, PG3 lossless. Lossless pool 256,000 B (1,000 cells of 256 B) with a
// 64,000 B shared headroom pool (250 cells): 750 shared cells. PG3's static_th is above
// them, so XOFF comes from the pool running out (validation warns; that is the point).
SwitchConfig pools_config(Bytes lossy_size) {
  SwitchConfig c = tuning_guide_config(4, Rate::gbps(100));
  c.pool.size = Bytes::kb(256);
  c.pool.xoff = Bytes(64'000);
  c.pool.lossy_size = lossy_size;
  c.pfc_enable = 1u << 3;
  c.pg[3] = PgProfile{Bytes(0), ThresholdMode::kStatic, Bytes::mb(1), 0, Bytes(64'000), Bytes(9'216)};
  c.wred[3].reset();
  return c;
}

struct IncastResult {
  bool pool_full_at_cnp = false;  // the lossless shared cells all in use when the CNP came
  bool xoff_before_cnp = false;   // host 0 was paused by then
  size_t cnps_delivered = 0;
  uint64_t egress_limit_drops = 0;
  size_t lossless_delivered = 0;
};

// Hosts 0 and 1 send 200 lossless frames each to host 2, which pauses priority 3 until
// 200 us; at 20 us host 2 sends a small DSCP 48 frame (as a CNP) to host 0.
IncastResult incast_with_cnp(Bytes lossy_size) {
  Star net(4, pools_config(lossy_size));
  for (int s = 0; s < 2; ++s) {
    for (uint32_t i = 0; i < 200; ++i) net.host(s).enqueue(roce_frame(s, 2, i), 3);
  }
  net.host(2).storm(3, 0xFFFF, Time::us(100), Time::zero(), Time::us(200));
  net.host(2).pfc_at(Time::us(200), 3, 0);
  const Time cnp_at = Time::us(20);
  net.host(2).enqueue(roce_frame(2, 0, 0, 4, wire::Ecn::NotEct, 48), 6, cnp_at);
  IncastResult r;
  net.scheduler.run(cnp_at);
  r.pool_full_at_cnp = net.sw->mmu().pool().shared_cells == net.sw->mmu().layout().shared_cells;
  r.xoff_before_cnp = !net.host(0).pfc_received().empty() && net.host(0).pfc_received()[0].quanta > 0;
  net.scheduler.run();
  for (const auto& a : net.host(0).arrivals()) r.cnps_delivered += a.dscp == 48 ? 1 : 0;
  r.lossless_delivered = net.host(2).arrivals().size();
  r.egress_limit_drops = net.sw->counters(net.scheduler.now()).drops[static_cast<int>(DropReason::kEgressLimit)];
  return r;
}

TEST(SwitchLossyPool, FullLosslessPoolAndPfcDoNotBlockACnp) {
  const IncastResult r = incast_with_cnp(Bytes::kb(256));
  EXPECT_TRUE(r.pool_full_at_cnp);
  EXPECT_TRUE(r.xoff_before_cnp);
  EXPECT_EQ(r.cnps_delivered, 1u);
  EXPECT_EQ(r.egress_limit_drops, 0u);
  EXPECT_EQ(r.lossless_delivered, 400u);
}

TEST(SwitchLossyPool, LossySizeZeroDropsTheCnpAsTheOnePoolDid) {
  const IncastResult r = incast_with_cnp(Bytes(0));
  EXPECT_TRUE(r.pool_full_at_cnp);
  EXPECT_TRUE(r.xoff_before_cnp);
  EXPECT_EQ(r.cnps_delivered, 0u);
  EXPECT_EQ(r.egress_limit_drops, 1u);  // lossy queue limit 8 x 0 free cells
  EXPECT_EQ(r.lossless_delivered, 400u);
}

struct LossyBurstResult {
  uint64_t pfc_sent = 0;
  uint64_t lossless_drops = 0;
  uint64_t lossy_drops = 0;
  size_t lossless_delivered = 0;
  SwitchCounters counters;
};

// Hosts 0 and 1 send 300 lossy frames (DSCP 0) each to host 2 (2:1 on port 2), lossy
// thresholds wide open (PG alpha 256, static egress 1 MB) so they fill what they may;
// meanwhile host 3 sends 300 lossless frames to host 0 on an idle port.
LossyBurstResult lossy_burst(Bytes lossy_size) {
  SwitchConfig c = pools_config(lossy_size);
  for (int i = 0; i < kPriorities; ++i) {
    if (c.lossless_pg(i)) continue;
    c.pg[i].dynamic_th = 8;
    c.egress[i] = EgressProfile{ThresholdMode::kStatic, Bytes::mb(1), 0};
  }
  Star net(4, c);
  for (int s = 0; s < 2; ++s) {
    for (uint32_t i = 0; i < 300; ++i) net.host(s).enqueue(roce_frame(s, 2, i, 1024, wire::Ecn::NotEct, 0), 0);
  }
  // From 57 frame times on (about 5 us, the pool full by then), in step with hosts 0 and 1.
  const Time start = Time::ps(88'480) * 57;
  for (uint32_t i = 0; i < 300; ++i) net.host(3).enqueue(roce_frame(3, 0, i), 3, start);
  net.scheduler.run();
  LossyBurstResult r;
  r.counters = net.sw->counters(net.scheduler.now());
  for (const PortCounters& p : r.counters.ports) r.pfc_sent += p.pfc_tx[3];
  r.lossless_drops = r.counters.drops[static_cast<int>(DropReason::kHeadroomFull)];
  r.lossy_drops = r.counters.drops[static_cast<int>(DropReason::kIngressLimit)];
  for (const auto& a : net.host(0).arrivals()) r.lossless_delivered += a.dscp == 26 ? 1 : 0;
  return r;
}

TEST(SwitchLossyPool, LossyTrafficFillingItsPoolTriggersNoPfc) {
  const LossyBurstResult r = lossy_burst(Bytes::kb(64));  // 250 cells
  EXPECT_GT(r.lossy_drops, 0u);
  EXPECT_GE(r.counters.lossy_pool.watermark_bytes, 240u * 256);  // nearly all 250 cells
  EXPECT_EQ(r.counters.lossy_pool.used_bytes, 0u);               // all sent
  EXPECT_EQ(r.pfc_sent, 0u);
  EXPECT_EQ(r.lossless_drops, 0u);
  EXPECT_EQ(r.lossless_delivered, 300u);
  EXPECT_LE(r.counters.pool.watermark_bytes, 2u * 5 * 256);  // one or two lossless frames at a time
}

TEST(SwitchLossyPool, LossySizeZeroLetsLossyTrafficPauseLosslessSenders) {
  const LossyBurstResult r = lossy_burst(Bytes(0));
  EXPECT_GT(r.lossy_drops, 0u);
  EXPECT_GT(r.pfc_sent, 0u);  // host 3's frames found the shared buffer full
  EXPECT_EQ(r.counters.lossy_pool.watermark_bytes, 0u);
  EXPECT_EQ(r.lossless_delivered, 300u);
}

}  // namespace
}  // namespace rtb::sw
