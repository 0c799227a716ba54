// QoS maps at the switch stage in virtual time: TC_TO_QUEUE_MAP places frames in egress
// queues, a port's own DSCP maps classify the frames that port receives (and no other
// port's), its own TC_TO_QUEUE_MAP the frames that leave by it, and a port's own pfc_enable
// decides whether its PGs send PFC.
#include <gtest/gtest.h>

#include "tests/switch/test_hosts.h"

namespace rtb::sw {
namespace {

using testing::roce_frame;
using testing::Star;

TEST(SwitchQosMaps, TcToQueueMapPutsATrafficClassInItsQueue) {
  SwitchConfig c = tuning_guide_config(3, Rate::gbps(100));
  c.maps.dscp_to_tc[10] = 1;
  c.maps.tc_to_queue[1] = 2;  // TC 1 (lossy) -> queue 2
  Star net(3, c);
  for (uint32_t i = 0; i < 20; ++i) net.host(0).enqueue(roce_frame(0, 2, i, 1024, wire::Ecn::Ect0, 10), 1);
  for (uint32_t i = 0; i < 7; ++i) net.host(1).enqueue(roce_frame(1, 2, i), 3);  // DSCP 26 -> TC 3 -> queue 3
  net.scheduler.run();
  EXPECT_EQ(net.host(2).arrivals().size(), 27u);
  const PortCounters& p = net.port(2, net.scheduler.now());
  EXPECT_EQ(p.queues[2].packets, 20u);
  EXPECT_EQ(p.queues[2].data_packets, 20u);
  EXPECT_EQ(p.queues[1].packets, 0u);
  EXPECT_EQ(p.queues[3].packets, 7u);
}

TEST(SwitchQosMaps, APortsOwnMapsClassifyOnlyWhatThatPortReceives) {
  SwitchConfig c = tuning_guide_config(3, Rate::gbps(100));
  QosMaps own = c.maps;
  own.dscp_to_tc[26] = 4;  // port 1 only: DSCP 26 -> TC 4
  own.tc_to_queue[4] = 5;  // (its queue map is for what leaves by port 1: not used here)
  c.ports[1].maps = own;
  Star net(3, c);
  for (uint32_t i = 0; i < 10; ++i) net.host(0).enqueue(roce_frame(0, 2, i), 3);
  for (uint32_t i = 0; i < 6; ++i) net.host(1).enqueue(roce_frame(1, 2, i), 3);
  net.scheduler.run();
  const PortCounters& p = net.port(2, net.scheduler.now());
  EXPECT_EQ(p.queues[3].packets, 10u);  // port 0: the switch's maps, TC 3
  EXPECT_EQ(p.queues[4].packets, 6u);   // port 1: its own, TC 4, queued by port 2's map
  EXPECT_EQ(p.queues[5].packets, 0u);
}

// The queue is the egress port's TC_TO_QUEUE_MAP's, whatever the ingress port's says.
TEST(SwitchQosMaps, TheEgressPortsTcToQueueMapPicksTheQueue) {
  SwitchConfig c = tuning_guide_config(3, Rate::gbps(100));
  QosMaps in = c.maps, out = c.maps;
  in.tc_to_queue[3] = 6;   // port 0 receives: its queue map does not apply to port 2
  out.tc_to_queue[3] = 5;  // port 2 sends: TC 3 -> queue 5
  c.ports[0].maps = in;
  c.ports[2].maps = out;
  Star net(3, c);
  for (uint32_t i = 0; i < 9; ++i) net.host(0).enqueue(roce_frame(0, 2, i), 3);
  for (uint32_t i = 0; i < 4; ++i) net.host(2).enqueue(roce_frame(2, 1, i), 3);
  net.scheduler.run();
  const Time now = net.scheduler.now();
  EXPECT_EQ(net.port(2, now).queues[5].packets, 9u);
  EXPECT_EQ(net.port(2, now).queues[6].packets, 0u);
  EXPECT_EQ(net.port(1, now).queues[3].packets, 4u);  // port 1 has the switch's maps
}

// PG3 fills while the egress to host 2 is paused: port 0 (pfc_enable 3) sends XOFF, port 1
// (its own pfc_enable: none) does not.
TEST(SwitchQosMaps, APortsOwnPfcEnableDecidesWhetherItSendsPfc) {
  SwitchConfig c = tuning_guide_config(3, Rate::gbps(100));
  c.pool.size = Bytes::mb(2);
  c.pool.xoff = Bytes(0);
  c.pfc_enable = 1u << 3;
  c.pg[3] = PgProfile{Bytes(0), ThresholdMode::kStatic, Bytes(30'000), 0, Bytes(64'000), Bytes(9'216)};
  c.wred[3].reset();
  c.ports[1].pfc_enable = 0;
  Star net(3, c);
  for (uint32_t i = 0; i < 40; ++i) net.host(0).enqueue(roce_frame(0, 2, i), 3);
  for (uint32_t i = 0; i < 40; ++i) net.host(1).enqueue(roce_frame(1, 2, i), 3);
  net.host(2).pfc_at(Time::zero(), 3, 0xFFFF);
  net.host(2).pfc_at(Time::us(200), 3, 0);
  net.scheduler.run();
  const Time now = net.scheduler.now();
  EXPECT_GT(net.port(0, now).pfc_tx[3], 0u);
  EXPECT_FALSE(net.host(0).pfc_received().empty());
  EXPECT_EQ(net.port(1, now).pfc_tx[3], 0u);
  EXPECT_TRUE(net.host(1).pfc_received().empty());
}

}  // namespace
}  // namespace rtb::sw
