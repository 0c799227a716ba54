// net_null: tx takes every frame (counted in opackets), rx makes frames out of the pool.
#include <gtest/gtest.h>

#include "tests/ethport/ethport_test_util.h"

namespace rtb::ethport::testing {
namespace {

class NullPort : public PortTest {};

TEST_F(NullPort, SendsAndReceivesBothWays) {
  auto port = EthPort::open({.device = unique_name("net_null") + ",size=128"}, mempool());
  ASSERT_TRUE(port.ok()) << port.error().message;
  EthPort& p = *port.value();
  EXPECT_EQ(p.driver(), "net_null");
  EXPECT_TRUE(p.link_up());
  EXPECT_EQ(p.max_frame(), kMaxFrameBytes);

  constexpr uint32_t kFrames = 100;
  std::vector<rte_mbuf*> frames;
  for (uint32_t i = 0; i < kFrames; ++i) {
    frames.push_back(make_frame(pool(), test_bytes(200, i, 0)));
  }
  EXPECT_EQ(send_all(p, frames, after_seconds(10)), kFrames);

  rte_mbuf* burst[32];
  const uint16_t n = p.rx(burst, 32);
  EXPECT_EQ(n, 32);  // net_null always has a full burst ready
  for (uint16_t i = 0; i < n; ++i) EXPECT_EQ(rte_pktmbuf_pkt_len(burst[i]), 128u);
  rte_pktmbuf_free_bulk(burst, n);

  const auto stats = p.stats_json();
  EXPECT_EQ(stats["opackets"], kFrames);
  // (net_null counts packets only: its obytes stays 0 in DPDK 22.11.)
  EXPECT_EQ(stats["ipackets"], 32u);
  EXPECT_EQ(stats["driver"], "net_null");
  for (const char* key : {"ibytes", "imissed", "ierrors", "oerrors", "rx_nombuf"}) {
    EXPECT_TRUE(stats.contains(key)) << key;
  }
}

TEST_F(NullPort, NoRxReceivesNothing) {
  auto port = EthPort::open({.device = unique_name("net_null") + ",no-rx=1"}, mempool());
  ASSERT_TRUE(port.ok()) << port.error().message;
  rte_mbuf* burst[32];
  EXPECT_EQ(port.value()->rx(burst, 32), 0);
}

}  // namespace
}  // namespace rtb::ethport::testing
