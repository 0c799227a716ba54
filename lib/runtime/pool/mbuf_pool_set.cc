#include "runtime/pool/mbuf_pool_set.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>

namespace rtb::runtime {
namespace {

// DPDK refuses a per-lcore cache whose flush threshold (1.5 x its size) exceeds the pool:
// a pool sized by hand (run.data_mbufs) may be smaller than the cache the plan chose.
uint32_t fitting_cache(uint32_t cache, uint32_t count) {
  return std::min<uint32_t>(cache, static_cast<uint32_t>(uint64_t{count} * 2 / 3));
}

}  // namespace

Expected<PoolSet> PoolSet::create(const PoolSizes& sizes, PayloadPattern data_pattern,
                                  const std::string& prefix, OnEmpty on_empty,
                                  Populate populate, bool one_thread) {
  auto data = MbufPool::create({.name = prefix + "_data",
                                .count = sizes.data_count,
                                .data_room = sizes.data_room,
                                .cache_size = fitting_cache(sizes.cache_size, sizes.data_count),
                                .pattern = data_pattern,
                                .on_empty = on_empty,
                                .populate = populate,
                                .one_thread = one_thread,
                                .resize_hint = sizes.data_resize_hint});
  if (!data) return data.error();
  auto control = MbufPool::create({.name = prefix + "_ctrl",
                                   .count = sizes.control_count,
                                   .data_room = sizes.control_room,
                                   .cache_size = fitting_cache(sizes.cache_size, sizes.control_count),
                                   .pattern = nullptr,
                                   .on_empty = on_empty,
                                   .populate = populate,
                                   .one_thread = one_thread,
                                   .resize_hint = sizes.control_resize_hint});
  if (!control) return control.error();
  return PoolSet(std::move(data).value(), std::move(control).value());
}

Status PoolSet::check_no_leaks() const {
  std::string problems;
  for (const MbufPool* p : {&data_, &control_}) {
    if (Status s = p->check_no_leaks(); !s) {
      problems += (problems.empty() ? "" : "; ") + s.message();
    }
  }
  if (problems.empty()) return {};
  return Error{"mbuf leak at the end of the run: " + problems};
}

}  // namespace rtb::runtime
