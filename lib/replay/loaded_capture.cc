#include "replay/loaded_capture.h"

#include <algorithm>

#include <fmt/format.h>

#include "core/read_file.h"
#include "pcap/capture_reader.h"

namespace rtb::replay {

Expected<LoadedCapture> load_capture(const std::string& path) {
  // A FIFO would block libpcap's reader forever, a device never end.
  if (Status s = check_regular_file(path, "a pcap or pcapng capture file"); !s) {
    return Error{s.message()};
  }
  auto reader = capture::CaptureReader::open(path);
  if (!reader) return reader.error();
  LoadedCapture c;
  c.path = path;
  c.link = reader.value().link();
  capture::FrameView f;
  std::vector<uint8_t> eth;
  while (true) {
    auto more = reader.value().next_view(f);
    if (!more) return more.error();
    if (!more.value()) break;
    if (Status s = to_ethernet(c.link, f, c.frames() + 1, path, eth, c.conversion); !s) {
      return Error{s.message()};
    }
    c.offset.push_back(c.bytes.size());
    c.length.push_back(static_cast<uint32_t>(eth.size()));
    c.ts_ns.push_back(f.ts_ns);
    c.bytes.insert(c.bytes.end(), eth.begin(), eth.end());
    c.largest = std::max(c.largest, static_cast<uint32_t>(eth.size()));
    c.total_bytes += eth.size();
  }
  if (c.frames() == 0) return Error{fmt::format("{}: the capture has no frames to replay", path)};
  return c;
}

}  // namespace rtb::replay
