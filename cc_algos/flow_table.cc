#include "cc_algos/flow_table.h"

#include <fmt/format.h>

#include <cstring>

namespace rtb::cc {

namespace {
constexpr uint64_t kMaxArenaBytes = uint64_t{16} << 30;
}

Expected<FlowTable> FlowTable::create(const Algorithm& algorithm, size_t flows) {
  const size_t align = algorithm.state_align();
  const size_t stride = (algorithm.state_bytes() + align - 1) / align * align;
  if (flows == 0)
    return Error{fmt::format("flow table for '{}': 0 flows; expected at least 1", algorithm.name())};
  if (flows > kMaxArenaBytes / stride)
    return Error{fmt::format("flow table for '{}': {} flows x {} bytes of state exceeds the {} GiB "
                             "limit",
                             algorithm.name(), flows, stride, kMaxArenaBytes >> 30)};
  const size_t bytes = flows * stride;
  auto* p = static_cast<std::byte*>(::operator new(bytes, std::align_val_t(align)));
  std::memset(p, 0, bytes);
  return FlowTable(std::unique_ptr<std::byte[], Free>(p, Free{align}), flows, stride);
}

}  // namespace rtb::cc
