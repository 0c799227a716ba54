// The two taps a run puts on the links it captures (runtime/frame_tap.h). One tap per link
// direction; a direction in several files (h0 and h0-sw0) has one tap writing to each.
//
//  - DirectTap (virtual time): writes each frame to its files as it starts; the run is
//    single-threaded and the files are buffered (FileSink), so this costs a copy per frame.
//  - QueuedTap (realtime): the lcore copies the frame's first bytes into a FrameQueue and
//    goes on; the control thread writes them (CaptureSet::drain). A full queue is a lost
//    frame, counted, never a wait.
#pragma once

#include <cstdint>
#include <vector>

#include "runtime/frame_tap.h"
#include "tap/capture_file.h"
#include "tap/frame_queue.h"

namespace rtb::tap {

struct Target {
  CaptureFile* file;
  uint32_t iface;
};

class DirectTap final : public runtime::FrameTap {
 public:
  DirectTap(std::vector<Target> targets, uint32_t max_frame);
  void on_frame(Time start, const rte_mbuf* frame, runtime::LinkFaults::Verdict verdict) override;
  const std::vector<Target>& targets() const { return targets_; }

 private:
  std::vector<Target> targets_;
  std::vector<uint8_t> scratch_;  // a chained frame's bytes, sized once
};

class QueuedTap final : public runtime::FrameTap {
 public:
  QueuedTap(std::vector<Target> targets, uint32_t slots, uint32_t max_captured)
      : targets_(std::move(targets)), queue_(slots, max_captured) {}
  // The sending lcore.
  void on_frame(Time start, const rte_mbuf* frame, runtime::LinkFaults::Verdict verdict) override {
    if (!queue_.push(start, frame, static_cast<uint8_t>(verdict))) ++lost_;
  }
  // The control thread.
  FrameQueue& queue() { return queue_; }
  const std::vector<Target>& targets() const { return targets_; }
  // Read only after the run (the lcore has stopped).
  uint64_t lost() const { return lost_; }

 private:
  std::vector<Target> targets_;
  FrameQueue queue_;
  uint64_t lost_ = 0;  // written by the sending lcore only
};

}  // namespace rtb::tap
