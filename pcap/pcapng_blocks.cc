#include "pcap/pcapng_blocks.h"

#include <cstring>

namespace rtb::capture::pcapng {

BlockBuilder::BlockBuilder(uint32_t type) {
  b_.reserve(128);
  u32(type);
  u32(0);  // total length, filled in by finish()
}

void BlockBuilder::u16(uint16_t v) {
  const auto* p = reinterpret_cast<const uint8_t*>(&v);
  b_.insert(b_.end(), p, p + sizeof v);
}

void BlockBuilder::u32(uint32_t v) {
  const auto* p = reinterpret_cast<const uint8_t*>(&v);
  b_.insert(b_.end(), p, p + sizeof v);
}

void BlockBuilder::u64(uint64_t v) {
  const auto* p = reinterpret_cast<const uint8_t*>(&v);
  b_.insert(b_.end(), p, p + sizeof v);
}

void BlockBuilder::bytes(std::span<const uint8_t> b) {
  b_.insert(b_.end(), b.begin(), b.end());
  b_.resize(b_.size() + pad4(b.size()) - b.size(), 0);
}

void BlockBuilder::option(uint16_t code, std::span<const uint8_t> value) {
  u16(code);
  u16(static_cast<uint16_t>(value.size()));
  bytes(value);
  has_options_ = true;
}

void BlockBuilder::option(uint16_t code, std::string_view value) {
  option(code, {reinterpret_cast<const uint8_t*>(value.data()), value.size()});
}

const std::vector<uint8_t>& BlockBuilder::finish() {
  if (has_options_) {
    u16(kOptEndOfOpt);
    u16(0);
  }
  const auto total = static_cast<uint32_t>(b_.size() + sizeof(uint32_t));
  u32(total);
  std::memcpy(b_.data() + sizeof(uint32_t), &total, sizeof total);
  return b_;
}

}  // namespace rtb::capture::pcapng
