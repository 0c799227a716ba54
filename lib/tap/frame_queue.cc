#include "tap/frame_queue.h"

#include <rte_mbuf.h>

#include <algorithm>
#include <bit>
#include <cstring>

namespace rtb::tap {
namespace {

constexpr size_t kHeaderBytes = (sizeof(CapturedFrame) + 7) & ~size_t{7};

}  // namespace

FrameQueue::FrameQueue(uint32_t slots, uint32_t max_captured)
    : mask_(std::bit_ceil(std::max<uint32_t>(slots, 1)) - 1),
      max_captured_(max_captured),
      stride_(kHeaderBytes + ((max_captured + size_t{7}) & ~size_t{7})),
      storage_(new uint8_t[stride_ * (mask_ + 1)]) {}

bool FrameQueue::push(Time at, const rte_mbuf* frame, uint8_t note) {
  const uint64_t tail = tail_.load(std::memory_order_relaxed);
  if (tail - cached_head_ > mask_) {
    cached_head_ = head_.load(std::memory_order_acquire);
    if (tail - cached_head_ > mask_) return false;
  }
  uint8_t* s = slot(tail);
  const uint32_t len = rte_pktmbuf_pkt_len(frame);
  const uint32_t n = std::min(len, max_captured_);
  uint8_t* data = s + kHeaderBytes;
  const void* p = rte_pktmbuf_read(frame, 0, n, data);  // copies only a chained frame
  if (p != data) std::memcpy(data, p, n);
  const CapturedFrame header{at, len, n, note};
  std::memcpy(s, &header, sizeof header);
  tail_.store(tail + 1, std::memory_order_release);
  return true;
}

const CapturedFrame* FrameQueue::front(std::span<const uint8_t>* bytes) {
  const uint64_t head = head_.load(std::memory_order_relaxed);
  if (head == tail_.load(std::memory_order_acquire)) return nullptr;
  const uint8_t* s = slot(head);
  const auto* f = reinterpret_cast<const CapturedFrame*>(s);
  *bytes = {s + kHeaderBytes, f->captured_len};
  return f;
}

void FrameQueue::pop() { head_.store(head_.load(std::memory_order_relaxed) + 1, std::memory_order_release); }

}  // namespace rtb::tap
