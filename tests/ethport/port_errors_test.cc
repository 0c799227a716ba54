// What a user sees when a port cannot be opened: one sentence naming the device and what
// to do. (Malformed strings: port_spec_test.cc; a missing af_packet interface:
// af_packet_port_test.cc.)
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <rte_mbuf.h>

#include "tests/ethport/ethport_test_util.h"

namespace rtb::ethport::testing {
namespace {

using ::testing::HasSubstr;

class PortErrors : public PortTest {};

TEST_F(PortErrors, NoHardwarePfcOnNullOrRing) {
  for (const std::string prefix : {"net_null", "net_ring"}) {
    const std::string device = unique_name(prefix);
    auto port = EthPort::open({.device = device, .hardware_pfc_priorities = {3}}, mempool());
    ASSERT_FALSE(port.ok()) << device;
    EXPECT_THAT(port.error().message,
                HasSubstr("device " + device + " (driver " + prefix + ") has no hardware PFC"));
    EXPECT_THAT(port.error().message, HasSubstr("hardware_pfc_priorities empty"));
  }
  // The failed port was torn down: the name can be used again.
  const std::string device = unique_name("net_null");
  ASSERT_FALSE(EthPort::open({.device = device, .hardware_pfc_priorities = {0}}, mempool()).ok());
  auto again = EthPort::open({.device = device}, mempool());
  EXPECT_TRUE(again.ok()) << again.error().message;
}

TEST_F(PortErrors, UnknownDriverAndMalformedStrings) {
  auto unknown = EthPort::open({.device = "net_tap0,iface=x"}, mempool());
  ASSERT_FALSE(unknown.ok());
  EXPECT_THAT(unknown.error().message, HasSubstr("unknown driver 'net_tap0'"));
  EXPECT_THAT(unknown.error().message, HasSubstr("net_memif"));
  auto malformed = EthPort::open({.device = "net_pcap0,rx_pcap"}, mempool());
  ASSERT_FALSE(malformed.ok());
  EXPECT_THAT(malformed.error().message, HasSubstr("'rx_pcap' is not key=value"));
}

TEST_F(PortErrors, MissingPcapFile) {
  const std::string device = unique_name("net_pcap") + ",rx_pcap=/nonexistent/in.pcap";
  auto port = EthPort::open({.device = device}, mempool());
  ASSERT_FALSE(port.ok());
  EXPECT_THAT(port.error().message, HasSubstr(device));
  EXPECT_THAT(port.error().message,
              HasSubstr("capture file '/nonexistent/in.pcap' (rx_pcap) does not exist"));
  auto out = EthPort::open({.device = unique_name("net_pcap") + ",tx_pcap=/nonexistent/o.pcap"},
                           mempool());
  ASSERT_FALSE(out.ok());
  EXPECT_THAT(out.error().message, HasSubstr("folder '/nonexistent' for tx_pcap"));
}

TEST_F(PortErrors, NameAlreadyInUse) {
  const std::string name = unique_name("net_null");
  auto first = EthPort::open({.device = name}, mempool());
  ASSERT_TRUE(first.ok()) << first.error().message;
  auto second = EthPort::open({.device = name}, mempool());
  ASSERT_FALSE(second.ok());
  EXPECT_THAT(second.error().message, HasSubstr("already exists in this process"));
}

TEST_F(PortErrors, PciNeedsAnEalWithPci) {
  auto port = EthPort::open({.device = "0000:03:00.0"}, mempool());
  ASSERT_FALSE(port.ok());
  EXPECT_THAT(port.error().message, HasSubstr("--no-pci"));
  EXPECT_THAT(port.error().message, HasSubstr("EalOptions::pci_allow"));
}

TEST_F(PortErrors, RxPoolWithoutFrameMeta) {
  rte_mempool* plain = rte_pktmbuf_pool_create(unique_name("plain").c_str(), 63, 0, 0,
                                               RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);
  ASSERT_NE(plain, nullptr);
  auto port = EthPort::open({.device = unique_name("net_null")}, plain);
  ASSERT_FALSE(port.ok());
  EXPECT_THAT(port.error().message, HasSubstr("too small for FrameMeta"));
  rte_mempool_free(plain);
  auto none = EthPort::open({.device = unique_name("net_null")}, nullptr);
  ASSERT_FALSE(none.ok());
  EXPECT_THAT(none.error().message, HasSubstr("no rx mbuf pool"));
}

TEST_F(PortErrors, SmallRxPoolLimitsTheFrameSize) {
  auto small = runtime::MbufPool::create(
      {.name = unique_name("small"), .count = 63, .data_room = RTE_PKTMBUF_HEADROOM + 2048});
  ASSERT_TRUE(small.ok()) << small.error().message;
  auto port = EthPort::open({.device = unique_name("net_null")}, small.value().mempool());
  ASSERT_TRUE(port.ok()) << port.error().message;
  EXPECT_EQ(port.value()->max_frame(), 2048u);
}


TEST_F(PortErrors, MissingNetworkNamespace) {
  const std::string device = unique_name("net_af_packet") + ",iface=lo";
  auto port = EthPort::open({.device = device, .netns = "rtb-no-such-ns"}, mempool());
  ASSERT_FALSE(port.ok());
  EXPECT_THAT(port.error().message, HasSubstr(device));
  EXPECT_THAT(port.error().message, HasSubstr("network namespace 'rtb-no-such-ns' does not "
                                              "exist"));
}

}  // namespace
}  // namespace rtb::ethport::testing
