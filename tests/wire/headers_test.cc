// Header structs: sizes, accessors against known frames, checksums, PFC bytes.
#include <gtest/gtest.h>

#include <cstring>

#include <rte_ip.h>

#include "core/rng.h"
#include "tests/wire/test_util.h"
#include "wire/bth.h"
#include "wire/ethernet.h"
#include "wire/frame_size.h"
#include "wire/ipv4.h"
#include "wire/opcode.h"
#include "wire/pfc.h"
#include "wire/udp.h"

namespace rtb::wire {
namespace {

using test::hex;

// Reference §2.4 (a): a CNP captured on a ConnectX-4 Lx.
const auto kCx4Cnp = hex(
    "e41d2dab2bc2 7cfe90643b32 0800"
    "45c2 003c 718c 4000 4011 9161 0a001101 0a001201"
    "0000 12b7 0028 0000"
    "81 00 ffff 40 000118 00 000000"
    "00000000000000000000000000000000"
    "82 fd 00 2a");

TEST(Headers, SizesAndAlignment) {
  EXPECT_EQ(sizeof(EthHdr), 14u);
  EXPECT_EQ(sizeof(VlanTag), 4u);
  EXPECT_EQ(sizeof(Ipv4Hdr), 20u);
  EXPECT_EQ(sizeof(UdpHdr), 8u);
  EXPECT_EQ(sizeof(Bth), 12u);
  EXPECT_EQ(sizeof(Reth), 16u);
  EXPECT_EQ(sizeof(Aeth), 4u);
  EXPECT_EQ(sizeof(ImmDt), 4u);
  EXPECT_EQ(sizeof(Deth), 8u);
  EXPECT_EQ(sizeof(CnpPad), 16u);
  EXPECT_EQ(sizeof(PfcBody), 20u);
  EXPECT_EQ(alignof(Bth), 1u);
}

TEST(Headers, EthernetAndVlanAccessors) {
  uint8_t buf[18];
  const Vlan v{5, 0x123};
  EXPECT_EQ(write_l2(buf, MacAddr{{1, 2, 3, 4, 5, 6}}, MacAddr{{7, 8, 9, 10, 11, 12}}, &v,
                     kEtherTypeIpv4),
            18u);
  const auto* eth = reinterpret_cast<const EthHdr*>(buf);
  EXPECT_EQ(eth->type(), kEtherTypeVlan);
  EXPECT_EQ(eth->dst_mac(), (MacAddr{{1, 2, 3, 4, 5, 6}}));
  EXPECT_EQ(eth->src_mac(), (MacAddr{{7, 8, 9, 10, 11, 12}}));
  const auto* tag = reinterpret_cast<const VlanTag*>(buf + 14);
  EXPECT_EQ(buf[14], 0xA1);  // PCP 5 << 5 | DEI 0 | VID high nibble 1
  EXPECT_EQ(buf[15], 0x23);
  EXPECT_EQ(tag->pcp(), 5);
  EXPECT_FALSE(tag->dei());
  EXPECT_EQ(tag->vid(), 0x123);
  EXPECT_EQ(tag->type(), kEtherTypeIpv4);
  EXPECT_EQ(write_l2(buf, MacAddr{}, MacAddr{}, nullptr, kEtherTypeMacControl), 14u);
  EXPECT_EQ(eth->type(), kEtherTypeMacControl);
}

TEST(Headers, Ipv4AccessorsOnConnectXCnp) {
  const auto* ip = reinterpret_cast<const Ipv4Hdr*>(kCx4Cnp.data() + 14);
  EXPECT_EQ(ip->version(), 4);
  EXPECT_EQ(ip->header_bytes(), 20u);
  EXPECT_EQ(ip->dscp(), 48);
  EXPECT_EQ(ip->ecn(), Ecn::Ect0);
  EXPECT_EQ(ip->length(), 60);
  EXPECT_TRUE(ip->dont_fragment());
  EXPECT_FALSE(ip->more_fragments());
  EXPECT_EQ(ip->fragment_offset(), 0);
  EXPECT_EQ(ip->ttl, 64);
  EXPECT_EQ(ip->protocol, kIpProtoUdp);
  EXPECT_EQ(ip->cksum(), 0x9161);
  EXPECT_EQ(ip->src_addr(), 0x0A001101u);
  EXPECT_EQ(ip->dst_addr(), 0x0A001201u);
  EXPECT_EQ(ipv4_checksum(kCx4Cnp.data() + 14, 20), 0x9161);
  EXPECT_TRUE(ipv4_checksum_ok(kCx4Cnp.data() + 14, 20));
  const auto* udp = reinterpret_cast<const UdpHdr*>(kCx4Cnp.data() + 34);
  EXPECT_EQ(udp->sport(), 0);
  EXPECT_EQ(udp->dport(), kRoceV2Port);
  EXPECT_EQ(udp->len(), 40);
  EXPECT_EQ(udp->cksum(), 0);
}

TEST(Headers, Ipv4ChecksumAgreesWithDpdk) {
  Rng rng(1, 2);
  for (int i = 0; i < 2000; ++i) {
    uint8_t h[20];
    for (auto& b : h) b = static_cast<uint8_t>(rng.next_u64());
    h[0] = 0x45;
    const uint16_t ours = ipv4_checksum(h, 20);
    h[10] = h[11] = 0;
    rte_ipv4_hdr dpdk;
    std::memcpy(&dpdk, h, 20);
    ASSERT_EQ(ours, rte_be_to_cpu_16(rte_ipv4_cksum(&dpdk)));
    store_be16(h + 10, ours);
    ASSERT_TRUE(ipv4_checksum_ok(h, 20));
    h[5] ^= 1;
    ASSERT_FALSE(ipv4_checksum_ok(h, 20));
  }
}

// Headers with options (24 to 60 bytes) take the check's general path: every byte counts.
TEST(Headers, Ipv4ChecksumOfHeadersWithOptions) {
  Rng rng(3, 4);
  for (uint32_t bytes = 24; bytes <= 60; bytes += 4) {
    uint8_t h[60];
    for (auto& b : h) b = static_cast<uint8_t>(rng.next_u64());
    h[0] = static_cast<uint8_t>(0x40 | bytes / 4);
    store_be16(h + 10, ipv4_checksum(h, bytes));
    ASSERT_TRUE(ipv4_checksum_ok(h, bytes)) << bytes;
    h[bytes - 1] ^= 0x10;
    ASSERT_FALSE(ipv4_checksum_ok(h, bytes)) << bytes;
  }
}

TEST(Headers, SetEcnInPlaceKeepsChecksumValid) {
  auto frame = kCx4Cnp;
  auto* ip = reinterpret_cast<Ipv4Hdr*>(frame.data() + 14);
  for (Ecn e : {Ecn::Ce, Ecn::NotEct, Ecn::Ect1, Ecn::Ect0, Ecn::Ce}) {
    set_ecn_in_place(*ip, e);
    EXPECT_EQ(ip->ecn(), e);
    EXPECT_EQ(ip->dscp(), 48);
    EXPECT_TRUE(ipv4_checksum_ok(frame.data() + 14, 20));
    EXPECT_EQ(ip->cksum(), ipv4_checksum(frame.data() + 14, 20));
  }
}

TEST(Headers, BthAccessors) {
  // Reference §2.4 (b): UC SEND Only, MigReq 1, PadCnt 2, DestQP 211, PSN 13571856.
  const auto b = hex("24 60 ffff 00 0000d3 00 cf1710");
  const auto* bth = reinterpret_cast<const Bth*>(b.data());
  EXPECT_EQ(bth->opcode, op::kUc + op::kSendOnly);
  EXPECT_FALSE(bth->se());
  EXPECT_TRUE(bth->mig_req());
  EXPECT_EQ(bth->pad_count(), 2);
  EXPECT_EQ(bth->tver(), 0);
  EXPECT_EQ(bth->p_key(), 0xFFFF);
  EXPECT_EQ(bth->dest_qpn(), 211u);
  EXPECT_FALSE(bth->ack_req());
  EXPECT_EQ(bth->psn(), 13571856u);
  EXPECT_EQ(Bth::make_flags(false, true, 2), 0x60);
  EXPECT_EQ(Bth::make_flags(true, false, 3), 0xB0);
  // Byte 4: FECN 0x80, BECN 0x40; the reserved bits (0x10 on HiRoCE NICs) mean nothing.
  const auto q = hex("00 40 ffff 10 000001 80 000001");
  const auto* quirk = reinterpret_cast<const Bth*>(q.data());
  EXPECT_FALSE(quirk->becn());
  EXPECT_FALSE(quirk->fecn());
  EXPECT_TRUE(quirk->ack_req());
  const auto c = hex("81 00 ffff c0 000118 00 000000");
  EXPECT_TRUE(reinterpret_cast<const Bth*>(c.data())->becn());
  EXPECT_TRUE(reinterpret_cast<const Bth*>(c.data())->fecn());
}

TEST(Headers, ExtendedHeaders) {
  const auto r = hex("00007f0000001000 00abcdef 00000300");
  const auto* reth = reinterpret_cast<const Reth*>(r.data());
  EXPECT_EQ(reth->va(), 0x00007f0000001000ULL);
  EXPECT_EQ(reth->rkey(), 0x00abcdefu);
  EXPECT_EQ(reth->dma_length(), 768u);
  const auto a = hex("1f 000001");
  const auto* aeth = reinterpret_cast<const Aeth*>(a.data());
  EXPECT_EQ(aeth->syndrome, 0x1F);
  EXPECT_EQ(aeth->msn(), 1u);
  EXPECT_EQ(aeth_kind(aeth->syndrome), AethKind::Ack);
  EXPECT_EQ(aeth_value(aeth->syndrome), 31);
  EXPECT_EQ(aeth_ack(31), 0x1F);
  EXPECT_EQ(aeth_nak(NakCode::PsnSequenceError), 0x60);
  EXPECT_EQ(aeth_nak(NakCode::RemoteAccessError), 0x62);
  EXPECT_EQ(aeth_kind(aeth_nak(NakCode::InvalidRequest)), AethKind::Nak);
  EXPECT_EQ(aeth_rnr_nak(14), 0x2E);
  EXPECT_EQ(aeth_kind(aeth_rnr_nak(14)), AethKind::RnrNak);
  const auto i = hex("deadbeef");
  EXPECT_EQ(reinterpret_cast<const ImmDt*>(i.data())->value(), 0xDEADBEEFu);
  const auto d = hex("11111111 00 00abcd");
  EXPECT_EQ(reinterpret_cast<const Deth*>(d.data())->src_qpn(), 0xABCDu);
}

TEST(Headers, OpcodeTable) {
  EXPECT_EQ(opcode_info(op::kWriteFirst).ext_bytes, 16);
  EXPECT_EQ(opcode_info(op::kWriteOnlyImm).ext_bytes, 20);
  EXPECT_EQ(ext_offset(opcode_info(op::kWriteOnlyImm).ext, kExtImm), 16u);
  EXPECT_EQ(ext_offset(opcode_info(op::kWriteOnlyImm).ext, kExtReth), 0u);
  EXPECT_EQ(opcode_info(op::kAcknowledge).ext_bytes, 4);
  EXPECT_FALSE(opcode_info(op::kAcknowledge).payload);
  EXPECT_EQ(opcode_info(op::kCnp).ext_bytes, 16);
  EXPECT_EQ(opcode_info(op::kUdSendOnlyImm).ext_bytes, 12);
  EXPECT_EQ(opcode_info(op::kUc + op::kWriteFirst).ext_bytes, 16);
  EXPECT_STREQ(opcode_info(0x24).name, "UC SEND Only");
  for (uint8_t reserved : {0x15, 0x18, 0x1F, 0x2C, 0x40, 0x63, 0x80, 0x82, 0xFF})
    EXPECT_FALSE(opcode_info(reserved).known) << int{reserved};
  int known = 0;
  for (int o = 0; o < 256; ++o) known += opcode_info(static_cast<uint8_t>(o)).known;
  EXPECT_EQ(known, 23 + 12 + 2 + 1);  // RC, UC, UD SEND Only(+Imm), CNP
}

TEST(Headers, PfcFramesMatchReference) {
  // captures/README.md §4: XOFF and XON for priority 3 from 02:00:00:00:00:02.
  PfcFields f;
  f.src = MacAddr{{2, 0, 0, 0, 0, 2}};
  f.vector = 0x08;
  f.quanta[3] = 0xFFFF;
  uint8_t out[64];
  ASSERT_EQ(build_pfc(f, out), 60u);
  auto xoff = hex("0180c2000001 020000000002 8808 0101 0008 0000 0000 0000 ffff 0000 0000 0000 0000");
  xoff.resize(60, 0);
  EXPECT_EQ(std::vector<uint8_t>(out, out + 60), xoff);
  f.quanta[3] = 0;
  build_pfc(f, out);
  auto xon = xoff;
  xon[24] = xon[25] = 0;  // time[3] at 14 + 2 + 2 + 3 * 2
  EXPECT_EQ(std::vector<uint8_t>(out, out + 60), xon);
}

TEST(Headers, TaggedPfcIsStill60Bytes) {
  PfcFields f;
  f.vector = 0x81;
  f.quanta[0] = 1;
  f.quanta[7] = 0x1234;
  f.tagged = true;
  f.vlan = Vlan{7, 0};
  uint8_t out[64];
  std::memset(out, 0xAA, sizeof out);
  ASSERT_EQ(build_pfc(f, out), 60u);
  EXPECT_EQ(load_be16(out + 12), kEtherTypeVlan);
  EXPECT_EQ(out[14] >> 5, 7);
  EXPECT_EQ(load_be16(out + 16), kEtherTypeMacControl);
  const auto* body = reinterpret_cast<const PfcBody*>(out + 18);
  EXPECT_EQ(body->mac_control_opcode(), kMacControlPfc);
  EXPECT_EQ(body->vector(), 0x81);
  EXPECT_EQ(body->quanta(7), 0x1234);
  for (int i = 38; i < 60; ++i) EXPECT_EQ(out[i], 0) << i;
  EXPECT_EQ(out[60], 0xAA);  // nothing written past the frame
}

TEST(Headers, PfcPauseTime) {
  // Reference §3.1 table: 0xFFFF quanta at 100G = 335.5 us; one quantum at 25G = 20.48 ns.
  EXPECT_EQ(pfc_pause_ps(0xFFFF, 100'000'000'000ULL), 335'539'200ULL);
  EXPECT_EQ(pfc_pause_ps(1, 25'000'000'000ULL), 20'480ULL);
}

TEST(Headers, FrameSizeArithmetic) {
  // A full RDMA WRITE Middle at PMTU 1024: 14 + 20 + 8 + 12 + 1024 + 4 = 1082 bytes,
  // + 4 FCS + 20 preamble/gap = 1106 bytes on the wire (design.md "Time").
  EXPECT_EQ(roce_frame_length(false, 0, 1024), 1082u);
  EXPECT_EQ(roce_frame_length(true, 16, 1024), 1102u);
  EXPECT_EQ(roce_ip_length(4, 0), 48u);    // ACK
  EXPECT_EQ(roce_ip_length(16, 0), 60u);   // CNP (reference §2.2: IP length 60)
  EXPECT_EQ(roce_ip_length(0, 33), 80u);   // 33 + 3 pad
  EXPECT_EQ(required_ip_mtu(1024), 1088u);
  EXPECT_EQ(required_ip_mtu(4096), 4160u);
  for (uint32_t m : {256u, 512u, 1024u, 2048u, 4096u}) EXPECT_TRUE(path_mtu_valid(m));
  for (uint32_t m : {0u, 128u, 1000u, 1500u, 8192u}) EXPECT_FALSE(path_mtu_valid(m));
  EXPECT_EQ(path_mtu_for(1), 256u);
  EXPECT_EQ(path_mtu_for(256), 256u);
  EXPECT_EQ(path_mtu_for(257), 512u);
  EXPECT_EQ(path_mtu_for(2'048), 2'048u);
  EXPECT_EQ(path_mtu_for(4'096), 4'096u);
  EXPECT_EQ(pad_bytes(0), 0u);
  EXPECT_EQ(pad_bytes(1), 3u);
  EXPECT_EQ(pad_bytes(31), 1u);
}

}  // namespace
}  // namespace rtb::wire
