#include "wire/icrc_tables.h"

#include <array>
#include <cstddef>

#include "wire/icrc.h"
#include "wire/payload_pattern.h"

namespace rtb::wire {
namespace {

// One byte into a reflected CRC-32 register (the table-driven form of the LFSR):
// r' = (r >> 8) xor T[(r xor b) & 0xFF], with T = Z[1].
uint32_t step(const uint32_t* t, uint32_t r, uint8_t b) {
  return (r >> 8) ^ t[(r ^ b) & 0xFFu];
}

}  // namespace

IcrcTables::IcrcTables()
    : z_(std::size_t{kMaxBytes + 1} * 256), c_(kMaxBytes + 1), a_(kMaxPayload + 1) {
  // Z[1][v] = L(v) = f(v) xor f(0): CRCs of single bytes from rte_net_crc.
  const uint8_t zero = 0;
  const uint32_t c1 = crc32_eth(&zero, 1);
  for (uint32_t v = 0; v < 256; ++v) {
    const uint8_t b = static_cast<uint8_t>(v);
    z_[256 + v] = crc32_eth(&b, 1) ^ c1;
  }
  const uint32_t* t = &z_[256];
  // Z[d+1][v] = L(v || 0^d): one more zero byte into the register Z[d][v]. L is linear, so
  // a row is the XOR, over the set bits of v, of its eight single-bit entries: those eight
  // take a register step each, and the rest of the row is XORs that vectorise.
  for (uint32_t d = 1; d < kMaxBytes; ++d) {
    uint32_t* row = &z_[(d + 1) << 8];
    row[0] = 0;
    for (uint32_t bit = 1; bit < 256; bit <<= 1) {
      const uint32_t single = step(t, z_[(d << 8) | bit], 0);
      uint32_t* with_bit = row + bit;  // v | bit = bit + v for v < bit
      for (uint32_t v = 0; v < bit; ++v) with_bit[v] = row[v] ^ single;
    }
  }
  // c(n): the standard register (init 0xFFFFFFFF, final XOR) over n zero bytes.
  uint32_t r = 0xFFFFFFFFu;
  c_[0] = 0;
  for (uint32_t n = 1; n <= kMaxBytes; ++n) {
    r = step(t, r, 0);
    c_[n] = ~r;
  }
  // A[n] = L(pattern[0..n) || 0^pad(n)).
  uint32_t a = 0;
  for (uint32_t n = 0; n <= kMaxPayload; ++n) {
    uint32_t padded = a;
    for (uint32_t i = 0; i < ((4 - n % 4) % 4); ++i) padded = step(t, padded, 0);
    a_[n] = padded;
    a = step(t, a, payload_byte(n));
  }
}

const IcrcTables& IcrcTables::get() {
  static const IcrcTables tables;
  return tables;
}

uint32_t IcrcTables::linear(const uint8_t* p, uint32_t n) const {
  const uint32_t* t = &z_[256];
  uint32_t r = 0;
  for (uint32_t i = 0; i < n; ++i) r = step(t, r, p[i]);
  return r;
}

}  // namespace rtb::wire
