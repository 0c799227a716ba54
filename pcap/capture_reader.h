// Reading pcap and pcapng files through libpcap, with nanosecond timestamps.
//
// Public API:
//   auto r = CaptureReader::open("cap.pcapng");        // Expected<CaptureReader>
//   CapturedFrame f;
//   while (true) {
//     auto more = r.value().next(f);                   // Expected<bool>
//     if (!more) { /* more.error().message */ break; }
//     if (!more.value()) break;                        // end of file
//     use(f.ts, f.bytes);
//   }
//   auto all = read_all("cap.pcap");                   // Expected<std::vector<CapturedFrame>>
//
// Timestamps. A file stores absolute times (ns since the Unix epoch, 1.7e18 today), which
// do not fit rtb::Time (64-bit picoseconds, about 213 days). So a frame carries both:
// `ts_ns` as stored, and `ts` = ts_ns - origin as an rtb::Time. The origin is
// ReaderOptions::origin_ns when set (0 for files written by PcapngWriter/PcapWriter with
// the default origin, giving back exactly the Time written, to the ns), otherwise the
// first frame's timestamp (so ts of the first frame is zero, as in a replay). A frame
// stamped before the origin, or more than 213 days after it, is an error naming it.
//
// Classic pcap files (and images in memory) are walked in place by PcapRecords, with the
// same rules and messages as libpcap and without its copies; pcapng goes through libpcap.
//
// Limits of libpcap (1.10): it does not expose the pcapng interface id of a packet (all
// interfaces are merged into one stream, in file order) nor interface names or
// comments, and it rejects a pcapng file whose interfaces have different link types.
// Read those with tshark. Link types are reported as the file's LINKTYPE_* value
// (libpcap's DLT_RAW is mapped back to LinkType::kRaw, 101).
#pragma once

#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/units.h"
#include "pcap/link_type.h"
#include "pcap/pcap_records.h"

struct pcap;  // libpcap's pcap_t, kept out of this header

namespace rtb::capture {

struct CapturedFrame {
  uint64_t ts_ns = 0;          // as stored in the file: ns since the Unix epoch
  Time ts;                     // ts_ns - origin (see above)
  LinkType link = LinkType::kEthernet;
  uint32_t captured_len = 0;   // bytes.size()
  uint32_t original_len = 0;   // length on the wire (>= captured_len)
  std::vector<uint8_t> bytes;  // the captured bytes
};

// A frame as libpcap holds it: `data` stays valid until the next read (no copy).
struct FrameView {
  uint64_t ts_ns = 0;  // as stored: ns since the Unix epoch (no origin applied)
  uint32_t captured_len = 0;
  uint32_t original_len = 0;
  const uint8_t* data = nullptr;
};

struct ReaderOptions {
  std::optional<uint64_t> origin_ns;  // unset: the first frame's ts_ns
};

class CaptureReader {
 public:
  // Errors: missing or unreadable file, not a pcap/pcapng file, truncated file header.
  static Expected<CaptureReader> open(const std::string& path, ReaderOptions options = {});
  // The same from a file image in memory (`name` stands for the path in messages); the
  // bytes must outlive the reader. For the fuzz target and tests.
  static Expected<CaptureReader> open_memory(const uint8_t* data, size_t size,
                                             const std::string& name);

  // true: `out` holds the next frame; false: end of file. Error: truncated or corrupt
  // record, or a timestamp outside the origin's range (the message names frame and file).
  Expected<bool> next(CapturedFrame& out);
  // Like next() without the copy and without the origin's range check: the fast path of
  // `rocetb analyze`. Same errors otherwise.
  Expected<bool> next_view(FrameView& out);

  LinkType link() const { return link_; }
  const std::string& path() const { return path_; }
  uint64_t frames_read() const { return frames_; }

 private:
  struct Closer {
    void operator()(pcap* p) const;
  };
  struct Unmapper {
    size_t size;
    void operator()(const uint8_t* p) const;
  };
  using Mapping = std::unique_ptr<const uint8_t, Unmapper>;
  CaptureReader(std::string path, pcap* handle, ReaderOptions options);
  static Mapping map_file(FILE* f);
  void walk_records(const uint8_t* data, size_t size);
  Status set_time(CapturedFrame& out, uint64_t ts_ns);

  std::string path_;
  std::unique_ptr<pcap, Closer> handle_;
  Mapping mapping_{nullptr, Unmapper{0}};  // a classic pcap file, mapped
  std::optional<PcapRecords> records_;    // set: frames come from here, not libpcap
  ReaderOptions options_;
  LinkType link_;
  uint64_t frames_ = 0;
};

// Reads every frame of a file.
Expected<std::vector<CapturedFrame>> read_all(const std::string& path,
                                              ReaderOptions options = {});

}  // namespace rtb::capture
