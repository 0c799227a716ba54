// Classic pcap records walked in a file image in memory (a mapped file): the fast path of
// CaptureReader for the common format, with libpcap's rules and messages.
//
// Format (draft-ietf-opsawg-pcap §4-5): a 24-byte header whose magic gives the byte order
// and the timestamp unit (0xA1B2C3D4 microseconds, 0xA1B23C4D nanoseconds), then records
// of ts_sec(4) ts_frac(4) incl_len(4) orig_len(4) and incl_len bytes. As libpcap 1.10
// (sf-pcap.c) does: a record longer than the maximum snap length (262144) is an error, a
// record longer than the file's snap length is cut to it. Modified formats (other magics)
// and pcapng are left to libpcap.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "core/error.h"

namespace rtb::capture {

struct FrameView;

class PcapRecords {
 public:
  // The walker when `data` starts with a classic pcap header, nullopt otherwise. `snaplen`
  // is what libpcap made of the header's (pcap_snapshot).
  static std::optional<PcapRecords> detect(const uint8_t* data, size_t size, uint32_t snaplen);

  // true: `out` holds record `frame` (1-based, for messages); false: end of the image.
  Expected<bool> next(FrameView& out, uint64_t frame, const std::string& path);

 private:
  PcapRecords(const uint8_t* data, size_t size, bool swapped, bool nanos, uint32_t snaplen)
      : data_(data), size_(size), swapped_(swapped), nanos_(nanos), snaplen_(snaplen) {}
  uint32_t u32(size_t at) const;

  const uint8_t* data_;
  size_t size_;
  size_t off_ = 24;
  bool swapped_;
  bool nanos_;
  uint32_t snaplen_;
};

}  // namespace rtb::capture
