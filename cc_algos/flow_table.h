// Per-flow algorithm state in one contiguous, aligned arena: `flows` slots of the
// algorithm's declared state size, reserved at start-up (style habit 6: nothing allocates
// on the fast path; no fixed global budget that a larger algorithm such as HPCC would
// overflow).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>

#include "cc_algos/algorithm.h"
#include "core/error.h"

namespace rtb::cc {

class FlowTable {
 public:
  // Refuses 0 flows and arenas above 16 GiB with a message naming the arithmetic.
  static Expected<FlowTable> create(const Algorithm& algorithm, size_t flows);

  void* state(size_t flow) { return arena_.get() + flow * stride_; }
  const void* state(size_t flow) const { return arena_.get() + flow * stride_; }
  size_t flows() const { return flows_; }
  size_t stride() const { return stride_; }  // state size rounded up to the alignment
  size_t bytes() const { return flows_ * stride_; }

 private:
  struct Free {
    size_t align;
    void operator()(std::byte* p) const { ::operator delete(p, std::align_val_t(align)); }
  };
  FlowTable(std::unique_ptr<std::byte[], Free> arena, size_t flows, size_t stride)
      : arena_(std::move(arena)), flows_(flows), stride_(stride) {}
  std::unique_ptr<std::byte[], Free> arena_;
  size_t flows_;
  size_t stride_;
};

}  // namespace rtb::cc
