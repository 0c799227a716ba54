#include "runtime/pool/mbuf_pool_set.h"

#include <fmt/format.h>

namespace rtb::runtime {

Expected<PoolSet> PoolSet::create(const PoolSizes& sizes, PayloadPattern data_pattern,
                                  const std::string& prefix, OnEmpty on_empty) {
  auto data = MbufPool::create({.name = prefix + "_data",
                                .count = sizes.data_count,
                                .data_room = sizes.data_room,
                                .cache_size = sizes.cache_size,
                                .pattern = data_pattern,
                                .on_empty = on_empty,
                                .resize_hint = sizes.data_resize_hint});
  if (!data) return data.error();
  auto control = MbufPool::create({.name = prefix + "_ctrl",
                                   .count = sizes.control_count,
                                   .data_room = sizes.control_room,
                                   .cache_size = sizes.cache_size,
                                   .pattern = nullptr,
                                   .on_empty = on_empty,
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
