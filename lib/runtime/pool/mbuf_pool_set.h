// The pools of a run: a large one for data frames, a small one for ACK, NAK, CNP and PFC
// frames (so control frames are never starved by data), and the end-of-run leak check.
//
// Public API:
//   auto sizes = size_pools(config);                       // mbuf_pool_sizing.h
//   auto pools = PoolSet::create(sizes.value(), &wire::payload_byte, "rtb", OnEmpty::kFatal);
//   rte_mbuf* d = pools.value().data().alloc();
//   rte_mbuf* c = pools.value().control().alloc();
//   ...
//   Status s = pools.value().check_no_leaks();             // names each pool that leaked
#pragma once

#include <string>

#include "core/error.h"
#include "runtime/pool/mbuf_pool.h"
#include "runtime/pool/mbuf_pool_sizing.h"

namespace rtb::runtime {

class PoolSet {
 public:
  // Pools "<prefix>_data" (payload pattern) and "<prefix>_ctrl" (zero-filled), both
  // with `on_empty` and `populate` (the run's clock decides them: README.md beside this
  // file) and `one_thread` (MbufPoolSpec).
  static Expected<PoolSet> create(const PoolSizes& sizes, PayloadPattern data_pattern,
                                  const std::string& prefix = "rtb",
                                  OnEmpty on_empty = OnEmpty::kFatal,
                                  Populate populate = Populate::kUpFront,
                                  bool one_thread = false);

  MbufPool& data() { return data_; }
  MbufPool& control() { return control_; }
  const MbufPool& data() const { return data_; }
  const MbufPool& control() const { return control_; }

  // OK when every pool is back at its starting count; otherwise one error naming each
  // pool that is not and by how many mbufs.
  Status check_no_leaks() const;

 private:
  PoolSet(MbufPool data, MbufPool control)
      : data_(std::move(data)), control_(std::move(control)) {}

  MbufPool data_;
  MbufPool control_;
};

}  // namespace rtb::runtime
