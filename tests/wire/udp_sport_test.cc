// UDP source port from the QP pair, as Linux rdma_get_udp_sport does (reference §2.5).
#include <gtest/gtest.h>

#include "core/rng.h"
#include "wire/udp.h"

namespace rtb::wire {
namespace {

TEST(UdpSport, HandComputedValues) {
  // 0x456 * 0x123 = 1110 * 291 = 323010 = 0x4EDC2 (< 2^20, so the shifts change nothing)
  // fl = 0x4EDC2; fl & 0x3FFF = 0x2DC2; (fl & 0xFC000) >> 14 = 0x13;
  // 0x2DC2 ^ 0x13 = 0x2DD1; | 0xC000 = 0xEDD1.
  EXPECT_EQ(roce_flow_label(0x456, 0x123), 0x4EDC2u);
  EXPECT_EQ(roce_udp_sport(0x456, 0x123), 0xEDD1);
  // 1 * 1 = 1: fl = 1, sport = 0xC001.
  EXPECT_EQ(roce_udp_sport(1, 1), 0xC001);
  // Any product 0: fl = 0, sport = 0xC000.
  EXPECT_EQ(roce_udp_sport(0, 7), 0xC000);
  // 0x100000 * 1 = 2^20: v ^= v >> 20 gives 0x100001; fl = 0x00001; sport 0xC001.
  EXPECT_EQ(roce_flow_label(0x100000, 1), 0x1u);
  EXPECT_EQ(roce_udp_sport(0x100000, 1), 0xC001);
  // 0x4000 * 1: fl = 0x4000; low 14 bits 0, (0x4000 >> 14) = 1; sport = 0xC001.
  EXPECT_EQ(roce_udp_sport(0x4000, 1), 0xC001);
}

TEST(UdpSport, SymmetricAndInRange) {
  Rng rng(7, 1);
  for (int i = 0; i < 100000; ++i) {
    const auto a = static_cast<uint32_t>(rng.next_u64() & 0xFFFFFF);
    const auto b = static_cast<uint32_t>(rng.next_u64() & 0xFFFFFF);
    const uint16_t s = roce_udp_sport(a, b);
    ASSERT_EQ(s, roce_udp_sport(b, a));
    ASSERT_GE(s, 0xC000);
    ASSERT_LE(roce_flow_label(a, b), 0xFFFFFu);
  }
}

TEST(UdpSport, SpreadsOverTheRange) {
  // Entropy for ECMP: consecutive QPNs toward one peer land on many distinct ports.
  bool seen[0x4000] = {};
  int distinct = 0;
  for (uint32_t q = 0x100; q < 0x100 + 4096; ++q) {
    const uint16_t s = roce_udp_sport(q, 0x123);
    if (!seen[s - 0xC000]) ++distinct;
    seen[s - 0xC000] = true;
  }
  EXPECT_GT(distinct, 3000);
}

}  // namespace
}  // namespace rtb::wire
