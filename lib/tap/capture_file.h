// One capture file of a run: a pcapng writer with one interface per link direction, the
// per-file limits (frames, size on disk) and what happened to every frame offered to it:
// written, refused by the limit, or lost before it got here (a full realtime queue).
//
// Timestamps: the run's time rounded to the nearest nanosecond (the interfaces declare
// if_tsresol 9), plus the file's origin (0 in virtual time, so the same run gives the
// same bytes; the wall-clock start in realtime). Frames a fault then dropped or corrupted
// carry an opt_comment saying so.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/error.h"
#include "core/units.h"
#include "pcap/pcapng_writer.h"
#include "runtime/link_faults.h"

namespace rtb::tap {

struct FileLimits {
  uint32_t snaplen = 0;     // 0: whole frames
  uint64_t max_frames = 0;  // 0: none
  uint64_t max_bytes = 0;   // 0: none
};

class CaptureFile {
 public:
  static Expected<CaptureFile> create(const std::string& path, std::string what, FileLimits limits,
                                      uint64_t origin_ns);

  uint32_t add_interface(const std::string& name);
  // Writes the frame unless the file is full (then counts it over the limit). A frame
  // larger than what is at hand (`captured`) keeps its original length.
  void write(uint32_t iface, Time at, std::span<const uint8_t> captured, uint32_t original_len,
             runtime::LinkFaults::Verdict verdict);
  // Frames of `iface` that never reached the file (its realtime queue was full).
  void add_lost(uint32_t iface, uint64_t frames) { ifaces_[iface].lost += frames; }
  // The link's own count of frames started in that direction (WireLinkCounters::frames):
  // frames + over the limit + lost equal it when the capture covered the whole run.
  void set_link_frames(uint32_t iface, uint64_t frames) { ifaces_[iface].link_frames = frames; }
  Status close();

  // {"file", "what", "frames", "bytes", "frames_over_limit", "frames_lost", "interfaces":
  //  [{"name", "frames", "frames_over_limit", "frames_lost", "link_frames"}]}
  nlohmann::ordered_json to_json() const;

 private:
  struct Interface {
    std::string name;
    uint64_t frames = 0;
    uint64_t over_limit = 0;
    uint64_t lost = 0;
    uint64_t link_frames = 0;
  };
  CaptureFile(capture::PcapngWriter writer, std::string what, FileLimits limits)
      : writer_(std::move(writer)), what_(std::move(what)), limits_(limits) {}
  // Whether one more block of `captured` bytes and a comment stays within the limits;
  // the first refusal marks the file full for good.
  bool take_room(size_t captured, size_t comment_bytes);

  capture::PcapngWriter writer_;
  std::string what_;
  FileLimits limits_;
  std::vector<Interface> ifaces_;
  bool full_ = false;
};

}  // namespace rtb::tap
