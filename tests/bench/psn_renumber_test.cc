// PsnRenumber gives each QP's frames consecutive PSNs and patches the ICRC for them: the
// parser's full ICRC check (wire/icrc_in_place.h, an independent computation over the
// whole frame) accepts every renumbered frame, a frame whose ICRC was wrong stays wrong,
// and frames of other QPs or protocols pass unchanged.
#include "bench/psn_renumber.h"

#include <rte_mbuf.h>

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "bench/source_capture.h"
#include "wire/flow_template.h"
#include "wire/frame_samples.h"
#include "wire/frame_size.h"
#include "wire/opcode.h"
#include "wire/parser.h"
#include "wire/payload_pattern.h"

namespace rtb::bench {
namespace {

class Renumber : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    pool_ = rte_pktmbuf_pool_create("renumber_test", 63, 0, 0, RTE_PKTMBUF_HEADROOM + 2'048, SOCKET_ID_ANY);
    ASSERT_NE(pool_, nullptr);
  }
  static void TearDownTestSuite() { rte_mempool_free(pool_); }

  // A WRITE MIDDLE frame of QP `qp` (destination QPN kSourceFirstQpn + qp) with `psn`.
  rte_mbuf* frame(uint32_t qp, uint32_t psn) {
    wire::FlowSpec spec = wire::sample_requester_spec();
    spec.dst_qpn = kSourceFirstQpn + qp;
    auto t = wire::FlowTemplate::make(spec);
    EXPECT_TRUE(t.ok());
    std::vector<uint8_t> buf(wire::kMaxHeaderBytes + 1'024 + 64);
    uint8_t* body = buf.data() + wire::kMaxHeaderBytes;
    wire::write_payload_pattern(body, 1'024 + 64);
    const wire::DataFields f{wire::op::kWriteMiddle, psn, 1'024, false, false, wire::Ecn::Ect0, {}, 0};
    const wire::FrameSpan s = t->build_data(f, body);
    rte_mbuf* m = rte_pktmbuf_alloc(pool_);
    std::memcpy(rte_pktmbuf_append(m, static_cast<uint16_t>(s.len)), s.data, s.len);
    return m;
  }

  static wire::ParseError parse(rte_mbuf* m, wire::ParsedFrame& out) {
    wire::ParseOptions opt;
    opt.check_icrc = true;
    return wire::parse_frame(rte_pktmbuf_mtod(m, const uint8_t*), rte_pktmbuf_data_len(m), opt, out);
  }

  static rte_mempool* pool_;
};
rte_mempool* Renumber::pool_ = nullptr;

TEST_F(Renumber, EachQpsFramesGetConsecutivePsnsWithAValidIcrc) {
  PsnRenumber r(kSourceFirstQpn, 3);
  // A capture replayed twice: QP 0 and 2 from PSN 5, QP 1 near the 24-bit wrap.
  const std::vector<std::pair<uint32_t, uint32_t>> capture = {{0, 5}, {1, 0xFF'FFFE}, {2, 5}, {1, 0xFF'FFFF}};
  std::vector<uint32_t> expected(3, 0);
  for (int pass = 0; pass < 2; ++pass) {
    for (const auto& [qp, psn] : capture) {
      rte_mbuf* m = frame(qp, psn);
      EXPECT_TRUE(r.rewrite(m));
      wire::ParsedFrame f;
      EXPECT_EQ(parse(m, f), wire::ParseError::Ok);
      EXPECT_EQ(f.dest_qpn, kSourceFirstQpn + qp);
      EXPECT_EQ(f.psn, expected[qp]++);
      rte_pktmbuf_free(m);
    }
  }
  EXPECT_EQ(r.rewritten(), 8u);
  EXPECT_EQ(r.passed(), 0u);
}

TEST_F(Renumber, AFrameWithAWrongIcrcKeepsAWrongIcrc) {
  PsnRenumber r(kSourceFirstQpn, 1);
  rte_mbuf* m = frame(0, 77);
  rte_pktmbuf_mtod(m, uint8_t*)[rte_pktmbuf_data_len(m) - 10] ^= 0x01;  // a payload bit
  EXPECT_TRUE(r.rewrite(m));
  wire::ParsedFrame f;
  EXPECT_EQ(parse(m, f), wire::ParseError::BadIcrc);
  rte_pktmbuf_free(m);
}

TEST_F(Renumber, FramesOfOtherQpsAndNonRoceFramesPassUnchanged) {
  PsnRenumber r(kSourceFirstQpn, 2);
  rte_mbuf* other_qp = frame(2, 9);
  const std::vector<uint8_t> before(rte_pktmbuf_mtod(other_qp, uint8_t*),
                                    rte_pktmbuf_mtod(other_qp, uint8_t*) + rte_pktmbuf_data_len(other_qp));
  EXPECT_FALSE(r.rewrite(other_qp));
  EXPECT_EQ(std::memcmp(before.data(), rte_pktmbuf_mtod(other_qp, uint8_t*), before.size()), 0);
  rte_mbuf* not_udp = frame(0, 9);
  rte_pktmbuf_mtod(not_udp, uint8_t*)[14 + 9] = 6;  // IPv4 protocol TCP
  EXPECT_FALSE(r.rewrite(not_udp));
  rte_mbuf* runt = frame(0, 9);
  rte_pktmbuf_trim(runt, static_cast<uint16_t>(rte_pktmbuf_data_len(runt) - 40));
  EXPECT_FALSE(r.rewrite(runt));
  EXPECT_EQ(r.passed(), 3u);
  for (rte_mbuf* m : {other_qp, not_udp, runt}) rte_pktmbuf_free(m);
}

}  // namespace
}  // namespace rtb::bench
