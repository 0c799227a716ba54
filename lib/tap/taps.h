// The two taps a run puts on the links it captures (runtime/frame_tap.h). One tap per link
// direction; a direction in several files (h0 and h0-sw0) has one tap writing to each.
//
//  - DirectTap (virtual time): writes each frame to its files as it starts; the run is
//    single-threaded and the files are buffered (FileSink), so this costs a copy per frame.
//  - QueuedTap (realtime): the lcore copies the frame's first bytes into a FrameQueue and
//    goes on; the control thread writes them (CaptureSet::drain). A full queue is a lost
//    frame, counted, never a wait.
//  - OrderedTap (parallel virtual time): each partition's thread keeps its frames with
//    their one-thread order; the capture set writes them in that order at each sample.
#pragma once

#include <cstdint>
#include <span>
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
  void on_frame(Time now, Time start, const rte_mbuf* frame, runtime::LinkFaults::Verdict verdict) override;
  const std::vector<Target>& targets() const { return targets_; }

 private:
  std::vector<Target> targets_;
  std::vector<uint8_t> scratch_;  // a chained frame's bytes, sized once
};

// Parallel virtual time: the sending partition's thread keeps each frame's first bytes with
// the key that orders it as a one-thread run's taps saw it, (the sender's poll, the sending
// stage's place in the one-thread scheduler, the stage's count of frames sent so far): at
// one instant that scheduler polls stages in their order, each once (nothing a stage sends
// arrives at the instant it is sent). The capture set writes them, sorted, when every
// partition has run past them (CaptureSet::write_ordered).
class OrderedTap final : public runtime::FrameTap {
 public:
  struct Kept {
    Time now;
    uint32_t stage;
    uint64_t seq;
    Time start;
    uint32_t original_len;
    uint32_t captured_len;
    size_t offset;  // into bytes()
    runtime::LinkFaults::Verdict verdict;
  };
  // `stage_frames`: the sending stage's count, shared by its taps (one thread writes it).
  OrderedTap(std::vector<Target> targets, uint32_t stage, uint64_t* stage_frames, uint32_t max_captured)
      : targets_(std::move(targets)), stage_(stage), stage_frames_(stage_frames), max_captured_(max_captured) {}
  void on_frame(Time now, Time start, const rte_mbuf* frame, runtime::LinkFaults::Verdict verdict) override;
  const std::vector<Target>& targets() const { return targets_; }
  const std::vector<Kept>& kept() const { return kept_; }
  std::span<const uint8_t> bytes(const Kept& k) const { return {bytes_.data() + k.offset, k.captured_len}; }
  void clear() {  // keeps the capacity: a capture allocates while it grows, then reuses
    kept_.clear();
    bytes_.clear();
  }

 private:
  std::vector<Target> targets_;
  uint32_t stage_;
  uint64_t* stage_frames_;
  uint32_t max_captured_;
  std::vector<Kept> kept_;
  std::vector<uint8_t> bytes_;
};

class QueuedTap final : public runtime::FrameTap {
 public:
  QueuedTap(std::vector<Target> targets, uint32_t slots, uint32_t max_captured)
      : targets_(std::move(targets)), queue_(slots, max_captured) {}
  // The sending lcore.
  void on_frame(Time, Time start, const rte_mbuf* frame, runtime::LinkFaults::Verdict verdict) override {
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
