// Tables that give a frame its ICRC without a CRC pass over its payload or header.
//
// CRC-32 is affine over GF(2): for messages of one length n,
//   f(M) = L(M) xor c(n)
// where L is the CRC with a zero initial register and no final XOR (linear in M) and
// c(n) = f(0^n), the CRC of n zero bytes. Hence, for equal-length M and M':
//   f(M') = f(M) xor L(M xor M')
// and L of a message that is zero except byte v at distance d from the end is
//   Z[d][v] = L(v || 0^(d-1)).
// A register r = L(M) followed by k >= 0 more zero bytes is, because the next four
// input bytes are XORed into the register's four bytes (little-endian, reflected CRC),
//   L(M[0..m-4) || w || 0^k) = xor_j Z[k+4-j][w_j xor r'_j],  r' = L(M[0..m-4)).
// All three tables are derived from rte_net_crc itself (T = Z[1] comes from CRCs of
// single bytes), so they agree with the full computation by construction; the tests
// prove it over many random frames and every length.
#pragma once

#include <cstdint>
#include <vector>

#include "core/huge_page_allocator.h"

namespace rtb::wire {

class IcrcTables {
 public:
  // Longest message (from the 8-byte prefix up to the ICRC) the tables cover: the
  // biggest frame the builders write (path MTU 4096) plus room for extended headers.
  static constexpr uint32_t kMaxBytes = 4096 + 128;
  // Longest payload with a precomputed pattern CRC.
  static constexpr uint32_t kMaxPayload = 4096;

  // The process-wide tables, built on first use (about 4.4 MB, a few milliseconds: page
  // faults were most of it, hence huge pages).
  // Thread-safe; call once at start-up so the first frame does not pay for it.
  static const IcrcTables& get();

  // Z[d][v] = L(v || 0^(d-1)), 1 <= d <= kMaxBytes.
  uint32_t z(uint32_t d, uint8_t v) const { return z_[(d << 8) | v]; }
  // c(n) = f(0^n) = CRC-32 of n zero bytes, 0 <= n <= kMaxBytes.
  uint32_t zeros_crc(uint32_t n) const { return c_[n]; }
  // L(pattern[0..n) || 0^pad(n)): the payload of n bytes followed by its 0-3 zero pad
  // bytes (pad(n) = -n mod 4), 0 <= n <= kMaxPayload.
  uint32_t padded_pattern_linear(uint32_t n) const { return a_[n]; }

  // L(M || 0^k) from the register state after M[0..m-4) and M's last four bytes `w`
  // (little-endian in a uint32). k + 4 <= kMaxBytes.
  uint32_t extend_zeros(uint32_t r, uint32_t w, uint32_t k) const {
    const uint32_t x = r ^ w;
    return z(k + 4, static_cast<uint8_t>(x)) ^ z(k + 3, static_cast<uint8_t>(x >> 8)) ^
           z(k + 2, static_cast<uint8_t>(x >> 16)) ^ z(k + 1, static_cast<uint8_t>(x >> 24));
  }

  // f(M') for M' = M with one byte changed by XOR `delta` at distance d from the end
  // (d = 1: the last byte). The building block of every incremental update.
  uint32_t patch(uint32_t crc, uint32_t d, uint8_t delta) const { return crc ^ z(d, delta); }

  // L of arbitrary bytes (register starting at 0), one table step per byte. Used to set
  // up templates, never per frame.
  uint32_t linear(const uint8_t* p, uint32_t n) const;

 private:
  IcrcTables();
  std::vector<uint32_t, HugePageAllocator<uint32_t>> z_;  // 4.3 MB: one fault per 2 MiB
  std::vector<uint32_t> c_;
  std::vector<uint32_t> a_;
};

}  // namespace rtb::wire
