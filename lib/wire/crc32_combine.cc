#include "wire/crc32_combine.h"

#include <array>
#include <cassert>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace rtb::wire {
namespace {

constexpr uint32_t kOne = 1u << 31;        // x^0
constexpr uint32_t kX8 = kOne >> 8;        // x^8

// kLow[l] = x^(8l), kHigh[h] = x^(2048h): x^(8n) = kLow[n % 256] * kHigh[n / 256].
using PowerTable = std::array<uint32_t, 256>;

constexpr PowerTable powers(uint32_t step) {
  PowerTable t{};
  t[0] = kOne;
  for (size_t i = 1; i < t.size(); ++i) t[i] = crc32_multiply_bitwise(t[i - 1], step);
  return t;
}

constexpr PowerTable kLow = powers(kX8);
constexpr PowerTable kHigh = powers(crc32_multiply_bitwise(kLow[255], kX8));
static_assert(kLow[4] == 0xEDB88320u);  // x^32 mod P: P's terms below x^32, reflected
static_assert((kCrc32MaxCombineBytes >> 8) < kHigh.size());

#if defined(__x86_64__)
bool detect_clmul() {
  __builtin_cpu_init();  // this runs from a static initialiser
  return __builtin_cpu_supports("pclmul") != 0;
}
// A static initialiser that multiplies before this one runs sees false: the bit loop, also exact.
const bool g_has_clmul = detect_clmul();
#else
const bool g_has_clmul = false;
#endif

}  // namespace

bool crc32_multiply_has_clmul() { return g_has_clmul; }

#if defined(__x86_64__)
// Reflected operands: the 64-bit carry-less product of two 32-bit values has x^k at bit
// 62 - k, so one shift puts x^k at bit 63 - k. Barrett with the reflected constants
// u' = floor(x^64 / P) = 0x1F7011641 and P' = 0x1DB710641 (the ones of Linux
// arch/x86/crypto/crc32-pclmul_asm.S): the low 32 bits hold the terms of degree 32..63,
// q = low32(R) * u' estimates the quotient, R xor low32(q) * P' has only terms of degree
// below 32, which are its high 32 bits.
__attribute__((target("pclmul"))) uint32_t crc32_multiply_clmul(uint32_t a, uint32_t b) {
  const __m128i u = _mm_cvtsi64_si128(0x1F7011641ll);
  const __m128i p = _mm_cvtsi64_si128(0x1DB710641ll);
  const __m128i prod = _mm_clmulepi64_si128(_mm_cvtsi32_si128(static_cast<int>(a)),
                                            _mm_cvtsi32_si128(static_cast<int>(b)), 0x00);
  const uint64_t r = static_cast<uint64_t>(_mm_cvtsi128_si64(prod)) << 1;
  const __m128i low = _mm_cvtsi32_si128(static_cast<int>(static_cast<uint32_t>(r)));
  const __m128i q = _mm_clmulepi64_si128(low, u, 0x00);
  const __m128i q_low = _mm_cvtsi32_si128(_mm_cvtsi128_si32(q));
  const uint64_t t = static_cast<uint64_t>(_mm_cvtsi128_si64(_mm_clmulepi64_si128(q_low, p, 0x00)));
  return static_cast<uint32_t>((r ^ t) >> 32);
}
#else
uint32_t crc32_multiply_clmul(uint32_t a, uint32_t b) { return crc32_multiply_bitwise(a, b); }
#endif

uint32_t crc32_multiply(uint32_t a, uint32_t b) {
  return g_has_clmul ? crc32_multiply_clmul(a, b) : crc32_multiply_bitwise(a, b);
}

uint32_t crc32_x8n(uint32_t n) {
  assert(n <= kCrc32MaxCombineBytes);
  return crc32_multiply(kLow[n & 0xFFu], kHigh[n >> 8]);
}

}  // namespace rtb::wire
