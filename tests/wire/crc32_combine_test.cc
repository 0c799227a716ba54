// crc32_combine: the GF(2) products (PCLMULQDQ against zlib's bit loop), the x^(8n)
// tables, and the CRC of a concatenation against rte_net_crc over the whole message.
#include <gtest/gtest.h>

#include <vector>

#include "core/rng.h"
#include "wire/crc32_combine.h"
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

}  // namespace
}  // namespace rtb::wire
