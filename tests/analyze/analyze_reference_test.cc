// `rocetb analyze` on every capture in $ROCETB_SHARED/captures gives the counts that
// folder's README lists (opcode mix, CNPs, CE, PFC, QPs, ICRC validity). The same counts
// are checked against tshark by analyze_tshark_check.py.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include "analyze/analyze_capture.h"
#include "capture_test_util.h"
#include "wire/opcode.h"

namespace rtb::analyze {
namespace {

std::string ref(const std::string& name) {
  return capture::testing::shared_captures_dir() + "/" + name;
}

CaptureAnalysis analyze_ref(const std::string& name) {
  auto got = analyze_capture(ref(name), AnalyzeOptions{});
  EXPECT_TRUE(got) << got.error().message;
  if (!got) std::abort();
  EXPECT_FALSE(got.value().error) << *got.value().error;
  return std::move(got).value();
}

const QpStats& find_qp(const CaptureAnalysis& a, uint32_t qpn) {
  for (const auto& [k, q] : a.analyzer.qps()) {
    if (k.dest_qpn == qpn) return *q;
  }
  ADD_FAILURE() << "no QP " << qpn;
  std::abort();
}

TEST(AnalyzeReference, EveryFileInTheFolderIsCovered) {
  SKIP_WITHOUT_SHARED_CAPTURES();
  const std::set<std::string> covered = {
      "oferby_proxy_roce.pcap", "external_roce_vectors.pcap",
      "external_mlx_article_cnp_rawip.pcap", "scapy_roce_reference.pcap", "pfc_reference.pcap"};
  for (const auto& e : std::filesystem::directory_iterator(capture::testing::shared_captures_dir())) {
    const auto ext = e.path().extension();
    if (ext != ".pcap" && ext != ".pcapng") continue;
    EXPECT_TRUE(covered.count(e.path().filename().string())) << e.path() << " has no test here";
  }
}

// README: 123 frames, 105 RoCEv2: SEND First x33, SEND Last with Immediate x33, SEND Only
// with Immediate x2, ACK x37; all ECT(0); no CNP, no CE, no PFC; 105/105 ICRCs valid; BTH
// byte 4 = 0x10 on 68 packets (must be ignored); UDP source ports 69 and 72 (two QPs).
TEST(AnalyzeReference, HardwareHiRoce) {
  SKIP_WITHOUT_SHARED_CAPTURES();
  const CaptureAnalysis a = analyze_ref("oferby_proxy_roce.pcap");
  const Totals& t = a.analyzer.totals();
  EXPECT_EQ(t.frames, 123u);
  EXPECT_EQ(t.roce, 105u);
  EXPECT_EQ(t.other, 18u);
  EXPECT_EQ(t.malformed, 0u);
  EXPECT_EQ(t.opcodes[wire::op::kSendFirst], 33u);
  EXPECT_EQ(t.opcodes[wire::op::kSendLastImm], 33u);
  EXPECT_EQ(t.opcodes[wire::op::kSendOnlyImm], 2u);
  EXPECT_EQ(t.opcodes[wire::op::kAcknowledge], 37u);
  EXPECT_EQ(t.ce, 0u);
  EXPECT_EQ(t.cnps, 0u);
  EXPECT_EQ(t.pfc, 0u);
  EXPECT_EQ(t.icrc_valid, 105u);
  EXPECT_EQ(t.icrc_invalid, 0u);
  EXPECT_EQ(a.analyzer.qps().size(), 2u);
  // 33 First/Last pairs and 2 Only messages; the data stream has no PSN gap.
  uint64_t messages = 0, gaps = 0, acks = 0;
  for (const auto& [k, q] : a.analyzer.qps()) {
    messages += q->messages.completion().count;
    gaps += q->psn.gaps();
    acks += q->acks;
  }
  EXPECT_EQ(messages, 35u);
  EXPECT_EQ(gaps, 0u);
  EXPECT_EQ(acks, 37u);
}

// README: a ConnectX-4 Lx CNP (DestQP 0x118, UDP sport 0), an RC RDMA READ Request with
// RETH, a UC SEND Only; every ICRC valid.
TEST(AnalyzeReference, PublishedVectors) {
  SKIP_WITHOUT_SHARED_CAPTURES();
  const CaptureAnalysis a = analyze_ref("external_roce_vectors.pcap");
  const Totals& t = a.analyzer.totals();
  EXPECT_EQ(t.roce, 3u);
  EXPECT_EQ(t.opcodes[wire::op::kCnp], 1u);
  EXPECT_EQ(t.opcodes[wire::op::kReadRequest], 1u);
  EXPECT_EQ(t.opcodes[wire::op::kUc | wire::op::kSendOnly], 1u);
  EXPECT_EQ(t.cnps, 1u);
  EXPECT_EQ(t.icrc_valid, 3u);
  EXPECT_EQ(a.analyzer.qps().size(), 3u);
  EXPECT_EQ(find_qp(a, 0x118).cnps, 1u);
}

// README: one CNP as raw IPv4 (link type 101), DestQP 0xd2, tos 0x89, ICRC valid.
TEST(AnalyzeReference, RawIpCnp) {
  SKIP_WITHOUT_SHARED_CAPTURES();
  const CaptureAnalysis a = analyze_ref("external_mlx_article_cnp_rawip.pcap");
  const Totals& t = a.analyzer.totals();
  EXPECT_EQ(a.analyzer.link(), capture::LinkType::kRaw);
  EXPECT_EQ(t.cnps, 1u);
  EXPECT_EQ(t.icrc_valid, 1u);
  EXPECT_EQ(find_qp(a, 0xd2).cnps, 1u);
  EXPECT_EQ(t.ce, 0u);  // tos 0x89: ECN 01, ECT(1)
}

// README §3: SEND Only, WRITE First, WRITE Middle (CE), ACK, CNP to the requester's QP
// 0x456, 10 us apart; every ICRC valid.
TEST(AnalyzeReference, ScapyReference) {
  SKIP_WITHOUT_SHARED_CAPTURES();
  const CaptureAnalysis a = analyze_ref("scapy_roce_reference.pcap");
  const Totals& t = a.analyzer.totals();
  EXPECT_EQ(t.roce, 5u);
  EXPECT_EQ(t.ce, 1u);
  EXPECT_EQ(t.cnps, 1u);
  EXPECT_EQ(t.icrc_valid, 5u);
  ASSERT_EQ(a.analyzer.qps().size(), 2u);
  const QpStats& data = find_qp(a, 0x123);
  EXPECT_EQ(data.frames, 3u);
  EXPECT_EQ(data.ce, 1u);
  EXPECT_EQ(data.wire_bytes, 90u + 330u + 314u);
  EXPECT_EQ(data.payload_bytes, 32u + 256u + 256u);
  EXPECT_EQ(data.psn.gaps(), 0u);  // PSNs 100, 101, 102
  // The CE-marked frame 3 (t = 20 us) is answered by the CNP (frame 5, t = 40 us).
  ASSERT_EQ(data.ce_to_cnp.count, 1u);
  EXPECT_EQ(data.ce_to_cnp.min, Time::us(20));
  EXPECT_EQ(data.messages.completion().count, 1u);  // the SEND Only; the WRITE is open
  EXPECT_EQ(data.messages.incomplete(), 1u);
  const QpStats& req = find_qp(a, 0x456);
  EXPECT_EQ(req.cnps, 1u);
  EXPECT_EQ(req.acks, 1u);
}

// README §4: XOFF priority 3 with 65535 quanta, then XON (1 ms later).
TEST(AnalyzeReference, PfcXoffXon) {
  SKIP_WITHOUT_SHARED_CAPTURES();
  const CaptureAnalysis a = analyze_ref("pfc_reference.pcap");
  EXPECT_EQ(a.analyzer.totals().pfc, 2u);
  const PriorityStats& p3 = a.analyzer.pfc().priorities()[3];
  EXPECT_EQ(p3.frames, 2u);
  EXPECT_EQ(p3.xoff, 1u);
  EXPECT_EQ(p3.xon, 1u);
  // 65535 x 512 bit times at 100 Gb/s = 335.53920 us; the XON comes after it ran out.
  EXPECT_EQ(p3.requested, Time::ps(335'539'200));
  EXPECT_EQ(p3.paused, Time::ps(335'539'200));
  for (size_t p = 0; p < 8; ++p) {
    if (p != 3) {
      EXPECT_EQ(a.analyzer.pfc().priorities()[p].frames, 0u);
    }
  }
  ASSERT_EQ(a.analyzer.pfc().events().size(), 2u);
  EXPECT_EQ(a.analyzer.pfc().events()[1].ts, Time::ms(1));
}

TEST(AnalyzeReference, LinkRateScalesPauseTime) {
  SKIP_WITHOUT_SHARED_CAPTURES();
  auto a = analyze_capture(ref("pfc_reference.pcap"), AnalyzeOptions{Rate::gbps(25), Time::us(100)});
  ASSERT_TRUE(a);
  EXPECT_EQ(a.value().analyzer.pfc().priorities()[3].requested, Time::ps(335'539'200) * 4);
}

}  // namespace
}  // namespace rtb::analyze
