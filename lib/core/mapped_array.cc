#include "core/mapped_array.h"

#include <sys/mman.h>

namespace rtb {

void* map_huge_aligned(size_t len) {
  auto* raw = static_cast<char*>(
      mmap(nullptr, len + kHugePageBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
  if (raw == MAP_FAILED) return MAP_FAILED;
  const auto addr = reinterpret_cast<uintptr_t>(raw);
  char* mem = raw + (whole_huge_pages(addr) - addr);
  const auto head = static_cast<size_t>(mem - raw);
  if (head > 0) munmap(raw, head);
  munmap(mem + len, kHugePageBytes - head);
  madvise(mem, len, MADV_HUGEPAGE);  // advice: ordinary pages without THP
  return mem;
}

void* map_fresh(size_t bytes) {
  if (bytes == 0) return nullptr;
  void* p = bytes >= kHugePageBytes
                ? map_huge_aligned(whole_huge_pages(bytes))
                : mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  return p == MAP_FAILED ? nullptr : p;
}

void unmap_fresh(void* p, size_t bytes) {
  if (p == nullptr) return;
  munmap(p, bytes >= kHugePageBytes ? whole_huge_pages(bytes) : bytes);  // the kernel rounds up to pages
}

}  // namespace rtb
