// Happens-before edges that ThreadSanitizer cannot see by itself. DPDK's libraries are not
// built with -fsanitize=thread, so the release/acquire pair inside an rte_ring that hands a
// frame from one lcore to another (net_ring's tx and rx burst, ring_pair()) is invisible to
// it, and every byte of that frame would look racy. The code that hands frames through
// such a ring marks the two ends here: release() before the enqueue, acquire() after a
// dequeue that returned frames, on one address per ring (the TSan interface functions
// __tsan_release / __tsan_acquire, compiler-rt tsan_interface.h). Without the sanitizer
// both compile to nothing.
#pragma once

#if defined(__SANITIZE_THREAD__)  // GCC
#define RTB_THREAD_SANITIZER 1
#elif defined(__has_feature)  // Clang
#if __has_feature(thread_sanitizer)
#define RTB_THREAD_SANITIZER 1
#endif
#endif

#ifdef RTB_THREAD_SANITIZER
extern "C" void __tsan_acquire(void* addr);
extern "C" void __tsan_release(void* addr);
#endif

namespace rtb::race_detector {

// `sync` names the channel (any address both sides agree on); null: none.
inline void release([[maybe_unused]] void* sync) {
#ifdef RTB_THREAD_SANITIZER
  if (sync != nullptr) __tsan_release(sync);
#endif
}

inline void acquire([[maybe_unused]] void* sync) {
#ifdef RTB_THREAD_SANITIZER
  if (sync != nullptr) __tsan_acquire(sync);
#endif
}

}  // namespace rtb::race_detector
