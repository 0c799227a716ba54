// A bounded single-producer/single-consumer queue of captured frames, for realtime runs:
// the lcore that sends on a link copies each frame's first bytes (up to the snap length)
// into the next slot; the control thread takes them out and writes the file. Slots are
// of one size fixed at construction (a header and `max_captured` bytes), all allocated
// then: push() never allocates, never blocks, and returns false when the queue is full
// (the caller counts a lost frame).
//
// Memory order: the producer writes a slot, then publishes it with a release store of the
// tail; the consumer acquires the tail before reading slots, and releases the head when a
// slot is free again (the same protocol as DPDK's rte_ring in SP/SC mode).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <span>

#include "core/units.h"

struct rte_mbuf;

namespace rtb::tap {

struct CapturedFrame {
  Time at;                // when the frame started on the wire
  uint32_t original_len;  // bytes of the whole frame (without FCS)
  uint32_t captured_len;  // bytes kept in the slot
  uint8_t note;           // the caller's tag (the link's fault verdict)
};

class FrameQueue {
 public:
  // `slots` is rounded up to a power of two.
  FrameQueue(uint32_t slots, uint32_t max_captured);
  FrameQueue(const FrameQueue&) = delete;
  FrameQueue& operator=(const FrameQueue&) = delete;

  // Producer only: copies min(frame length, max_captured) bytes. False when full.
  bool push(Time at, const rte_mbuf* frame, uint8_t note);

  // Consumer only: the oldest frame, or null when empty; its bytes stay valid until pop().
  const CapturedFrame* front(std::span<const uint8_t>* bytes);
  void pop();

  uint32_t slots() const { return mask_ + 1; }
  uint32_t max_captured() const { return max_captured_; }

 private:
  uint8_t* slot(uint64_t i) { return storage_.get() + (i & mask_) * stride_; }

  uint32_t mask_;
  uint32_t max_captured_;
  size_t stride_;
  std::unique_ptr<uint8_t[]> storage_;  // not zeroed: pages are touched as slots fill
  alignas(64) std::atomic<uint64_t> tail_{0};  // next slot the producer fills
  alignas(64) std::atomic<uint64_t> head_{0};  // next slot the consumer reads
  uint64_t cached_head_ = 0;                   // producer's last view of head_
};

}  // namespace rtb::tap
