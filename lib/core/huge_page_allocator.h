// A std::allocator that backs large arrays (2 MiB or more) with transparent huge pages
// where the kernel offers them (madvise(MADV_HUGEPAGE); "madvise" mode in
// /sys/kernel/mm/transparent_hugepage/enabled). For arrays read at random (the pacer's
// flow records and chunk pool): with 4 KiB pages nearly every such read also misses the
// TLB, and in a virtual machine each TLB miss is a two-dimensional page walk. And for
// large tables written at start-up (the ICRC tables): one page fault per 2 MiB instead of
// 512, each of which costs microseconds in a virtual machine. Set-up only: allocate
// before the fast path runs. Without THP the advice is ignored and the memory is ordinary
// pages.
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>

namespace rtb {

// The x86-64 transparent huge page: the kernel backs only whole, aligned ranges of it.
inline constexpr size_t kHugePageBytes = size_t{2} << 20;

// `bytes` rounded up to whole huge pages.
constexpr size_t whole_huge_pages(size_t bytes) { return (bytes + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes; }

template <class T>
struct HugePageAllocator {
  using value_type = T;
  static constexpr size_t kHuge = kHugePageBytes;

  HugePageAllocator() = default;
  template <class U>
  HugePageAllocator(const HugePageAllocator<U>&) {}  // NOLINT: rebinding converts implicitly

  // No larger than an object may be (rounded up to a whole huge page).
  static constexpr size_t max_size() { return (PTRDIFF_MAX - kHuge) / sizeof(T); }

  T* allocate(size_t n) {
    if (n > max_size()) throw std::bad_array_new_length();
    const size_t bytes = n * sizeof(T);
    if (bytes < kHuge) return std::allocator<T>().allocate(n);
    const size_t rounded = whole_huge_pages(bytes);
    void* p = std::aligned_alloc(kHuge, rounded);
    if (p == nullptr) throw std::bad_alloc();
    madvise(p, rounded, MADV_HUGEPAGE);  // advice only: failure leaves ordinary pages
    return static_cast<T*>(p);
  }
  void deallocate(T* p, size_t n) {
    if (n * sizeof(T) < kHuge) return std::allocator<T>().deallocate(p, n);
    std::free(p);
  }
  template <class U>
  bool operator==(const HugePageAllocator<U>&) const { return true; }
};

}  // namespace rtb
