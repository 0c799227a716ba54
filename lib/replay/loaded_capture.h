// A whole capture in memory as the Ethernet frames a replay sends (ethernet_frame.h), read
// before any DPDK resource is taken so that a bad file costs nothing and the mbuf pool can
// be sized to it exactly.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/units.h"
#include "pcap/link_type.h"
#include "replay/ethernet_frame.h"

namespace rtb::replay {

struct LoadedCapture {
  std::string path;
  capture::LinkType link = capture::LinkType::kEthernet;
  std::vector<uint8_t> bytes;      // every frame, back to back
  std::vector<uint64_t> offset;    // where frame i starts in `bytes`
  std::vector<uint32_t> length;    // its length as sent (bytes without FCS)
  std::vector<uint64_t> ts_ns;     // its timestamp as stored (ns since the Unix epoch)
  uint32_t largest = 0;            // the longest frame
  uint64_t total_bytes = 0;        // sum of `length`
  ConversionCounts conversion;

  size_t frames() const { return length.size(); }
  std::span<const uint8_t> frame(size_t i) const { return {bytes.data() + offset[i], length[i]}; }
};

// Errors (one line naming the file): missing or unreadable, not a capture, truncated or
// corrupt (the frame it stopped at), no frames, a frame that cannot become Ethernet.
Expected<LoadedCapture> load_capture(const std::string& path);

}  // namespace rtb::replay
