// What `rocetb run --capture` asks for: which links to capture, into which folder, cut to
// which snap length, with which limit per file. Checked where it is parsed (apps/); the
// names in `what` are resolved against the topology by plan_captures() (capture_plan.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace rtb::tap {

struct CaptureRequest {
  std::vector<std::string> what;  // "all", a node, a link "h0-sw0", a port "sw0:Ethernet0"
  std::string dir;                // the results folder the files go into
  uint32_t snaplen = 0;           // bytes kept of each frame; 0: the whole frame
  uint64_t max_frames = 0;        // per file; 0: no limit
  uint64_t max_bytes = 0;         // per file, its size on disk; 0: no limit
  uint64_t queue_bytes = 8ull << 20;  // realtime: queue per captured direction (frame_queue.h)
  bool empty() const { return what.empty(); }
};

// Snap lengths a file may declare: an Ethernet header at least, and tcpdump's largest.
inline constexpr uint32_t kMinSnaplen = 14;
inline constexpr uint32_t kMaxSnaplen = 262'144;

}  // namespace rtb::tap
