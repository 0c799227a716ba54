// The control thread of a realtime run: a plain std::thread, not pinned to any lcore's
// core (its affinity is reset to every CPU, since it inherits the EAL main lcore's), that
// mostly sleeps. It calls `control` at once, then every `period`, until finish(); then once
// more, so whatever the workers pushed last is drained. Workers never wait for it.
//
// `control` drains the channels from the workers (counters, samples), pushes requests to
// them, and may call RealtimeScheduler::request_stop(). It must not throw.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>

namespace rtb::realtime {

class ControlThread {
 public:
  // Starts the thread unless `control` is empty.
  ControlThread(std::function<void()> control, std::chrono::microseconds period);
  ~ControlThread();
  ControlThread(const ControlThread&) = delete;
  ControlThread& operator=(const ControlThread&) = delete;

  // Wakes the thread, which calls control() a last time and ends; joins it. Idempotent.
  void finish();
  uint64_t calls() const { return calls_; }  // after finish()

 private:
  void main();

  std::function<void()> control_;
  std::chrono::microseconds period_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool done_ = false;
  uint64_t calls_ = 0;
  std::thread thread_;
};

}  // namespace rtb::realtime
