#include "wire/icrc_in_place.h"

#include <array>
#include <cstdint>

#include "wire/crc32_combine.h"
#include "wire/icrc.h"

namespace rtb::wire {
namespace {

// The masked bytes lie within the first kMaxSpan bytes of the IPv4 header (IHL 15).
constexpr uint32_t kMaxSpan = icrc_masked_offsets(15 * 4).back() + 1;

// kShifted[k][v] = L(v || 0^k): the register after byte v and k zero bytes from a zero
// register, no final XOR. kShifted[0] is the classic byte table: byte v times x^8 mod P
// (crc32_combine.h's reflected form, in which x^8 is 0x00800000). 74 KB, of which a frame
// reads seven entries.
using Shifted = std::array<std::array<uint32_t, 256>, kMaxSpan>;
constexpr Shifted kShifted = [] {
  Shifted t{};
  for (uint32_t v = 0; v < 256; ++v) t[0][v] = crc32_multiply_bitwise(v, 0x00800000u);
  for (uint32_t k = 1; k < kMaxSpan; ++k) {
    for (uint32_t v = 0; v < 256; ++v) t[k][v] = (t[k - 1][v] >> 8) ^ t[0][t[k - 1][v] & 0xFFu];
  }
  return t;
}();
static_assert(kShifted[0][1] == 0x77073096u && kShifted[0][128] == 0xEDB88320u);  // zlib's table

// The standard CRC of the 8 x 0xFF that stand in for the LRH.
constexpr uint32_t kPrefixCrc = [] {
  uint32_t r = 0xFFFFFFFFu;
  for (uint32_t i = 0; i < kIcrcPrefixBytes; ++i) r = (r >> 8) ^ kShifted[0][(r ^ 0xFFu) & 0xFFu];
  return ~r;
}();

// x^(8n) mod P for the n this thread asked for last: a receiver's frames mostly share their
// length (a flow's full-MTU frames), so a check almost always asks again for the last one
// and skips a carry-less multiply in the chain that ends the check.
uint32_t shift_for(uint32_t n) {
  thread_local uint32_t last_n = UINT32_MAX;  // beyond kCrc32MaxCombineBytes: nothing yet
  thread_local uint32_t last_shift = 0;
  if (n != last_n) {
    last_shift = crc32_x8n(n);
    last_n = n;
  }
  return last_shift;
}

}  // namespace

uint32_t icrc_in_place(const uint8_t* ipv4, uint32_t covered) {
  const std::array<uint32_t, 7> masked = icrc_masked_offsets((ipv4[0] & 0x0Fu) * 4u);
  const uint32_t end = masked.back() + 1;  // just past the last masked byte
  // L(frame xor masked) over [0, end): each changed byte v followed by k bytes up to `end`
  // contributes L(v || 0^k).
  uint32_t fix = 0;
  for (const uint32_t at : masked) fix ^= kShifted[end - 1 - at][ipv4[at] ^ 0xFFu];
  // Shifted past the rest of the covered bytes, it turns the CRC of the frame as it is
  // into the CRC of the masked frame (CRC-32 is affine: f(M') = f(M) xor L(M xor M')).
  const uint32_t shift = shift_for(covered - end);
  return crc32_eth_continue(kPrefixCrc, ipv4, covered) ^ crc32_multiply(fix, shift);
}

}  // namespace rtb::wire
