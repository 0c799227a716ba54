// net_af_packet over a veth pair in a network namespace the test creates (and deletes,
// also when an assertion fails): one port per veth end, both in this process, each
// opened inside the namespace (PortSpec::netns). Frames go both ways. Skipped where
// namespaces or veth pairs are not permitted.
#include <gtest/gtest.h>

#include "tests/ethport/ethport_test_util.h"

namespace rtb::ethport::testing {
namespace {

class AfPacketPort : public PortTest {};

constexpr uint32_t kFrames = 200;

// The test frames of direction `dir` among what arrived (the kernel may add others).
std::vector<std::vector<uint8_t>> of_direction(const std::vector<std::vector<uint8_t>>& got,
                                               uint8_t dir) {
  std::vector<std::vector<uint8_t>> out;
  for (const auto& f : got) {
    uint32_t seq = 0;
    uint8_t d = 0;
    if (parse_test_frame(f, seq, d) && d == dir) out.push_back(f);
  }
  return out;
}

// Sends kFrames from `from` in bursts and collects at `to` until all of them came.
std::vector<std::vector<uint8_t>> cross(runtime::MbufPool& pool, EthPort& from, EthPort& to,
                                        uint8_t dir) {
  std::vector<rte_mbuf*> frames;
  for (uint32_t i = 0; i < kFrames; ++i) {
    frames.push_back(make_frame(pool, test_bytes(60 + (i * 11) % 1400, i, dir)));
  }
  std::vector<std::vector<uint8_t>> got;
  const auto deadline = after_seconds(20);
  size_t sent = 0;
  while (of_direction(got, dir).size() < kFrames &&
         std::chrono::steady_clock::now() < deadline) {
    if (sent < kFrames) {
      sent += from.tx(frames.data() + sent,
                      static_cast<uint16_t>(std::min<size_t>(kFrames - sent, 32)));
    }
    for (auto& f : receive_burst(to)) got.push_back(std::move(f));
  }
  for (size_t i = sent; i < kFrames; ++i) rte_pktmbuf_free(frames[i]);
  return of_direction(got, dir);
}

TEST_F(AfPacketPort, FramesCrossAVethPairBothWays) {
  TestNetns ns;
  if (!ns.ok()) GTEST_SKIP() << "af_packet test skipped: " << ns.why();
  auto a = EthPort::open({.device = unique_name("net_af_packet") + ",iface=" +
                                    TestNetns::kVethA, .netns = ns.name()}, mempool());
  ASSERT_TRUE(a.ok()) << a.error().message;
  auto b = EthPort::open({.device = unique_name("net_af_packet") + ",iface=" +
                                    TestNetns::kVethB, .netns = ns.name()}, mempool());
  ASSERT_TRUE(b.ok()) << b.error().message;
  EXPECT_EQ(a.value()->driver(), "net_af_packet");
  EXPECT_EQ(a.value()->max_frame(), 1514u);  // af_packet's max_rx_pktlen (README)

  for (uint8_t dir = 0; dir < 2; ++dir) {
    EthPort& from = dir == 0 ? *a.value() : *b.value();
    EthPort& to = dir == 0 ? *b.value() : *a.value();
    const auto got = cross(pool(), from, to, dir);
    ASSERT_EQ(got.size(), kFrames) << "direction " << int{dir};
    for (uint32_t i = 0; i < kFrames; ++i) {
      EXPECT_EQ(got[i], test_bytes(60 + (i * 11) % 1400, i, dir)) << "frame " << i;
    }
  }
}

TEST_F(AfPacketPort, MissingInterfaceIsOneClearSentence) {
  TestNetns ns;
  if (!ns.ok()) GTEST_SKIP() << "af_packet test skipped: " << ns.why();
  const std::string device = unique_name("net_af_packet") + ",iface=rtbnosuch0";
  auto port = EthPort::open({.device = device, .netns = ns.name()}, mempool());
  ASSERT_FALSE(port.ok());
  EXPECT_NE(port.error().message.find(device), std::string::npos) << port.error().message;
  EXPECT_NE(port.error().message.find("'rtbnosuch0' does not exist"), std::string::npos)
      << port.error().message;
  EXPECT_NE(port.error().message.find(ns.name()), std::string::npos) << port.error().message;
}

}  // namespace
}  // namespace rtb::ethport::testing
