// Memory fresh from the kernel, for large arrays that a run fills only in part.
//
// Anonymous mappings read as zero and take a page fault, and resident memory, only where
// they are written; malloc may instead hand back memory it has written before, or write
// it itself (glibc's MALLOC_PERTURB_, which meson sets for tests). In a virtual machine a
// page fault costs microseconds. 2 MiB or more are mapped as whole transparent huge pages
// at a huge page boundary: the kernel backs only whole, aligned 2 MiB ranges of a mapping
// with one (Documentation/admin-guide/mm/transhuge.rst), and places a mapping whose length
// is not a multiple of 2 MiB at any 4 KiB page.
#pragma once

#include <cstddef>
#include <cstdint>
#include <new>
#include <type_traits>

#include "core/huge_page_allocator.h"

namespace rtb {

// `len` bytes (whole huge pages) at a huge page boundary, advised huge pages: a mapping one
// huge page longer, trimmed at both ends. MAP_FAILED, as mmap(), on failure.
void* map_huge_aligned(size_t len);

// `bytes` of fresh memory: whole aligned huge pages from 2 MiB on, 4 KiB pages below.
// nullptr on failure. Give it back with unmap_fresh(p, the same bytes).
void* map_fresh(size_t bytes);
void unmap_fresh(void* p, size_t bytes);

// n objects of a trivially copyable T in fresh memory: nothing is constructed, zeroed or
// otherwise written until the owner writes an element, which it does before reading it.
template <class T>
class MappedArray {
  static_assert(std::is_trivially_copyable_v<T>);

 public:
  explicit MappedArray(uint32_t n) : n_(n), at_(static_cast<T*>(map_fresh(bytes()))) {
    if (n_ != 0 && at_ == nullptr) throw std::bad_alloc();
  }
  ~MappedArray() { unmap_fresh(at_, bytes()); }
  MappedArray(const MappedArray&) = delete;
  MappedArray& operator=(const MappedArray&) = delete;

  uint32_t size() const { return n_; }
  T& operator[](uint32_t i) { return at_[i]; }
  const T& operator[](uint32_t i) const { return at_[i]; }

 private:
  size_t bytes() const { return size_t{n_} * sizeof(T); }
  uint32_t n_;
  T* at_;
};

}  // namespace rtb
