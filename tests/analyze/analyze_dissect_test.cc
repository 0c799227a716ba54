// The dissector on every link type it reads and on frames broken in every way it names,
// starting from the scapy reference frames (../shared/captures README §3).
#include <gtest/gtest.h>

#include <vector>

#include "analyze/dissect.h"
#include "analyze/icrc_ipv6.h"
#include "analyze/malformed.h"
#include "capture_test_util.h"
#include "pcap/capture_reader.h"

namespace rtb::analyze {
namespace {

using Bytes8 = std::vector<uint8_t>;
using capture::LinkType;

// Frame `i` (0-based) of scapy_roce_reference.pcap: 0 SEND Only, 2 WRITE Middle (CE), 4 CNP.
Bytes8 scapy_frame(size_t i) {
  auto all = capture::read_all(capture::testing::shared_captures_dir() + "/scapy_roce_reference.pcap");
  if (!all || all.value().size() <= i) std::abort();
  return all.value()[i].bytes;
}

Dissected run(LinkType link, const Bytes8& f, uint32_t wire_len = 0) {
  Dissected d;
  const auto n = static_cast<uint32_t>(f.size());
  dissect(link, f.data(), n, wire_len == 0 ? n : wire_len, d);
  return d;
}

Malformed why(const Dissected& d) { return static_cast<Malformed>(d.malformed); }

Bytes8 ip_packet(const Bytes8& eth) { return Bytes8(eth.begin() + 14, eth.end()); }

TEST(AnalyzeDissect, EthernetSendOnly) {
  SKIP_WITHOUT_SHARED_CAPTURES();
  const Dissected d = run(LinkType::kEthernet, scapy_frame(0));
  ASSERT_EQ(d.kind, FrameKind::kRoce);
  EXPECT_EQ(d.opcode, 0x04);
  EXPECT_EQ(d.dest_qpn, 0x123u);
  EXPECT_EQ(d.psn, 100u);
  EXPECT_EQ(d.payload_bytes, 32u);
  EXPECT_EQ(d.dscp, 26);
  EXPECT_EQ(d.udp_sport, 49152);
  EXPECT_EQ(d.icrc, IcrcCheck::kValid);
  EXPECT_FALSE(d.ipv6);
}

TEST(AnalyzeDissect, QinQTags) {
  SKIP_WITHOUT_SHARED_CAPTURES();
  Bytes8 f = scapy_frame(2);
  const Bytes8 tags = {0x88, 0xa8, 0x00, 0x64, 0x81, 0x00, 0x60, 0x0a};  // S-tag 100, C-tag 10 pcp 3
  f.insert(f.begin() + 12, tags.begin(), tags.end());
  const Dissected d = run(LinkType::kEthernet, f);
  ASSERT_EQ(d.kind, FrameKind::kRoce);
  EXPECT_EQ(d.vlan_tags, 2);
  EXPECT_EQ(d.ecn, wire::Ecn::Ce);
  EXPECT_EQ(d.icrc, IcrcCheck::kValid);
}

TEST(AnalyzeDissect, TooManyTags) {
  SKIP_WITHOUT_SHARED_CAPTURES();
  Bytes8 f = scapy_frame(0);
  for (int i = 0; i < 5; ++i) {
    const Bytes8 tag = {0x81, 0x00, 0x00, 0x01};
    f.insert(f.begin() + 12, tag.begin(), tag.end());
  }
  EXPECT_EQ(why(run(LinkType::kEthernet, f)), Malformed::kTooManyVlanTags);
}

TEST(AnalyzeDissect, LinuxCookedV1AndV2) {
  SKIP_WITHOUT_SHARED_CAPTURES();
  const Bytes8 ip = ip_packet(scapy_frame(0));
  // SLL: packet type 4 (outgoing), ARPHRD_ETHER, address length 6, address, protocol IPv4.
  Bytes8 sll = {0, 4, 0, 1, 0, 6, 2, 0, 0, 0, 0, 1, 0, 0, 0x08, 0x00};
  sll.insert(sll.end(), ip.begin(), ip.end());
  const Dissected d1 = run(LinkType::kLinuxSll, sll);
  ASSERT_EQ(d1.kind, FrameKind::kRoce);
  EXPECT_EQ(d1.icrc, IcrcCheck::kValid);
  EXPECT_EQ(d1.src_mac.b[5], 1);
  // SLL2: protocol, reserved, ifindex 3, ARPHRD_ETHER, packet type 4, address length 6.
  Bytes8 sll2 = {0x08, 0x00, 0, 0, 0, 0, 0, 3, 0, 1, 4, 6, 2, 0, 0, 0, 0, 1, 0, 0};
  sll2.insert(sll2.end(), ip.begin(), ip.end());
  const Dissected d2 = run(LinkType::kLinuxSll2, sll2);
  ASSERT_EQ(d2.kind, FrameKind::kRoce);
  EXPECT_EQ(d2.icrc, IcrcCheck::kValid);
  EXPECT_EQ(why(run(LinkType::kLinuxSll2, Bytes8(sll2.begin(), sll2.begin() + 19))),
            Malformed::kTruncatedLinkHeader);
}

TEST(AnalyzeDissect, RawIpLinkTypes) {
  SKIP_WITHOUT_SHARED_CAPTURES();
  const Bytes8 ip = ip_packet(scapy_frame(4));
  EXPECT_EQ(run(LinkType::kRaw, ip).opcode, 0x81);
  EXPECT_EQ(run(LinkType::kIpv4, ip).kind, FrameKind::kRoce);
  Bytes8 bad = ip;
  bad[0] = 0x55;
  EXPECT_EQ(why(run(LinkType::kRaw, bad)), Malformed::kBadIpVersion);
  EXPECT_EQ(why(run(static_cast<LinkType>(147), ip)), Malformed::kUnsupportedLinkType);
}

// An IPv6 RoCEv2 SEND Only built from frame 1's transport headers and payload, with the
// ICRC from icrc_ipv6(); analyze_tshark_check.py checks icrc_ipv6 against a Python
// implementation of the spec's masks.
Bytes8 ipv6_send_only() {
  const Bytes8 v4 = ip_packet(scapy_frame(0));
  const Bytes8 udp_on(v4.begin() + 20, v4.end());  // UDP + BTH + payload + ICRC
  Bytes8 f = {0x66, 0xa0, 0x00, 0x01,  // version 6, traffic class 0x6a (DSCP 26, ECT(0))
              static_cast<uint8_t>(udp_on.size() >> 8), static_cast<uint8_t>(udp_on.size()),
              17, 64};
  for (int i = 0; i < 16; ++i) f.push_back(i == 0 ? 0x20 : i == 1 ? 0x01 : i == 15 ? 1 : 0);
  for (int i = 0; i < 16; ++i) f.push_back(i == 0 ? 0x20 : i == 1 ? 0x01 : i == 15 ? 2 : 0);
  f.insert(f.end(), udp_on.begin(), udp_on.end());
  const auto covered = static_cast<uint32_t>(f.size() - 4);
  const uint32_t icrc = icrc_ipv6(f.data(), covered);
  for (int i = 0; i < 4; ++i) f[covered + static_cast<size_t>(i)] = static_cast<uint8_t>(icrc >> (8 * i));
  return f;
}

TEST(AnalyzeDissect, Ipv6) {
  SKIP_WITHOUT_SHARED_CAPTURES();
  Bytes8 f = ipv6_send_only();
  Dissected d = run(LinkType::kRaw, f);
  ASSERT_EQ(d.kind, FrameKind::kRoce);
  EXPECT_TRUE(d.ipv6);
  EXPECT_EQ(d.dscp, 26);
  EXPECT_EQ(d.ecn, wire::Ecn::Ect0);
  EXPECT_EQ(d.icrc, IcrcCheck::kValid);
  // Masked fields (traffic class, flow label, hop limit) do not change the ICRC...
  f[1] = 0xa3;
  f[3] = 0x77;
  f[7] = 3;
  EXPECT_EQ(run(LinkType::kIpv6, f).icrc, IcrcCheck::kValid);
  // ... the addresses and the payload do.
  Bytes8 g = f;
  g[23] ^= 1;
  EXPECT_EQ(run(LinkType::kIpv6, g).icrc, IcrcCheck::kInvalid);
  Bytes8 eth = {2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1, 0x86, 0xdd};
  eth.insert(eth.end(), f.begin(), f.end());
  EXPECT_EQ(run(LinkType::kEthernet, eth).icrc, IcrcCheck::kValid);
  EXPECT_EQ(why(run(LinkType::kIpv6, Bytes8(f.begin(), f.begin() + 39))), Malformed::kTruncatedIpv6);
}

TEST(AnalyzeDissect, IcrcCheckedAndReservedBitsIgnored) {
  SKIP_WITHOUT_SHARED_CAPTURES();
  Bytes8 f = scapy_frame(0);
  f[14 + 20 + 8 + 4] = 0x10;  // BTH byte 4 reserved bit, as the HiRoCE NICs send it
  Dissected d = run(LinkType::kEthernet, f);
  EXPECT_EQ(d.icrc, IcrcCheck::kValid);
  EXPECT_FALSE(d.becn);
  f[60] ^= 0xff;  // a payload byte
  d = run(LinkType::kEthernet, f);
  EXPECT_EQ(d.kind, FrameKind::kRoce);
  EXPECT_EQ(d.icrc, IcrcCheck::kInvalid);
}

TEST(AnalyzeDissect, SnappedFrames) {
  SKIP_WITHOUT_SHARED_CAPTURES();
  const Bytes8 f = scapy_frame(1);  // 330 bytes, WRITE First with RETH
  Dissected d = run(LinkType::kEthernet, Bytes8(f.begin(), f.begin() + 96), 330);
  ASSERT_EQ(d.kind, FrameKind::kRoce);
  EXPECT_EQ(d.icrc, IcrcCheck::kNotChecked);
  EXPECT_EQ(d.payload_bytes, 256u);  // from the IP length
  d = run(LinkType::kEthernet, Bytes8(f.begin(), f.begin() + 60), 330);  // RETH cut
  EXPECT_EQ(why(d), Malformed::kSnappedHeaders);
  // The same cut without a snap length is a truncated packet.
  EXPECT_EQ(why(run(LinkType::kEthernet, Bytes8(f.begin(), f.begin() + 96))),
            Malformed::kTruncatedIpPacket);
}

// One field of frame 1 broken at a time; IPv4 checksum fixed where the IP header changed.
Dissected broken(size_t at, uint8_t value) {
  Bytes8 f = scapy_frame(0);
  f[at] = value;
  return run(LinkType::kEthernet, f);
}

TEST(AnalyzeDissect, MalformedReasons) {
  SKIP_WITHOUT_SHARED_CAPTURES();
  constexpr size_t kIp = 14, kUdp = 34, kBth = 42;
  EXPECT_EQ(why(broken(kIp, 0x44)), Malformed::kBadIpv4HeaderLength);
  EXPECT_EQ(why(broken(kIp + 10, 0)), Malformed::kBadIpv4Checksum);
  EXPECT_EQ(why(broken(kUdp + 5, 0x30)), Malformed::kBadUdpLength);
  EXPECT_EQ(why(broken(kBth + 1, 0x01)), Malformed::kBadTransportVersion);
  EXPECT_EQ(why(broken(kBth, 0x1f)), Malformed::kUnknownOpcode);
  EXPECT_EQ(why(broken(kBth, 0x11)), Malformed::kUnexpectedPayload);  // ACK with 32 bytes
  Bytes8 f = scapy_frame(0);
  EXPECT_EQ(why(run(LinkType::kEthernet, Bytes8(f.begin(), f.begin() + 13))),
            Malformed::kTruncatedLinkHeader);
  // A CNP whose pad count exceeds its (empty) payload.
  Bytes8 cnp = scapy_frame(4);
  cnp[kBth + 1] = 0x30;
  EXPECT_EQ(why(run(LinkType::kEthernet, cnp)), Malformed::kBadPadCount);
  cnp = scapy_frame(0);
  cnp[kBth + 1] = 0x30;  // pad 3 on a 32-byte payload: fine, 29 bytes of data
  EXPECT_EQ(run(LinkType::kEthernet, cnp).payload_bytes, 29u);
}

TEST(AnalyzeDissect, OtherTraffic) {
  SKIP_WITHOUT_SHARED_CAPTURES();
  Bytes8 f = scapy_frame(0);
  f[14 + 20 + 3] = 0xb8;  // UDP destination port 4792
  EXPECT_EQ(run(LinkType::kEthernet, f).kind, FrameKind::kOther);
  f = scapy_frame(0);
  f[12] = 0x08;
  f[13] = 0x06;  // ARP
  EXPECT_EQ(run(LinkType::kEthernet, f).kind, FrameKind::kOther);
}

TEST(AnalyzeDissect, Pfc) {
  SKIP_WITHOUT_SHARED_CAPTURES();
  auto all = capture::read_all(capture::testing::shared_captures_dir() + "/pfc_reference.pcap");
  ASSERT_TRUE(all);
  Bytes8 f = all.value()[0].bytes;
  Dissected d = run(LinkType::kEthernet, f);
  ASSERT_EQ(d.kind, FrameKind::kPfc);
  EXPECT_EQ(d.pfc_vector, 0x08);
  EXPECT_EQ(d.pfc_quanta[3], 65535);
  EXPECT_EQ(d.src_mac.b[5], 2);
  EXPECT_EQ(why(run(LinkType::kEthernet, Bytes8(f.begin(), f.begin() + 30))),
            Malformed::kTruncatedMacControl);
  f[5] = 0x02;
  EXPECT_EQ(why(run(LinkType::kEthernet, f)), Malformed::kBadPfcDestination);
  f[14] = 0x00;  // opcode 0x0001: 802.3x PAUSE
  EXPECT_EQ(run(LinkType::kEthernet, f).kind, FrameKind::kPause);
}

}  // namespace
}  // namespace rtb::analyze
