// crc32_combine: the GF(2) products (PCLMULQDQ against zlib's bit loop), the x^(8n)
// tables, and the CRC of a concatenation against rte_net_crc over the whole message; the
// CRC path leaves no 256- or 512-bit register state for the SSE code after it.
#include <gtest/gtest.h>

#include <vector>

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>
#endif

#include "core/rng.h"
#include "wire/crc32_combine.h"
#include "wire/crc_path.h"
#include "wire/icrc.h"

namespace rtb::wire {
namespace {

constexpr uint32_t kOne = 1u << 31;  // x^0, reflected
constexpr uint32_t kX8 = kOne >> 8;

std::vector<uint8_t> random_bytes(Rng& rng, uint32_t n) {
  std::vector<uint8_t> v(n);
  for (auto& b : v) b = static_cast<uint8_t>(rng.next_u64());
  return v;
}

TEST(Crc32Combine, BitwiseProductIdentities) {
  EXPECT_EQ(crc32_multiply_bitwise(kOne, 0x12345678u), 0x12345678u);
  EXPECT_EQ(crc32_multiply_bitwise(0x12345678u, kOne), 0x12345678u);
  EXPECT_EQ(crc32_multiply_bitwise(0, 0xFFFFFFFFu), 0u);
  // x^31 * x = x^32 = P's lower terms (0x04C11DB7, reflected 0xEDB88320).
  EXPECT_EQ(crc32_multiply_bitwise(1u, kOne >> 1), 0xEDB88320u);
  Rng rng(11, 12);
  for (int i = 0; i < 1000; ++i) {
    const auto a = static_cast<uint32_t>(rng.next_u64());
    const auto b = static_cast<uint32_t>(rng.next_u64());
    const auto c = static_cast<uint32_t>(rng.next_u64());
    ASSERT_EQ(crc32_multiply_bitwise(a, b), crc32_multiply_bitwise(b, a));
    ASSERT_EQ(crc32_multiply_bitwise(a, b ^ c),
              crc32_multiply_bitwise(a, b) ^ crc32_multiply_bitwise(a, c));
  }
}

TEST(Crc32Combine, ClmulProductEqualsBitwise) {
  if (!crc32_multiply_has_clmul()) GTEST_SKIP() << "no PCLMULQDQ on this CPU";
  const uint32_t edges[] = {0u, 1u, kOne, kX8, 0xFFFFFFFFu, 0xEDB88320u, 0x80000001u, 0x7FFFFFFFu};
  for (uint32_t a : edges) {
    for (uint32_t b : edges) ASSERT_EQ(crc32_multiply_clmul(a, b), crc32_multiply_bitwise(a, b));
  }
  Rng rng(13, 14);
  for (int i = 0; i < 1'000'000; ++i) {
    const auto a = static_cast<uint32_t>(rng.next_u64());
    const auto b = static_cast<uint32_t>(rng.next_u64());
    ASSERT_EQ(crc32_multiply_clmul(a, b), crc32_multiply_bitwise(a, b)) << a << " " << b;
  }
}

TEST(Crc32Combine, PowersOfXForEveryLength) {
  uint32_t x8n = kOne;
  for (uint32_t n = 0; n <= kCrc32MaxCombineBytes; ++n) {
    ASSERT_EQ(crc32_x8n(n), x8n) << n;
    x8n = crc32_multiply_bitwise(x8n, kX8);
  }
}

TEST(Crc32Combine, EqualsTheCrcOfTheConcatenation) {
  Rng rng(15, 16);
  const std::vector<uint8_t> m = random_bytes(rng, 2 * kCrc32MaxCombineBytes);
  const uint32_t lengths[] = {0u, 1u, 3u, 4u, 15u, 16u, 17u, 1036u, kCrc32MaxCombineBytes};
  for (uint32_t a : lengths) {
    for (uint32_t b : lengths) {
      ASSERT_EQ(crc32_combine(crc32_eth(m.data(), a), crc32_eth(m.data() + a, b), b),
                crc32_eth(m.data(), a + b)) << a << " + " << b;
    }
  }
  for (int i = 0; i < 300; ++i) {
    const auto a = static_cast<uint32_t>(rng.uniform_int(200));
    const auto b = static_cast<uint32_t>(rng.uniform_int(9001));
    ASSERT_EQ(crc32_combine(crc32_eth(m.data(), a), crc32_eth(m.data() + a, b), b),
              crc32_eth(m.data(), a + b)) << a << " + " << b;
  }
}

#if defined(__x86_64__)
// XINUSE (XGETBV with ECX = 1; Intel SDM Vol. 1, 13.6): bit 2 is the upper halves of
// YMM0-15, bit 6 those of ZMM0-15. Either in use makes the next legacy-SSE instruction pay
// the AVX-SSE transition penalty on Intel cores.
bool xinuse_readable() {
  unsigned a, b, c, d;
  if (__get_cpuid(1, &a, &b, &c, &d) == 0 || (c & bit_OSXSAVE) == 0 || (c & bit_AVX) == 0) return false;
  return __get_cpuid_count(0xD, 1, &a, &b, &c, &d) != 0 && (a & (1u << 2)) != 0;
}
__attribute__((target("xsave"))) uint64_t wide_state_in_use() { return _xgetbv(1) & ((1u << 2) | (1u << 6)); }
__attribute__((target("avx"))) void zero_upper() { _mm256_zeroupper(); }

TEST(CrcPath, LeavesNoWideRegisterStateForTheSseCodeAfterIt) {
  if (!xinuse_readable()) GTEST_SKIP() << "this CPU has no AVX or does not report XINUSE";
  zero_upper();
  if (wide_state_in_use() != 0) GTEST_SKIP() << "this CPU does not report VZEROUPPER's clean state";
  ASSERT_EQ(set_fastest_crc_path(), CrcPath::Isal);
  const std::vector<uint8_t> m(4096, 0x5a);
  for (uint32_t n : {64u, 1036u, 4096u}) {
    (void)crc32_eth(m.data(), n);
    EXPECT_EQ(wide_state_in_use(), 0u) << "after the CRC of " << n << " bytes";
    (void)crc32_eth_continue(0x1234'5678, m.data(), n);
    EXPECT_EQ(wide_state_in_use(), 0u) << "after continuing a CRC over " << n << " bytes";
    zero_upper();
  }
}
#endif

}  // namespace
}  // namespace rtb::wire
