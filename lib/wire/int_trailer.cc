#include "wire/int_trailer.h"

#include <algorithm>
#include <cstring>

#include "wire/bytes.h"

namespace rtb::wire {
namespace {

constexpr uint32_t kQlenShift = 0, kBytesShift = kIntQlenBits,
                   kTimeShift = kIntQlenBits + kIntBytesBits,
                   kRateShift = kIntQlenBits + kIntBytesBits + kIntTimeBits;  // 61
constexpr uint64_t mask(uint32_t bits) { return (uint64_t{1} << bits) - 1; }

}  // namespace

std::optional<uint8_t> int_rate_code(uint64_t bps) {
  for (uint8_t c = 0; c < 8; ++c)
    if (kIntRateBps[c] == bps) return c;
  return std::nullopt;
}

uint64_t encode_int_hop(Time now, uint64_t tx_bytes, uint64_t queue_bytes, uint8_t rate_code) {
  const uint64_t t = static_cast<uint64_t>(now.ps()) / 1000;
  const uint64_t q = std::min(queue_bytes / kIntQlenUnit, mask(kIntQlenBits));
  return (uint64_t{rate_code} & 7) << kRateShift | (t & mask(kIntTimeBits)) << kTimeShift |
         ((tx_bytes / kIntByteUnit) & mask(kIntBytesBits)) << kBytesShift | q << kQlenShift;
}

IntHopRecord decode_int_hop(uint64_t w) {
  return IntHopRecord{static_cast<uint8_t>(w >> kRateShift),
                      static_cast<uint32_t>((w >> kTimeShift) & mask(kIntTimeBits)),
                      static_cast<uint32_t>((w >> kBytesShift) & mask(kIntBytesBits)),
                      static_cast<uint32_t>(w & mask(kIntQlenBits))};
}

std::optional<IntDescriptor> read_int_descriptor(const uint8_t* end, uint32_t room) {
  if (room < kIntDescriptorBytes) return std::nullopt;
  const uint8_t* d = end - kIntDescriptorBytes;
  const IntDescriptor out{d[2], d[3]};
  if (load_be16(d) != kIntMagic || out.hops > out.slots ||
      room < kIntDescriptorBytes + uint32_t{out.slots} * kIntHopBytes)
    return std::nullopt;
  return out;
}

void init_int_trailer(uint8_t* p, uint16_t bytes) {
  std::memset(p, 0, bytes);
  if (bytes < kIntDescriptorBytes) return;
  uint8_t* d = p + bytes - kIntDescriptorBytes;
  store_be16(d, kIntMagic);
  d[2] = static_cast<uint8_t>((bytes - kIntDescriptorBytes) / kIntHopBytes);
}

bool push_int_hop(uint8_t* end, uint32_t room, uint64_t word) {
  const std::optional<IntDescriptor> d = read_int_descriptor(end, room);
  if (!d || d->hops >= d->slots) return false;
  uint8_t* slots = end - kIntDescriptorBytes - uint32_t{d->slots} * kIntHopBytes;
  store_be64(slots + uint32_t{d->hops} * kIntHopBytes, word);
  end[-1] = static_cast<uint8_t>(d->hops + 1);
  return true;
}

uint64_t int_hop_word(const uint8_t* end, const IntDescriptor& d, uint32_t i) {
  const uint8_t* slots = end - kIntDescriptorBytes - uint32_t{d.slots} * kIntHopBytes;
  return load_be64(slots + i * kIntHopBytes);
}

}  // namespace rtb::wire
