// A barrier for a few threads that meet thousands of times a second (parallel virtual
// time's windows): a waiter spins on the generation for a few microseconds, pausing, then
// yields its core a few times, then blocks (C++20 atomic wait: a futex). A thread that
// arrives a little early is released without a futex wake-up (tens of microseconds on a
// VM); with more threads than free cores (other processes beside the run) a waiter gives
// its core up soon; threads parked between runs cost nothing. Sense reversal by generation
// count (Mellor-Crummey and Scott, "Algorithms for scalable synchronization on shared-memory
// multiprocessors", 1991): everything a thread wrote before arrive_and_wait() is visible to
// every thread after it.
#pragma once

#include <atomic>
#include <cstdint>
#include <thread>

#include <immintrin.h>

namespace rtb::runtime {

class SpinBarrier {
 public:
  explicit SpinBarrier(uint32_t threads) : threads_(threads) {}

  void arrive_and_wait() {
    const uint32_t generation = generation_.load(std::memory_order_acquire);
    if (arrived_.fetch_add(1, std::memory_order_acq_rel) + 1 == threads_) {
      arrived_.store(0, std::memory_order_relaxed);  // before the release below: reused at once
      generation_.store(generation + 1, std::memory_order_release);
      generation_.notify_all();
      return;
    }
    for (uint32_t spins = 0; spins < kSpins + kYields; ++spins) {
      if (generation_.load(std::memory_order_acquire) != generation) return;
      if (spins < kSpins) {
        _mm_pause();
      } else {
        std::this_thread::yield();
      }
    }
    while (generation_.load(std::memory_order_acquire) == generation) {
      generation_.wait(generation, std::memory_order_acquire);
    }
  }

 private:
  static constexpr uint32_t kSpins = 256;  // about 10 us of pause instructions
  static constexpr uint32_t kYields = 16;
  const uint32_t threads_;
  alignas(64) std::atomic<uint32_t> arrived_{0};
  alignas(64) std::atomic<uint32_t> generation_{0};
};

}  // namespace rtb::runtime
