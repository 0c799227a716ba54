// net_pcap: a capture read through rx_pcap gives the frames libpcap reads (CaptureReader),
// and frames sent through tx_pcap read back byte for byte.
#include <gtest/gtest.h>

#include "pcap/capture_reader.h"
#include "tests/ethport/ethport_test_util.h"

namespace rtb::ethport::testing {
namespace {

class PcapPort : public PortTest {};

// Receives until the capture is exhausted (several empty bursts in a row) or the deadline.
std::vector<std::vector<uint8_t>> read_until_dry(EthPort& port) {
  std::vector<std::vector<uint8_t>> got;
  const auto deadline = after_seconds(10);
  rte_mbuf* burst[32];
  for (int empty = 0; empty < 100 && std::chrono::steady_clock::now() < deadline;) {
    const uint16_t n = port.rx(burst, 32);
    empty = n == 0 ? empty + 1 : 0;
    for (uint16_t i = 0; i < n; ++i) got.push_back(frame_bytes(burst[i]));
    rte_pktmbuf_free_bulk(burst, n);
  }
  return got;
}

TEST_F(PcapPort, RxReadsWhatLibpcapReads) {
  SKIP_WITHOUT_SHARED_CAPTURES();
  const std::string capture = shared_captures_dir() + "/oferby_proxy_roce.pcap";
  auto expected = capture::read_all(capture);
  ASSERT_TRUE(expected.ok()) << expected.error().message;
  ASSERT_EQ(expected->size(), 123u);  // captures/README.md

  auto port = EthPort::open({.device = unique_name("net_pcap") + ",rx_pcap=" + capture},
                            mempool());
  ASSERT_TRUE(port.ok()) << port.error().message;
  EXPECT_EQ(port.value()->max_frame(), kMaxFrameBytes);
  const auto got = read_until_dry(*port.value());
  ASSERT_EQ(got.size(), expected->size());
  uint64_t bytes = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    EXPECT_EQ(got[i], expected.value()[i].bytes) << "frame " << i;
    bytes += got[i].size();
  }
  EXPECT_EQ(port.value()->stats_json()["ipackets"], got.size());
  EXPECT_EQ(port.value()->stats_json()["ibytes"], bytes);
}

TEST_F(PcapPort, TxWritesFramesThatReadBackIdentical) {
  ScratchDir dir;
  const std::string out = dir.file("out.pcap");
  std::vector<std::vector<uint8_t>> sent;
  {
    auto port = EthPort::open({.device = unique_name("net_pcap") + ",tx_pcap=" + out},
                              mempool());
    ASSERT_TRUE(port.ok()) << port.error().message;
    std::vector<rte_mbuf*> frames;
    for (uint32_t i = 0; i < 50; ++i) {
      sent.push_back(test_bytes(60 + i * 29, i, 0));
      frames.push_back(make_frame(pool(), sent.back()));
    }
    ASSERT_EQ(send_all(*port.value(), frames, after_seconds(10)), sent.size());
  }  // closing the port closes the file
  auto back = capture::read_all(out);
  ASSERT_TRUE(back.ok()) << back.error().message;
  ASSERT_EQ(back->size(), sent.size());
  for (size_t i = 0; i < sent.size(); ++i) {
    EXPECT_EQ(back.value()[i].bytes, sent[i]) << "frame " << i;
    EXPECT_EQ(back.value()[i].original_len, sent[i].size()) << "frame " << i;
  }
}

TEST_F(PcapPort, InfiniteRxReplaysAndStillLeaksNothing) {
  SKIP_WITHOUT_SHARED_CAPTURES();
  const std::string capture = shared_captures_dir() + "/scapy_roce_reference.pcap";
  auto port = EthPort::open(
      {.device = unique_name("net_pcap") + ",rx_pcap=" + capture + ",infinite_rx=1"},
      mempool());
  ASSERT_TRUE(port.ok()) << port.error().message;
  const auto got = receive(*port.value(), 12, after_seconds(10));
  ASSERT_GE(got.size(), 12u);  // 5 frames in the file, replayed
  EXPECT_EQ(got[5], got[0]);
  EXPECT_EQ(got[11], got[1]);
  EXPECT_EQ(got[0].size(), 90u);
}

}  // namespace
}  // namespace rtb::ethport::testing
