// The frames in $ROCETB_SHARED/captures parse as captures/README.md says, quirks included.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "pcap/capture_reader.h"
#include "tests/wire/test_util.h"
#include "wire/opcode.h"
#include "wire/parser.h"

namespace rtb::wire {
namespace {

std::vector<capture::CapturedFrame> frames(const std::string& name) {
  auto r = capture::read_all(test::shared_capture(name));
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
  return r.ok() ? std::move(r).value() : std::vector<capture::CapturedFrame>{};
}

ParseOptions checking(LinkType link = LinkType::Ethernet) {
  ParseOptions o;
  o.link = link;
  o.check_icrc = true;
  return o;
}

TEST(Captures, HiRoCEOpcodeCountsIcrcsAndReservedBitQuirk) {
  SKIP_WITHOUT_SHARED_CAPTURES();
  const auto fs = frames("oferby_proxy_roce.pcap");
  ASSERT_EQ(fs.size(), 123u);
  ParseCounters c;
  std::map<uint8_t, int> opcodes;
  int reserved_bit = 0, pad3 = 0, mig = 0, ect0 = 0;
  for (const auto& f : fs) {
    ParsedFrame p;
    ASSERT_EQ(parse_frame(f.bytes.data(), f.captured_len, checking(), p, c), ParseError::Ok);
    if (p.cls == FrameClass::Other) continue;
    ++opcodes[p.opcode];
    reserved_bit += f.bytes[p.l3_offset + 28 + 4] == 0x10;  // BTH byte 4
    pad3 += p.pad == 3;
    mig += p.mig_req;
    ect0 += p.ecn == Ecn::Ect0;
    EXPECT_FALSE(p.becn);
    EXPECT_FALSE(p.fecn);
  }
  // README: RC SEND First x33, SEND Last with Immediate x33, SEND Only with Immediate x2,
  // ACK x37; all ECT(0); 105/105 ICRCs valid (check_icrc is on); byte 4 = 0x10 on 68.
  EXPECT_EQ(opcodes[op::kSendFirst], 33);
  EXPECT_EQ(opcodes[op::kSendLastImm], 33);
  EXPECT_EQ(opcodes[op::kSendOnlyImm], 2);
  EXPECT_EQ(opcodes[op::kAcknowledge], 37);
  EXPECT_EQ(opcodes.size(), 4u);
  EXPECT_EQ(c[FrameClass::RoceData] + c[FrameClass::Ack] + c[FrameClass::Nak], 105u);
  EXPECT_EQ(c[FrameClass::Other], 18u);  // TCP, ARP, IPv6
  EXPECT_EQ(c.rejected(), 0u);
  EXPECT_EQ(reserved_bit, 68);
  EXPECT_EQ(mig, 105);
  EXPECT_EQ(ect0, 105);
  EXPECT_GT(pad3, 0);
}

TEST(Captures, ExternalVectors) {
  SKIP_WITHOUT_SHARED_CAPTURES();
  const auto fs = frames("external_roce_vectors.pcap");
  ASSERT_EQ(fs.size(), 3u);
  ParsedFrame p;
  ASSERT_EQ(parse_frame(fs[0].bytes.data(), fs[0].captured_len, checking(), p), ParseError::Ok);
  EXPECT_EQ(p.cls, FrameClass::Cnp);  // ConnectX-4 Lx CNP
  EXPECT_EQ(p.dscp, 48);
  EXPECT_EQ(p.ecn, Ecn::Ect0);
  EXPECT_EQ(p.udp_sport, 0);
  EXPECT_TRUE(p.becn);
  EXPECT_EQ(p.dest_qpn, 0x118u);
  EXPECT_EQ(p.icrc, 0x2A00FD82u);
  ASSERT_EQ(parse_frame(fs[1].bytes.data(), fs[1].captured_len, checking(), p), ParseError::Ok);
  EXPECT_EQ(p.cls, FrameClass::RoceData);  // RDMA READ Request with RETH
  EXPECT_EQ(p.opcode, op::kReadRequest);
  EXPECT_EQ(p.dest_qpn, 0x11u);
  EXPECT_EQ(p.psn, 5557091u);
  EXPECT_EQ(p.reth, (RethFields{0x00007fee260fb000ULL, 0x2b8, 65536}));
  EXPECT_EQ(p.payload_bytes, 0u);
  ASSERT_EQ(parse_frame(fs[2].bytes.data(), fs[2].captured_len, checking(), p), ParseError::Ok);
  EXPECT_EQ(p.opcode, op::kUc + op::kSendOnly);
  EXPECT_EQ(p.dest_qpn, 211u);
  EXPECT_EQ(p.pad, 2);
  EXPECT_EQ(p.payload_bytes, 18u);
  EXPECT_TRUE(p.mig_req);
  EXPECT_EQ(p.icrc, 0xF353F378u);
}

TEST(Captures, RawIpv4Cnp) {
  SKIP_WITHOUT_SHARED_CAPTURES();
  const auto fs = frames("external_mlx_article_cnp_rawip.pcap");
  ASSERT_EQ(fs.size(), 1u);
  EXPECT_EQ(fs[0].link, capture::LinkType::kRaw);
  ParsedFrame p;
  ASSERT_EQ(parse_frame(fs[0].bytes.data(), fs[0].captured_len, checking(LinkType::RawIpv4), p),
            ParseError::Ok);
  EXPECT_EQ(p.cls, FrameClass::Cnp);
  EXPECT_EQ(p.dest_qpn, 0xD2u);
  EXPECT_EQ(p.dscp, 0x89 >> 2);
  EXPECT_EQ(p.ecn, Ecn::Ect1);
  EXPECT_EQ(p.icrc, 0xEF1BFCDAu);  // wire bytes da fc 1b ef
}

TEST(Captures, ScapyReferenceTable) {
  SKIP_WITHOUT_SHARED_CAPTURES();
  const auto fs = frames("scapy_roce_reference.pcap");
  ASSERT_EQ(fs.size(), 5u);
  struct Row { uint16_t sport; uint8_t dscp; Ecn ecn; uint8_t opcode; uint32_t qpn, psn; bool a;
               uint32_t payload; FrameClass cls; };
  const Row rows[] = {
      {49152, 26, Ecn::Ect0, op::kSendOnly, 0x123, 100, true, 32, FrameClass::RoceData},
      {49152, 26, Ecn::Ect0, op::kWriteFirst, 0x123, 101, false, 256, FrameClass::RoceData},
      {49152, 26, Ecn::Ce, op::kWriteMiddle, 0x123, 102, false, 256, FrameClass::RoceData},
      {49152, 26, Ecn::Ect0, op::kAcknowledge, 0x456, 100, false, 0, FrameClass::Ack},
      {0, 48, Ecn::Ect0, op::kCnp, 0x456, 0, false, 0, FrameClass::Cnp},
  };
  for (size_t i = 0; i < 5; ++i) {
    ParsedFrame p;
    ASSERT_EQ(parse_frame(fs[i].bytes.data(), fs[i].captured_len, checking(), p), ParseError::Ok);
    const Row& r = rows[i];
    EXPECT_EQ(p.cls, r.cls) << i;
    EXPECT_EQ(p.udp_sport, r.sport) << i;
    EXPECT_EQ(p.dscp, r.dscp) << i;
    EXPECT_EQ(p.ecn, r.ecn) << i;
    EXPECT_EQ(p.opcode, r.opcode) << i;
    EXPECT_EQ(p.dest_qpn, r.qpn) << i;
    EXPECT_EQ(p.psn, r.psn) << i;
    EXPECT_EQ(p.ack_req, r.a) << i;
    EXPECT_EQ(p.payload_bytes, r.payload) << i;
  }
  ParsedFrame p;
  parse_frame(fs[1].bytes.data(), fs[1].captured_len, checking(), p);
  EXPECT_EQ(p.reth, (RethFields{0x00007f0000001000ULL, 0x00abcdef, 768}));
  parse_frame(fs[3].bytes.data(), fs[3].captured_len, checking(), p);
  EXPECT_EQ(p.aeth_syndrome, 0x1F);
  EXPECT_EQ(p.msn, 1u);
  parse_frame(fs[4].bytes.data(), fs[4].captured_len, checking(), p);
  EXPECT_TRUE(p.becn);
}

TEST(Captures, PfcXoffXon) {
  SKIP_WITHOUT_SHARED_CAPTURES();
  const auto fs = frames("pfc_reference.pcap");
  ASSERT_EQ(fs.size(), 2u);
  for (size_t i = 0; i < 2; ++i) {
    ParsedFrame p;
    ASSERT_EQ(parse_frame(fs[i].bytes.data(), fs[i].captured_len, ParseOptions{}, p), ParseError::Ok);
    EXPECT_EQ(p.cls, FrameClass::Pfc);
    EXPECT_EQ(p.pfc_vector, 0x08);
    EXPECT_EQ(p.src_mac, (MacAddr{{2, 0, 0, 0, 0, 2}}));
    for (int prio = 0; prio < 8; ++prio) {
      const uint16_t want = (prio == 3 && i == 0) ? 0xFFFF : 0;
      EXPECT_EQ(p.pfc_quanta[static_cast<size_t>(prio)], want) << i << " " << prio;
    }
  }
}

}  // namespace
}  // namespace rtb::wire
