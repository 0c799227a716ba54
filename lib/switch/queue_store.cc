#include "switch/queue_store.h"

namespace rtb::sw {

QueueStore::QueueStore(uint32_t queues, uint32_t slots)
    : slots_(slots), next_(slots), queues_(queues) {}

bool QueueStore::push(uint32_t queue, const QueuedFrame& f) {
  uint32_t s;
  if (free_ != kNil) {
    s = free_;
    free_ = next_.at[s];
  } else if (fresh_ < slots_.n) {
    s = fresh_++;
  } else {
    return false;
  }
  slots_.at[s] = f;
  next_.at[s] = kNil;
  Fifo& q = queues_[queue];
  if (q.tail == kNil) {
    q.head = s;
  } else {
    next_.at[q.tail] = s;
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
  q.head = next_.at[s];
  if (q.head == kNil) q.tail = kNil;
  --q.frames;
  q.bytes -= slots_.at[s].bytes;
  next_.at[s] = free_;
  free_ = s;
  return slots_.at[s];
}

}  // namespace rtb::sw
