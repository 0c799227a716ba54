// The frames waiting in the switch's egress queues: FIFO lists threaded through one array
// of slots sized at start (one slot per buffer cell, since every queued frame holds at
// least one cell), so nothing is allocated per frame. The slots of a deep buffer (a
// 32 MiB one has hundreds of thousands) lie in fresh memory (core/mapped_array.h), on huge
// pages when large, for fewer TLB misses on frames deep in a queue. They are written on
// first use, never at start: a slot above the high-water mark has never held a frame, so
// the free list starts empty and grows as frames leave. Creating a store touches none of
// its pages, and a run only ever writes the slots its deepest moment needed (a page fault
// costs microseconds in a virtual machine, and a 32 MiB buffer's slots and links are 2.5 MB).
#pragma once

#include <cstdint>
#include <vector>

#include "core/mapped_array.h"

struct rte_mbuf;

namespace rtb::sw {

struct QueuedFrame {
  rte_mbuf* mbuf = nullptr;
  uint32_t bytes = 0;      // frame length without FCS
  uint16_t in_port = 0;    // for the MMU release and PFC XON
  uint8_t pg = 0;
  uint8_t tc = 0;          // for PFC XON: lossless at in_port or not
  uint8_t l3_offset = 0;   // IPv4 header offset (for marking CE at dequeue)
  uint8_t ecn = 0;         // its RFC 3168 ECN field when it was queued: the AQM at dequeue
                           // decides without reading the (by then cold) frame
};

class QueueStore {
 public:
  QueueStore(uint32_t queues, uint32_t slots);

  bool push(uint32_t queue, const QueuedFrame& f);  // false when every slot is taken
  QueuedFrame pop(uint32_t queue);                  // precondition: !empty(queue)
  const QueuedFrame& head(uint32_t queue) const { return slots_[queues_[queue].head]; }
  bool empty(uint32_t queue) const { return queues_[queue].frames == 0; }
  uint32_t frames(uint32_t queue) const { return queues_[queue].frames; }
  uint64_t bytes(uint32_t queue) const { return queues_[queue].bytes; }
  uint64_t watermark_bytes(uint32_t queue) const { return queues_[queue].watermark; }

 private:
  static constexpr uint32_t kNil = UINT32_MAX;
  struct Fifo {
    uint32_t head = kNil, tail = kNil, frames = 0;
    uint64_t bytes = 0, watermark = 0;
  };
  MappedArray<QueuedFrame> slots_;
  MappedArray<uint32_t> next_;
  std::vector<Fifo> queues_;
  uint32_t free_ = kNil;  // slots that held a frame and are free again
  uint32_t fresh_ = 0;    // the high-water mark: slots from here on never held a frame
};

}  // namespace rtb::sw
