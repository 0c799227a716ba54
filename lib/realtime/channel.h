// A bounded single-producer/single-consumer channel between two threads (style habit 7:
// control talks to the data plane only by queues). Counters and samples leave a worker
// lcore through one; control requests reach it through another (control.h).
//
// A thin wrapper over boost::lockfree::spsc_queue<T, capacity<N>>: wait-free, the N slots
// live inside the object (no allocation after construction; a large channel belongs on the
// heap, made at setup). Exactly one thread pushes and exactly one thread pops.
//
// push() returns false when the channel is full and drops nothing else: the producer counts
// the loss (a full channel is a counted event, never a block or a crash, style habit 10).
// The consumer side (the control thread, polling every control period) must drain faster
// than the producer fills: size N for the items produced in a few control periods.
#pragma once

#include <cstddef>
#include <type_traits>

#include <boost/lockfree/spsc_queue.hpp>

namespace rtb::realtime {

template <class T, size_t N>
class Channel {
  // Items are copied bytewise between threads: no owning pointers, no destructors to run.
  static_assert(std::is_trivially_copyable_v<T>, "Channel items must be trivially copyable");
  static_assert(N >= 1, "a Channel needs at least one slot");

 public:
  Channel() = default;
  Channel(const Channel&) = delete;
  Channel& operator=(const Channel&) = delete;

  // Producer thread only. False (and nothing queued) when all N slots are taken.
  bool push(const T& item) { return queue_.push(item); }
  // Consumer thread only. False when empty.
  bool pop(T& out) { return queue_.pop(out); }
  // Consumer thread only: items ready to pop.
  size_t pending() const { return queue_.read_available(); }
  // Producer thread only: free slots.
  size_t room() const { return queue_.write_available(); }

  static constexpr size_t capacity() { return N; }

 private:
  boost::lockfree::spsc_queue<T, boost::lockfree::capacity<N>> queue_;
};

}  // namespace rtb::realtime
