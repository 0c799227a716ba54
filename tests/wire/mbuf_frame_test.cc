// The rte_mbuf wrapper on a real DPDK mempool (EAL without hugepages, no PCI).
#include <gtest/gtest.h>

#include <rte_eal.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>

#include "tests/wire/test_util.h"
#include "wire/icrc.h"
#include "wire/mbuf_frame.h"
#include "wire/opcode.h"
#include "wire/parser.h"

namespace rtb::wire {
namespace {

// A pktmbuf pool without IOVA-contiguous memory (no hugepages here), payload pattern
// written once per mbuf.
rte_mempool* make_pool(const char* name, unsigned n, uint16_t data_room) {
  rte_mempool* mp = rte_mempool_create_empty(name, n, sizeof(rte_mbuf) + data_room, 0,
                                             sizeof(rte_pktmbuf_pool_private), SOCKET_ID_ANY,
                                             RTE_MEMPOOL_F_NO_IOVA_CONTIG);
  if (mp == nullptr) return nullptr;
  rte_mempool_set_ops_byname(mp, "ring_mp_mc", nullptr);
  rte_pktmbuf_pool_private priv{};
  priv.mbuf_data_room_size = data_room;
  rte_pktmbuf_pool_init(mp, &priv);
  if (rte_mempool_populate_default(mp) < 0) return nullptr;
  rte_mempool_obj_iter(mp, rte_pktmbuf_init, nullptr);
  rte_mempool_obj_iter(mp, mbuf_payload_obj_init, nullptr);
  return mp;
}

ParseError parse_mbuf(rte_mbuf* m, ParsedFrame& p) {
  ParseOptions o;
  o.check_icrc = true;
  return parse_frame(rte_pktmbuf_mtod(m, const uint8_t*), rte_pktmbuf_data_len(m), o, p);
}

TEST(MbufFrame, RecycledMbufsKeepValidIcrcs) {
  rte_mempool* mp = make_pool("wire_data", 4, static_cast<uint16_t>(mbuf_data_room(1024)));
  ASSERT_NE(mp, nullptr);
  FlowSpec s = test::scapy_requester_spec();
  s.path_mtu = 1024;
  const auto t = FlowTemplate::make(s);
  ASSERT_TRUE(t.ok());
  // Lengths shrink and grow so each mbuf is reused over the tail its last frame dirtied.
  const uint32_t lens[] = {1, 1024, 5, 7, 1000, 2, 3, 1024, 0, 999, 1023, 4};
  uint32_t psn = 0;
  for (int round = 0; round < 20; ++round) {
    for (uint32_t len : lens) {
      rte_mbuf* m = rte_pktmbuf_alloc(mp);
      ASSERT_NE(m, nullptr);
      const uint8_t opc = len % 2 ? op::kWriteFirst : op::kSendMiddle;
      ASSERT_TRUE(build_data_mbuf(*t, DataFields{opc, psn++, len, false, false, Ecn::Ect0,
                                                 RethFields{9, 8, 7}, 0},
                                  m));
      ParsedFrame p;
      ASSERT_EQ(parse_mbuf(m, p), ParseError::Ok) << len;
      EXPECT_EQ(p.payload_bytes, len);
      EXPECT_EQ(rte_pktmbuf_pkt_len(m), rte_pktmbuf_data_len(m));
      EXPECT_EQ(rte_pktmbuf_mtod(m, uint8_t*) + p.payload_offset,
                static_cast<uint8_t*>(m->buf_addr) + kMbufPayloadOffset);
      rte_pktmbuf_free(m);
    }
  }
  rte_mbuf* m = rte_pktmbuf_alloc(mp);
  EXPECT_FALSE(build_data_mbuf(*t, DataFields{op::kSendOnly, 0, 2000, false, false, Ecn::Ect0, {}, 0}, m));
  rte_pktmbuf_free(m);
  EXPECT_EQ(rte_mempool_avail_count(mp), 4u);
  rte_mempool_free(mp);
}

TEST(MbufFrame, ControlFrames) {
  rte_mempool* mp = make_pool("wire_ctrl", 4, RTE_PKTMBUF_HEADROOM + 128);
  ASSERT_NE(mp, nullptr);
  const auto t = FlowTemplate::make(test::scapy_responder_spec());
  ParsedFrame p;
  rte_mbuf* m = rte_pktmbuf_alloc(mp);
  ASSERT_TRUE(build_ack_mbuf(*t, AckFields{3, aeth_nak(NakCode::PsnSequenceError), 4, Ecn::Ect0}, m));
  ASSERT_EQ(parse_mbuf(m, p), ParseError::Ok);
  EXPECT_EQ(p.cls, FrameClass::Nak);
  ASSERT_TRUE(build_cnp_mbuf(*t, CnpFields{}, m));
  ASSERT_EQ(parse_mbuf(m, p), ParseError::Ok);
  EXPECT_EQ(p.cls, FrameClass::Cnp);
  PfcFields pf;
  pf.vector = 1;
  pf.quanta[0] = 7;
  ASSERT_TRUE(build_pfc_mbuf(pf, m));
  EXPECT_EQ(rte_pktmbuf_data_len(m), 60u);
  ASSERT_EQ(parse_mbuf(m, p), ParseError::Ok);
  EXPECT_EQ(p.cls, FrameClass::Pfc);
  EXPECT_EQ(p.pfc_quanta[0], 7);
  rte_pktmbuf_free(m);
  rte_mempool_free(mp);
}

}  // namespace
}  // namespace rtb::wire

namespace rtb::wire {
namespace {

// With EAL up, the SSE4.2/PCLMULQDQ CRC path: the same values as the scalar path (the
// CRC-32 check value, and builder ICRCs against the bit-by-bit definition).
uint32_t crc32_bitwise(const uint8_t* p, uint32_t n) {
  uint32_t crc = 0xFFFFFFFFu;
  for (uint32_t i = 0; i < n; ++i) {
    crc ^= p[i];
    for (int b = 0; b < 8; ++b) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
  }
  return ~crc;
}

TEST(FastCrc, VectorPathAgreesWithTheDefinition) {
  use_fast_crc();
  const uint8_t check[] = {'1', '2', '3', '4', '5', '6', '7', '8', '9'};
  EXPECT_EQ(crc32_eth(check, 9), 0xCBF43926u);
  std::vector<uint8_t> buf(4200);
  uint64_t x = 42;
  for (uint8_t& b : buf) b = static_cast<uint8_t>((x = x * 6364136223846793005ULL + 1) >> 56);
  for (uint32_t n : {0u, 1u, 15u, 16u, 17u, 63u, 64u, 1082u, 4200u}) {
    EXPECT_EQ(crc32_eth(buf.data(), n), crc32_bitwise(buf.data(), n)) << n;
  }
}

}  // namespace
}  // namespace rtb::wire

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  const char* eal_args[] = {"wire_mbuf_test", "--no-huge", "-m", "256", "--no-pci",
                            "--no-shconf", "-l", "0", "--log-level", "lib.eal:error"};
  if (rte_eal_init(static_cast<int>(std::size(eal_args)), const_cast<char**>(eal_args)) < 0) {
    std::fprintf(stderr, "rte_eal_init failed\n");
    return 1;
  }
  const int rc = RUN_ALL_TESTS();
  rte_eal_cleanup();
  return rc;
}
