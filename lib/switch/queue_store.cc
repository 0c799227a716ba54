#include "switch/queue_store.h"

namespace rtb::sw {

QueueStore::QueueStore(uint32_t queues, uint32_t slots)
    : slots_(slots), next_(slots), queues_(queues) {}

bool QueueStore::push(uint32_t queue, const QueuedFrame& f) {
  uint32_t s;
  if (free_ != kNil) {
    s = free_;
    free_ = next_[s];
  } else if (fresh_ < slots_.size()) {
    s = fresh_++;
  } else {
    return false;
  }
  slots_[s] = f;
  next_[s] = kNil;
  Fifo& q = queues_[queue];
  if (q.tail == kNil) {
    q.head = s;
  } else {
    next_[q.tail] = s;
  }
  q.tail = s;
  ++q.frames;
  q.bytes += f.bytes;
  if (q.bytes > q.watermark) q.watermark = q.bytes;
  return true;
}

QueuedFrame QueueStore::pop(uint32_t queue) {
  Fifo& q = queues_[queue];
  const uint32_t s = q.head;
  q.head = next_[s];
  if (q.head == kNil) q.tail = kNil;
  --q.frames;
  q.bytes -= slots_[s].bytes;
  next_[s] = free_;
  free_ = s;
  return slots_[s];
}

}  // namespace rtb::sw
