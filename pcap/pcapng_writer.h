// A small pcapng writer for captures of in-process links and virtual time.
//
// Why our own: DPDK 22.11's rte_pcapng is experimental, knows only ethdev ports and stamps
// TSC time. Here each link is one interface (Interface Description Block with if_name,
// e.g. "host0->sw0", and if_tsresol = 9, i.e. nanoseconds) and every timestamp is an
// rtb::Time handed in by the caller (virtual or real clock: the writer never reads a
// clock). Format: pcapng draft (IETF opsawg-pcapng), written in host byte order.
//
// Public API:
//   auto w = PcapngWriter::create("run/cap.pcapng");             // Expected<PcapngWriter>
//   uint32_t a = w.value().add_interface("host0->sw0");          // Ethernet, snaplen 0
//   uint32_t b = w.value().add_interface("tun", LinkType::kRaw); // raw IP (101)
//   w.value().write(a, now, frame_bytes);                        // Status
//   w.value().write(a, now, frame_bytes, "CE marked here");      // with an opt_comment
//   w.value().write(a, now, first_bytes, original_len, "");      // bytes already cut
//   w.value().close();                                           // Status: check it
//
// Timestamps: the file stores origin_ns + ts in whole nanoseconds (sub-ns truncated).
// origin_ns (default 0, i.e. the Unix epoch) lets a virtual run show a real date.
// Errors are sticky: after the first failed write every call returns that error, so
// checking close() is enough. Buffered: nothing is guaranteed on disk before close().
// Readers: Wireshark/tshark read every interface and link type; libpcap (and so
// CaptureReader) requires all interfaces of a file to share one link type.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "core/units.h"
#include "pcap/file_sink.h"
#include "pcap/link_type.h"

namespace rtb::capture {

struct PcapngOptions {
  uint64_t origin_ns = 0;               // file time of Time::zero(), ns since the epoch
  std::string application = "rocetb";  // shb_userappl
};

class PcapngWriter {
 public:
  static Expected<PcapngWriter> create(const std::string& path, PcapngOptions options = {});

  // Writes an Interface Description Block and returns its interface id (0, 1, ...).
  // snaplen 0 means no limit; longer frames are cut to snaplen bytes (original length
  // kept). Errors surface from the next write() or close().
  uint32_t add_interface(std::string_view name, LinkType link = LinkType::kEthernet,
                         uint32_t snaplen = 0);

  // One Enhanced Packet Block. `iface` must come from add_interface().
  Status write(uint32_t iface, Time ts, std::span<const uint8_t> frame,
               std::string_view comment = {});
  // The same for a frame of `original_len` bytes of which only `captured` (its first
  // bytes, cut by the caller) is at hand; the interface's snaplen still applies.
  Status write(uint32_t iface, Time ts, std::span<const uint8_t> captured, uint32_t original_len,
               std::string_view comment);

  Status close();

  const std::string& path() const { return sink_.path(); }
  size_t interface_count() const { return snaplens_.size(); }
  uint64_t frames_written() const { return frames_; }
  // The file's size so far (blocks buffered included).
  uint64_t file_bytes() const { return sink_.bytes_appended(); }
  // Bytes one Enhanced Packet Block takes for `captured` frame bytes and a comment.
  static size_t packet_block_bytes(size_t captured, size_t comment_bytes = 0);

 private:
  PcapngWriter(FileSink sink, PcapngOptions options);
  Status write_section_header();

  FileSink sink_;
  PcapngOptions options_;
  std::vector<uint32_t> snaplens_;
  Status error_;
  uint64_t frames_ = 0;
};

}  // namespace rtb::capture
