#include "wire/icrc.h"

#include <array>
#include <cstring>

#include "wire/crc_path.h"

namespace rtb::wire {
namespace {

// The largest IPv4 packet plus the prefix; one buffer per thread, allocated once.
thread_local std::array<uint8_t, kIcrcPrefixBytes + 65536> t_masked;

}  // namespace

void use_fast_crc() { set_fastest_crc_path(); }

void mask_icrc_fields(uint8_t* m) {
  for (const uint32_t at : icrc_masked_offsets((m[0] & 0x0Fu) * 4u)) m[at] = 0xFF;
}

uint32_t icrc_full(const uint8_t* ipv4, uint32_t covered) {
  uint8_t* buf = t_masked.data();
  std::memset(buf, 0xFF, kIcrcPrefixBytes);
  std::memcpy(buf + kIcrcPrefixBytes, ipv4, covered);
  mask_icrc_fields(buf + kIcrcPrefixBytes);
  return crc32_eth(buf, kIcrcPrefixBytes + covered);
}

}  // namespace rtb::wire
