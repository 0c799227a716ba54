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
//  - exhaustion follows one rule per pool, chosen once by the clock of the run (README.md
//    beside this file): OnEmpty::kFatal (virtual time) ends the process with
//    exhaustion_message(), because there a missing mbuf is a sizing error and must never
//    look like packet loss; OnEmpty::kCount (realtime) counts it and alloc() returns
//    nullptr, and the stage counts it too and builds the frame later or not at all;
//  - populated up front (every mbuf written at creation: what a DPDK port's queues need),
//    or, with Populate::kOnDemand, in chunks as the run needs them: a first chunk of at most
//    kFirstChunk mbufs, then the pool doubles whenever an alloc() finds it empty, up to
//    `count`. The process's memory and the time to start then follow the mbufs a run uses
//    instead of the worst case it was sized for (a switch buffer full of the smallest
//    frames). Only for a pool that one thread allocates from (virtual time): a new chunk is
//    written before any of its mbufs is handed out. Its chunks are mapped from the kernel,
//    not taken from DPDK memory (its mbufs never reach a device), and so is the ring of
//    a one-thread pool (mapped_ring_ops.h): the EAL's -m needs to hold at most its ring
//    and header (PoolSizes::metadata_bytes());
//  - peak in-use tracked on every alloc() (exact with cache_size 0, as in virtual mode;
//    with caches, objects cached by other lcores count as in use). Lcores of a realtime run
//    share a pool, so the counters are kept per lcore, each written by its lcore only
//    (style habit 7), and peak_in_use() / alloc_failures() combine them: read them when
//    no other lcore allocates (after the run).
//
// Public API:
//   auto p = MbufPool::create({.name = "data", .count = n, .data_room = room,
//                              .pattern = &wire::payload_byte});
//   rte_mbuf* m = p.value().alloc();              // nullptr only with OnEmpty::kCount
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
#include <vector>

#include "core/error.h"
#include "runtime/pool/mbuf_pool_meta.h"

namespace rtb::runtime {

// Byte `offset` of every payload (e.g. rtb::wire::payload_byte).
using PayloadPattern = uint8_t (*)(uint32_t offset);

// What alloc() does when the pool is empty. A run picks it once, from its clock.
enum class OnEmpty : uint8_t {
  kFatal,  // virtual time: stderr gets exhaustion_message(), the process exits (code 1)
  kCount,  // realtime: alloc_failures() counts it, alloc() returns nullptr, the run goes on
};

// When the pool's mbufs are written: all at creation, or in chunks as alloc() needs them
// (a pool that one thread allocates from: virtual time).
enum class Populate : uint8_t { kUpFront, kOnDemand };

struct MbufPoolSpec {
  std::string name;                  // unique in the process, at most 25 characters
  uint32_t count = 0;
  uint16_t data_room = 0;            // includes RTE_PKTMBUF_HEADROOM
  uint32_t cache_size = 0;           // per lcore; 0 in virtual mode
  PayloadPattern pattern = nullptr;  // nullptr: zero-filled (control frames)
  int socket = SOCKET_ID_ANY;
  bool iova_contiguous = false;      // true drops NO_IOVA_CONTIG (only to measure the cost)
  OnEmpty on_empty = OnEmpty::kFatal;
  Populate populate = Populate::kUpFront;
  // Every allocation and every free on one thread (a virtual run of one partition): an
  // on-demand pool's ring is then mapped from the kernel (mapped_ring_ops.h). Otherwise it
  // is DPDK's own ring driver, which runs inside DPDK: frames freed on another partition's
  // thread are handed over by its atomics, out of ThreadSanitizer's sight (like the
  // realtime rings: lib/core/race_detector.h).
  bool one_thread = false;
  // The end of exhaustion_message(): how this pool was sized and which setting gives it
  // more mbufs (for a scenario run: the run.*_mbufs key). Empty: a generic hint.
  std::string resize_hint;
};

class MbufPool {
 public:
  // Errors: count 0, data room too small for the headroom, name too long or taken, not
  // enough EAL memory (the message gives the bytes needed and what to raise).
  static Expected<MbufPool> create(const MbufPoolSpec& spec);
  // The first chunk of an on-demand pool.
  static constexpr uint32_t kFirstChunk = 4096;

  MbufPool(MbufPool&& o) noexcept;
  MbufPool& operator=(MbufPool&& o) noexcept;
  MbufPool(const MbufPool&) = delete;
  MbufPool& operator=(const MbufPool&) = delete;
  ~MbufPool();

  // An mbuf with its metadata zeroed. When the pool is empty: counted in
  // alloc_failures(), then OnEmpty::kFatal ends the process with exhaustion_message() and
  // OnEmpty::kCount returns nullptr.
  rte_mbuf* alloc();

  // "mbuf pool 'X' is exhausted: all N configured mbufs are in use and another was
  // needed, so the run needs at least N+1 ..." with the resize hint.
  std::string exhaustion_message() const;
  OnEmpty on_empty() const { return on_empty_; }
  // Error naming the pool when mbufs are still in use (all must be back at the end).
  Status check_no_leaks() const;

  const std::string& name() const { return name_; }
  rte_mempool* mempool() const { return mp_; }
  // The configured count; an on-demand pool has written populated() of them so far.
  uint32_t size() const { return mp_->size; }
  uint32_t populated() const { return mp_->populated_size; }
  uint32_t in_use() const { return populated() - available(); }
  uint32_t available() const { return rte_mempool_avail_count(mp_); }
  uint32_t peak_in_use() const;
  uint64_t alloc_failures() const;
  // Memory the pool's objects occupy (so far, for an on-demand pool), measured with
  // rte_mempool_mem_iter.
  uint64_t memory_bytes() const;

 private:
  // One lcore's counters, on a cache line of their own; the last slot is for threads that
  // are not EAL lcores.
  struct alignas(64) LcoreCounters {
    uint32_t peak_in_use = 0;
    uint64_t alloc_failures = 0;
  };
  using Counters = std::array<LcoreCounters, RTE_MAX_LCORE + 1>;

  MbufPool(rte_mempool* mp, const MbufPoolSpec& spec, std::vector<uint8_t> payload)
      : mp_(mp), name_(spec.name), on_empty_(spec.on_empty), on_demand_(spec.populate == Populate::kOnDemand),
        resize_hint_(spec.resize_hint), payload_(std::move(payload)),
        counters_(std::make_unique<Counters>()) {}
  Status populate_chunk(uint32_t count);
  void initialise_from(uint32_t first);
  LcoreCounters& mine();
  LcoreCounters& of_lcore(unsigned lcore);
  void note_in_use(unsigned lcore, const rte_mempool_cache* cache);
  rte_mbuf* exhausted();
  bool grow();
  [[noreturn]] void die_exhausted() const;

  rte_mempool* mp_ = nullptr;
  std::string name_;
  OnEmpty on_empty_ = OnEmpty::kFatal;
  bool on_demand_ = false;
  std::string resize_hint_;
  std::vector<uint8_t> payload_;  // what every data room holds after the headroom
  std::unique_ptr<Counters> counters_;
};

}  // namespace rtb::runtime
