// CRC-32/IEEE of a concatenation from the CRCs of its parts, as zlib's crc32_combine
// (zlib 1.2.12 crc32.c, multmodp and x2nmodp). CRC-32 is affine in the message, and
// appending n bytes to A multiplies A's CRC by x^(8n) modulo the polynomial P:
//
//   crc(A || B) = (crc(A) * x^(8 |B|) mod P) xor crc(B)
//
// for the standard CRC (initial register and final xor all ones), whatever A and B are.
// Polynomials are in the reflected form zlib and rte_net_crc use: bit 31 is x^0, bit 0
// is x^31, so 1 is 0x80000000 and x^8 is 0x00800000.
//
// x^(8n) is two look-ups in 256-entry tables built at compile time (n = 256 h + l:
// x^(8l) * x^(2048 h)), a product is one PCLMULQDQ carry-less multiply and a Barrett
// reduction of two more (Intel, "Fast CRC Computation for Generic Polynomials Using
// PCLMULQDQ Instruction", 2009, section 4), or zlib's bit loop where the CPU has no
// PCLMULQDQ. Neither depends on the CRC of B, so a caller that starts the shift before
// computing crc(B) overlaps the two.
#pragma once

#include <cstdint>

namespace rtb::wire {

// The longest B a combine accepts: an IPv4 packet is at most 65535 bytes.
inline constexpr uint32_t kCrc32MaxCombineBytes = 65535;

// a * b mod P, one bit of a at a time: zlib's multmodp, the reference.
constexpr uint32_t crc32_multiply_bitwise(uint32_t a, uint32_t b) {
  constexpr uint32_t kPoly = 0xEDB88320u;  // P reflected, without its x^32 term
  uint32_t p = 0;
  for (uint32_t m = 1u << 31; m != 0; m >>= 1) {
    if (a & m) p ^= b;
    b = (b >> 1) ^ (kPoly & (0u - (b & 1u)));
  }
  return p;
}

// True when the CPU has PCLMULQDQ (then crc32_multiply uses it).
bool crc32_multiply_has_clmul();

// a * b mod P with PCLMULQDQ. Only valid when crc32_multiply_has_clmul().
uint32_t crc32_multiply_clmul(uint32_t a, uint32_t b);

// a * b mod P, the fastest way this CPU has.
uint32_t crc32_multiply(uint32_t a, uint32_t b);

// x^(8n) mod P for n <= kCrc32MaxCombineBytes.
uint32_t crc32_x8n(uint32_t n);

// The CRC of A || B from crc(A), crc(B) and |B| = len2 <= kCrc32MaxCombineBytes.
inline uint32_t crc32_combine(uint32_t crc1, uint32_t crc2, uint32_t len2) {
  return crc32_multiply(crc1, crc32_x8n(len2)) ^ crc2;
}

}  // namespace rtb::wire
