// An mbuf pool the way the design wants it (design.md "Memory and mbufs"):
//  - created with RTE_MEMPOOL_F_NO_IOVA_CONTIG, so without hugepages an mbuf costs about
//    its own size (2.4 KB for a 2 KB data room) instead of a whole 4 KiB page;
//  - private area = FrameMeta (mbuf_pool_meta.h), zeroed by alloc();
//  - payload written once: at creation every mbuf's data room from RTE_PKTMBUF_HEADROOM on
//    holds pattern(0), pattern(1), ... (zeros when no pattern is given). A fresh mbuf's
//    rte_pktmbuf_mtod() therefore points at payload byte 0: builders prepend headers into
//    the headroom and append only the length, never touching payload bytes. The wire
//    layer's mbuf builders (wire/mbuf_frame.h) restore the bytes a frame's tail (pad,
//    ICRC) overwrote before the mbuf's next build, so every frame finds the pattern;
//  - exhaustion: alloc() returns nullptr and counts it (realtime); alloc_or_die() ends the
//    process with exhaustion_message() (virtual mode, where a missing mbuf is a
//    configuration error and must never look like packet loss);
//  - peak in-use tracked on every alloc() (exact with cache_size 0, as in virtual mode;
//    with caches, objects cached by other lcores count as in use). Lcores of a realtime run
//    share a pool, so the counters are kept per lcore, each written by its lcore only
//    (style habit 7), and peak_in_use() / alloc_failures() combine them: read them when
//    no other lcore allocates (after the run).
//
// Public API:
//   auto p = MbufPool::create({.name = "data", .count = n, .data_room = room,
//                              .pattern = &wire::payload_byte});
//   rte_mbuf* m = p.value().alloc();              // or alloc_or_die()
//   frame_meta(m).flow_id = 7;
//   rte_pktmbuf_free(m);                          // frees go straight to DPDK
//   p.value().check_no_leaks();                   // Status naming the pool and the count
#pragma once

#include <rte_mbuf.h>
#include <rte_mempool.h>

#include <array>
#include <cstdint>
#include <memory>
#include <string>

#include "core/error.h"
#include "runtime/pool/mbuf_pool_meta.h"

namespace rtb::runtime {

// Byte `offset` of every payload (e.g. rtb::wire::payload_byte).
using PayloadPattern = uint8_t (*)(uint32_t offset);

struct MbufPoolSpec {
  std::string name;                  // unique in the process, at most 25 characters
  uint32_t count = 0;
  uint16_t data_room = 0;            // includes RTE_PKTMBUF_HEADROOM
  uint32_t cache_size = 0;           // per lcore; 0 in virtual mode
  PayloadPattern pattern = nullptr;  // nullptr: zero-filled (control frames)
  int socket = SOCKET_ID_ANY;
  bool iova_contiguous = false;      // true drops NO_IOVA_CONTIG (only to measure the cost)
};

class MbufPool {
 public:
  // Errors: count 0, data room too small for the headroom, name too long or taken, not
  // enough EAL memory (the message gives the bytes needed and what to raise).
  static Expected<MbufPool> create(const MbufPoolSpec& spec);

  MbufPool(MbufPool&& o) noexcept;
  MbufPool& operator=(MbufPool&& o) noexcept;
  MbufPool(const MbufPool&) = delete;
  MbufPool& operator=(const MbufPool&) = delete;
  ~MbufPool();

  // nullptr when empty (counted in alloc_failures()); metadata zeroed.
  rte_mbuf* alloc();
  // Virtual mode: an empty pool ends the process with exhaustion_message() on stderr.
  rte_mbuf* alloc_or_die();

  // "mbuf pool 'X' is exhausted: all N configured mbufs are in use and another was
  // needed, so the run needs at least N+1 ..." with what to change.
  std::string exhaustion_message() const;
  // Error naming the pool when mbufs are still in use (all must be back at the end).
  Status check_no_leaks() const;

  const std::string& name() const { return name_; }
  rte_mempool* mempool() const { return mp_; }
  uint32_t size() const { return mp_->size; }
  uint32_t in_use() const { return rte_mempool_in_use_count(mp_); }
  uint32_t available() const { return rte_mempool_avail_count(mp_); }
  uint32_t peak_in_use() const;
  uint64_t alloc_failures() const;
  // Memory the pool's objects occupy, measured with rte_mempool_mem_iter.
  uint64_t memory_bytes() const;

 private:
  // One lcore's counters, on a cache line of their own; the last slot is for threads that
  // are not EAL lcores.
  struct alignas(64) LcoreCounters {
    uint32_t peak_in_use = 0;
    uint64_t alloc_failures = 0;
  };
  using Counters = std::array<LcoreCounters, RTE_MAX_LCORE + 1>;

  MbufPool(rte_mempool* mp, std::string name)
      : mp_(mp), name_(std::move(name)), counters_(std::make_unique<Counters>()) {}
  LcoreCounters& mine();
  void note_in_use();

  rte_mempool* mp_ = nullptr;
  std::string name_;
  std::unique_ptr<Counters> counters_;
};

}  // namespace rtb::runtime
