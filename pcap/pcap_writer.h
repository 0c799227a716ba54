// A classic pcap writer with nanosecond timestamps (magic 0xa1b23c4d), for tools that
// do not read pcapng. One link type per file, no interface names.
//
// Public API:
//   auto w = PcapWriter::create("cap.pcap", LinkType::kEthernet);  // Expected<PcapWriter>
//   w.value().write(now, frame_bytes);                              // Status
//   w.value().close();                                              // Status: check it
//
// Written by hand (not through libpcap's pcap_dump, which cannot report a full disk) in
// host byte order, as libpcap does. Timestamps are origin_ns + ts in whole nanoseconds.
// Errors are sticky, as in PcapngWriter.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "core/error.h"
#include "core/units.h"
#include "pcap/file_sink.h"
#include "pcap/link_type.h"

namespace rtb::capture {

constexpr uint32_t kPcapNanosecondMagic = 0xa1b23c4d;
constexpr uint32_t kDefaultSnaplen = 262144;  // libpcap's MAXIMUM_SNAPLEN

class PcapWriter {
 public:
  static Expected<PcapWriter> create(const std::string& path,
                                     LinkType link = LinkType::kEthernet,
                                     uint32_t snaplen = kDefaultSnaplen,
                                     uint64_t origin_ns = 0);

  // Frames longer than snaplen are cut (the original length is kept in the record).
  Status write(Time ts, std::span<const uint8_t> frame);
  Status close();

  const std::string& path() const { return sink_.path(); }
  uint64_t frames_written() const { return frames_; }

 private:
  PcapWriter(FileSink sink, uint32_t snaplen, uint64_t origin_ns);

  FileSink sink_;
  uint32_t snaplen_;
  uint64_t origin_ns_;
  Status error_;
  uint64_t frames_ = 0;
};

}  // namespace rtb::capture
