// net_memif between two processes: this process is the memif server, a second copy of
// this binary (--memif-peer, memif_peer.cc) the client with an EAL and an lcore of its
// own. Frames go to the peer and come back; every wait is bounded, and the peer is killed
// if it outlives the test.
#include <unistd.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <thread>

#include "tests/ethport/ethport_test_util.h"
#include "tests/ethport/memif_peer.h"

namespace rtb::ethport::testing {
namespace {

class MemifPort : public PortTest {};

constexpr uint32_t kFrames = 300;

bool wait_link(EthPort& port, ChildProcess& peer) {
  const auto deadline = after_seconds(20);
  while (!port.link_up()) {
    if (std::chrono::steady_clock::now() > deadline || peer.poll_exit()) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return true;
}

TEST_F(MemifPort, FramesGoToAPeerProcessAndComeBack) {
  const std::string socket = "/tmp/" + unique_name("rtb-memif-" + std::to_string(::getpid()) +
                                                   "-") + ".sock";
  std::vector<std::vector<uint8_t>> echoed;
  std::optional<int> peer_exit;
  uint64_t sent_bytes = 0;
  {
    auto port = EthPort::open(
        {.device = unique_name("net_memif") + ",role=server,socket=" + socket}, mempool());
    ASSERT_TRUE(port.ok()) << port.error().message;
    EthPort& p = *port.value();
    EXPECT_EQ(p.driver(), "net_memif");
    EXPECT_EQ(p.max_frame(), 1514u);  // memif's max_rx_pktlen in DPDK 22.11 (README)
    ChildProcess peer({"/proc/self/exe", kMemifPeerFlag, socket, std::to_string(kFrames)});
    ASSERT_TRUE(peer.started()) << "could not start the peer process";
    ASSERT_TRUE(wait_link(p, peer)) << "the memif link to the peer did not come up within "
                                       "20 s (peer exit code "
                                    << peer.poll_exit().value_or(-1) << ")";
    std::vector<rte_mbuf*> frames;
    for (uint32_t i = 0; i < kFrames; ++i) {
      frames.push_back(make_frame(pool(), test_bytes(64 + (i * 13) % 1400, i, 0)));
      sent_bytes += rte_pktmbuf_pkt_len(frames.back());
    }
    // Send and receive in turns so neither side's ring fills up waiting for the other.
    const auto deadline = after_seconds(30);
    size_t sent = 0;
    while ((sent < kFrames || echoed.size() < kFrames) &&
           std::chrono::steady_clock::now() < deadline) {
      if (sent < kFrames) {
        sent += p.tx(frames.data() + sent,
                     static_cast<uint16_t>(std::min<size_t>(kFrames - sent, 32)));
      }
      for (auto& f : receive_burst(p)) {
        echoed.push_back(std::move(f));
      }
      if (peer.poll_exit()) break;
    }
    for (size_t i = sent; i < kFrames; ++i) rte_pktmbuf_free(frames[i]);
    EXPECT_EQ(sent, kFrames);
    const auto stats = p.stats_json();
    EXPECT_EQ(stats["opackets"], sent);
    EXPECT_EQ(stats["ipackets"], echoed.size());
    port.value().reset();  // closing the link tells the peer to exit
    peer_exit = peer.wait(20);
  }
  ASSERT_TRUE(peer_exit.has_value()) << "the peer did not exit within 20 s and was killed";
  EXPECT_EQ(*peer_exit, 0) << "peer exit codes: memif_peer.h";
  ASSERT_EQ(echoed.size(), kFrames);
  uint64_t echoed_bytes = 0;
  for (uint32_t i = 0; i < kFrames; ++i) {
    EXPECT_EQ(echoed[i], test_bytes(64 + (i * 13) % 1400, i, 0)) << "frame " << i;
    echoed_bytes += echoed[i].size();
  }
  EXPECT_EQ(echoed_bytes, sent_bytes);
  std::error_code ec;
  std::filesystem::remove(socket, ec);
}

}  // namespace
}  // namespace rtb::ethport::testing
