#include "core/mapped_array.h"

#include <sys/mman.h>

#include "core/huge_page_allocator.h"

namespace rtb {
namespace {

constexpr size_t kPage = 4096;

size_t round_up(size_t bytes, size_t unit) { return (bytes + unit - 1) / unit * unit; }

}  // namespace

size_t whole_huge_pages(size_t bytes) { return round_up(bytes, kHugePageBytes); }

void* map_huge_aligned(size_t len) {
  auto* raw = static_cast<char*>(
      mmap(nullptr, len + kHugePageBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
  if (raw == MAP_FAILED) return MAP_FAILED;
  const auto addr = reinterpret_cast<uintptr_t>(raw);
  char* mem = raw + (round_up(addr, kHugePageBytes) - addr);
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
                : mmap(nullptr, round_up(bytes, kPage), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  return p == MAP_FAILED ? nullptr : p;
}

void unmap_fresh(void* p, size_t bytes) {
  if (p == nullptr) return;
  munmap(p, bytes >= kHugePageBytes ? whole_huge_pages(bytes) : round_up(bytes, kPage));
}

}  // namespace rtb
