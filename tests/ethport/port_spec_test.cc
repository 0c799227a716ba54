// Device strings and port specs, checked without the EAL.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "ethport/port_spec.h"

namespace rtb::ethport {
namespace {

using ::testing::HasSubstr;

TEST(ParseDevice, EachKindWithItsArguments) {
  auto null = parse_device("net_null0");
  ASSERT_TRUE(null.ok()) << null.error().message;
  EXPECT_EQ(null->kind, DeviceKind::kNull);
  EXPECT_EQ(null->name, "net_null0");
  EXPECT_TRUE(null->args.empty());

  auto pcap = parse_device("net_pcap1,rx_pcap=in.pcap,tx_pcap=out.pcap,infinite_rx=1");
  ASSERT_TRUE(pcap.ok()) << pcap.error().message;
  EXPECT_EQ(pcap->kind, DeviceKind::kPcap);
  EXPECT_EQ(pcap->name, "net_pcap1");
  EXPECT_EQ(pcap->arg("rx_pcap"), "in.pcap");
  EXPECT_EQ(pcap->args_string(), "rx_pcap=in.pcap,tx_pcap=out.pcap,infinite_rx=1");

  auto memif = parse_device("net_memif0,role=client,socket=/tmp/x.sock,id=3");
  ASSERT_TRUE(memif.ok()) << memif.error().message;
  EXPECT_EQ(memif->kind, DeviceKind::kMemif);
  EXPECT_EQ(memif->arg("id"), "3");

  auto af = parse_device("net_af_packet0,iface=veth0");
  ASSERT_TRUE(af.ok()) << af.error().message;
  EXPECT_EQ(af->kind, DeviceKind::kAfPacket);

  auto ring = parse_device("net_ring_lc0");
  ASSERT_TRUE(ring.ok()) << ring.error().message;
  EXPECT_EQ(ring->kind, DeviceKind::kRing);
}

TEST(ParseDevice, PciAddressesAreCanonical) {
  auto full = parse_device("0000:03:00.0");
  ASSERT_TRUE(full.ok()) << full.error().message;
  EXPECT_EQ(full->kind, DeviceKind::kPci);
  EXPECT_EQ(full->name, "0000:03:00.0");
  auto short_form = parse_device("AF:00.1");
  ASSERT_TRUE(short_form.ok()) << short_form.error().message;
  EXPECT_EQ(short_form->name, "0000:af:00.1");
}

TEST(ParseDevice, UnknownDriverListsTheSupportedOnes) {
  auto r = parse_device("net_bogus0,x=1");
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.error().message, HasSubstr("net_bogus0"));
  for (const char* d : {"net_null", "net_ring", "net_pcap", "net_memif", "net_af_packet",
                        "PCI address"}) {
    EXPECT_THAT(r.error().message, HasSubstr(d));
  }
  EXPECT_FALSE(parse_device("eth0").ok());
}

TEST(ParseDevice, MalformedStringsNameTheDeviceAndTheFix) {
  struct Case {
    const char* device;
    const char* says;
  };
  const Case cases[] = {
      {"", "empty"},
      {"net_pcap0,rx_pcap", "not key=value"},
      {"net_pcap0,,rx_pcap=a", "not key=value"},
      {"net_null0,size=64,size=128", "given twice"},
      {"net_null0,speed=100", "not an argument of net_null"},
      {"net_pcap0", "rx_pcap"},
      {"net_pcap0,infinite_rx=1", "names no capture"},
      {"net_af_packet0", "iface=<name>"},
      {"net_af_packet0,iface=", "iface=<name>"},
      {"net_memif0,role=master", "neither server nor client"},
      {"net_null-0", "unknown driver"},
      {"0000:3:00.0", "not a PCI address"},
      {"0000:03:00.8", "not a PCI address"},
      {"0000:03:00.0,x=1", "without arguments"},
  };
  for (const Case& c : cases) {
    auto r = parse_device(c.device);
    ASSERT_FALSE(r.ok()) << c.device;
    EXPECT_THAT(r.error().message, HasSubstr(c.says)) << c.device;
    if (*c.device != '\0') {
      EXPECT_THAT(r.error().message, HasSubstr(c.device));
    }
  }
}

TEST(CheckSpec, DescriptorsPrioritiesAndWatermarks) {
  EXPECT_TRUE(check_spec({.device = "net_null0", .hardware_pfc_priorities = {3, 4}}).ok());
  auto zero = check_spec({.device = "net_null0", .rx_descriptors = 0});
  ASSERT_FALSE(zero.ok());
  EXPECT_THAT(zero.message(), HasSubstr("net_null0"));
  auto range = check_spec({.device = "net_null0", .hardware_pfc_priorities = {8}});
  ASSERT_FALSE(range.ok());
  EXPECT_THAT(range.message(), HasSubstr("out of range"));
  auto twice = check_spec({.device = "net_null0", .hardware_pfc_priorities = {3, 3}});
  ASSERT_FALSE(twice.ok());
  EXPECT_THAT(twice.message(), HasSubstr("repeated"));
  auto water = check_spec({.device = "net_null0", .pfc_high_water = 10, .pfc_low_water = 20});
  ASSERT_FALSE(water.ok());
  EXPECT_THAT(water.message(), HasSubstr("pfc_low_water"));
}

}  // namespace
}  // namespace rtb::ethport
