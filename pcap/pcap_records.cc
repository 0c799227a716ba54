#include "pcap/pcap_records.h"

#include <fmt/format.h>

#include <cstring>

#include "pcap/capture_reader.h"

namespace rtb::capture {
namespace {

constexpr uint32_t kMagicMicros = 0xA1B2C3D4;
constexpr uint32_t kMagicNanos = 0xA1B23C4D;
constexpr size_t kFileHeaderBytes = 24;
constexpr size_t kRecordHeaderBytes = 16;
constexpr uint32_t kMaxSnaplen = 262144;  // libpcap's MAXIMUM_SNAPLEN

uint32_t bswap(uint32_t v) { return __builtin_bswap32(v); }

}  // namespace

uint32_t PcapRecords::u32(size_t at) const {
  uint32_t v;
  std::memcpy(&v, data_ + at, 4);
  return swapped_ ? bswap(v) : v;
}

std::optional<PcapRecords> PcapRecords::detect(const uint8_t* data, size_t size, uint32_t snaplen) {
  if (size < kFileHeaderBytes) return std::nullopt;
  uint32_t magic;
  std::memcpy(&magic, data, 4);
  for (bool swapped : {false, true}) {
    const uint32_t m = swapped ? bswap(magic) : magic;
    if (m == kMagicMicros || m == kMagicNanos)
      return PcapRecords(data, size, swapped, m == kMagicNanos, snaplen);
  }
  return std::nullopt;
}

Expected<bool> PcapRecords::next(FrameView& out, uint64_t frame, const std::string& path) {
  if (off_ == size_) return false;
  const size_t left = size_ - off_;
  if (left < kRecordHeaderBytes) {
    return Error{fmt::format("capture '{}': cannot read frame {}: truncated dump file; tried "
                             "to read {} header bytes, only got {}", path, frame,
                             kRecordHeaderBytes, left)};
  }
  const uint64_t sec = u32(off_);
  const uint64_t frac = u32(off_ + 4);
  uint32_t incl = u32(off_ + 8);
  const uint32_t orig = u32(off_ + 12);
  if (incl > kMaxSnaplen) {
    return Error{fmt::format("capture '{}': cannot read frame {}: invalid packet capture "
                             "length {}, bigger than maximum of {}", path, frame, incl, kMaxSnaplen)};
  }
  if (left - kRecordHeaderBytes < incl) {
    return Error{fmt::format("capture '{}': cannot read frame {}: truncated dump file; tried "
                             "to read {} captured bytes, only got {}", path, frame, incl,
                             left - kRecordHeaderBytes)};
  }
  out.ts_ns = sec * 1'000'000'000 + (nanos_ ? frac : frac * 1'000);
  out.data = data_ + off_ + kRecordHeaderBytes;
  out.captured_len = incl < snaplen_ ? incl : snaplen_;  // longer than the snap length: cut
  out.original_len = orig;
  off_ += kRecordHeaderBytes + incl;
  return true;
}

}  // namespace rtb::capture
