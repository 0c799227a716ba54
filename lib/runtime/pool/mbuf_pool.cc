#include "runtime/pool/mbuf_pool.h"

#include "runtime/pool/mapped_ring_ops.h"

#include "core/mapped_array.h"

#include <rte_common.h>
#include <rte_debug.h>
#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_mbuf_pool_ops.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cassert>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <utility>
#include <vector>

#include <fmt/format.h>

namespace rtb::runtime {
namespace {

// rte_mempool_obj_iter callback context: the objects from `first` on are new.
struct InitContext {
  const std::vector<uint8_t>* payload;  // the pattern over the data room after the headroom
  uint32_t first;
};

// rte_mempool_obj_iter callback: a new object becomes an mbuf (rte_pktmbuf_init) whose
// headroom is zero and whose data room holds the payload pattern after it.
void init_mbuf(rte_mempool* mp, void* opaque, void* obj, unsigned idx) {
  const auto& ctx = *static_cast<const InitContext*>(opaque);
  if (idx < ctx.first) return;
  rte_pktmbuf_init(mp, nullptr, obj, idx);
  auto* m = static_cast<rte_mbuf*>(obj);
  auto* buf = static_cast<uint8_t*>(m->buf_addr);
  std::memset(buf, 0, RTE_PKTMBUF_HEADROOM);
  std::memcpy(buf + RTE_PKTMBUF_HEADROOM, ctx.payload->data(), ctx.payload->size());
}

// rte_mempool_memchunk_free_cb_t of a chunk an on-demand pool mapped itself.
void unmap_chunk(rte_mempool_memhdr* chunk, void*) { munmap(chunk->addr, whole_huge_pages(chunk->len)); }

void add_chunk_len(rte_mempool*, void* opaque, rte_mempool_memhdr* memhdr, unsigned) {
  *static_cast<uint64_t*>(opaque) += memhdr->len;
}

Status check_spec(const MbufPoolSpec& s) {
  if (s.count == 0) {
    return Error{fmt::format("mbuf pool '{}': count is 0; a pool needs at least one mbuf "
                             "(see size_pools())", s.name)};
  }
  if (s.data_room <= RTE_PKTMBUF_HEADROOM) {
    return Error{fmt::format("mbuf pool '{}': data room of {} bytes leaves no room for a "
                             "frame after the {}-byte headroom", s.name, s.data_room,
                             RTE_PKTMBUF_HEADROOM)};
  }
  if (s.name.empty() || s.name.size() >= RTE_MEMPOOL_NAMESIZE) {
    return Error{fmt::format("mbuf pool name '{}' must have 1 to {} characters", s.name,
                             RTE_MEMPOOL_NAMESIZE - 1)};
  }
  if (rte_mempool_lookup(s.name.c_str()) != nullptr) {
    return Error{fmt::format("mbuf pool '{}' already exists in this process; give each pool "
                             "a unique name", s.name)};
  }
  return {};
}

Expected<rte_mempool*> create_empty(const MbufPoolSpec& s) {
  const unsigned flags = s.iova_contiguous ? 0 : RTE_MEMPOOL_F_NO_IOVA_CONTIG;
  const unsigned elt = sizeof(rte_mbuf) + sizeof(FrameMeta) + s.data_room;
  rte_mempool* mp = rte_mempool_create_empty(s.name.c_str(), s.count, elt, s.cache_size,
                                             sizeof(rte_pktmbuf_pool_private), s.socket, flags);
  if (mp == nullptr) {
    return Error{fmt::format("cannot create mbuf pool '{}' ({} mbufs, cache {}): {}; is the "
                             "EAL started (start_eal())?", s.name, s.count, s.cache_size,
                             rte_strerror(rte_errno))};
  }
  // A pool one thread uses keeps its ring out of the DPDK heap (mapped_ring_ops.h).
  const bool mapped = s.populate == Populate::kOnDemand && s.one_thread;
  const char* ops = mapped ? mapped_ring_ops_name() : rte_mbuf_best_mempool_ops();
  if (rte_mempool_set_ops_byname(mp, ops, nullptr) != 0) {
    rte_mempool_free(mp);
    return Error{fmt::format("mbuf pool '{}': mempool driver '{}' is not available", s.name, ops)};
  }
  return mp;
}

Status populate(rte_mempool* mp, const MbufPoolSpec& s) {
  const int n = rte_mempool_populate_default(mp);
  if (n < 0 || static_cast<uint32_t>(n) < s.count) {
    const uint64_t bytes = uint64_t{s.count} * (mp->header_size + mp->elt_size);
    return Error{fmt::format("cannot allocate mbuf pool '{}': {} mbufs of {} bytes need about "
                             "{} MB of DPDK memory ({}); raise EAL memory (-m, "
                             "EalOptions::memory_mb or pool_bytes) or lower the pool size",
                             s.name, s.count, mp->header_size + mp->elt_size,
                             (bytes >> 20) + 1, rte_strerror(n < 0 ? -n : ENOMEM))};
  }
  return {};
}

}  // namespace

Expected<MbufPool> MbufPool::create(const MbufPoolSpec& spec) {
  if (Status s = check_spec(spec); !s) return Error{s.message()};
  auto mp = create_empty(spec);
  if (!mp) return mp.error();
  rte_pktmbuf_pool_private priv{};
  priv.mbuf_data_room_size = spec.data_room;
  priv.mbuf_priv_size = sizeof(FrameMeta);
  rte_pktmbuf_pool_init(mp.value(), &priv);
  std::vector<uint8_t> payload(spec.data_room - RTE_PKTMBUF_HEADROOM, 0);
  if (spec.pattern != nullptr) {
    for (uint32_t i = 0; i < payload.size(); ++i) payload[i] = spec.pattern(i);
  }
  MbufPool pool(mp.value(), spec, std::move(payload));  // frees the mempool on an error
  if (spec.populate == Populate::kOnDemand) {
    if (Status s = pool.populate_chunk(std::min(spec.count, kFirstChunk)); !s) {
      return Error{s.message()};
    }
  } else if (Status s = populate(mp.value(), spec); !s) {
    return Error{s.message()};
  }
  pool.initialise_from(0);
  return pool;
}

// `count` more objects, not yet mbufs (initialise_from()), in memory mapped from the
// kernel rather than taken from the DPDK heap: an on-demand pool's mbufs never meet a
// device (one thread, virtual time), so they need no DPDK memory, and the EAL's -m, whose
// start-up cost grows with its size, holds only the pools' rings and headers
// (PoolSizes::metadata_bytes()). The pages are written as initialise_from() reaches them,
// on transparent huge pages where the kernel offers them: one fault per 2 MiB instead of
// 512, each of which costs microseconds in a virtual machine, and fewer TLB misses.
Status MbufPool::populate_chunk(uint32_t count) {
  size_t min_chunk = 0;
  size_t align = 0;
  const ssize_t bytes = rte_mempool_op_calc_mem_size_default(mp_, count, 0, &min_chunk, &align);
  if (bytes <= 0) {
    return Error{fmt::format("cannot grow mbuf pool '{}' by {} mbufs: {}", name_, count,
                             rte_strerror(bytes < 0 ? static_cast<int>(-bytes) : EINVAL))};
  }
  // A page-aligned mapping satisfies the alignment the mempool asks for (a cache line).
  assert(align <= static_cast<size_t>(sysconf(_SC_PAGESIZE)));
  // Whole, aligned huge pages (core/mapped_array.h says why): a 6 MiB chunk mapped as it
  // came got one huge page and about a thousand 4 KiB faults.
  const size_t mapped = whole_huge_pages(static_cast<size_t>(bytes));
  void* mem = map_huge_aligned(mapped);
  if (mem == MAP_FAILED) {
    return Error{fmt::format("cannot grow mbuf pool '{}' by {} mbufs ({} in it): mapping {} MiB "
                             "failed: {}; the machine's memory (or the process's limit) is "
                             "exhausted; lower the buffers the pool is sized from",
                             name_, count, mp_->populated_size, mapped >> 20, std::strerror(errno))};
  }
  const int n = rte_mempool_populate_iova(mp_, static_cast<char*>(mem), RTE_BAD_IOVA,
                                          static_cast<size_t>(bytes), unmap_chunk, nullptr);
  if (n <= 0) {
    munmap(mem, mapped);
    return Error{fmt::format("cannot grow mbuf pool '{}' by {} mbufs: {}", name_, count,
                             rte_strerror(n < 0 ? -n : ENOBUFS))};
  }
  return {};
}

void MbufPool::initialise_from(uint32_t first) {
  InitContext ctx{&payload_, first};
  rte_mempool_obj_iter(mp_, init_mbuf, &ctx);
}

// An on-demand pool found empty: twice its mbufs, at most its configured count. A single
// thread allocates from such a pool, so the new mbufs are written before any is taken.
bool MbufPool::grow() {
  const uint32_t have = mp_->populated_size;
  if (!on_demand_ || have >= mp_->size) return false;
  if (Status s = populate_chunk(std::min(have, mp_->size - have)); !s) {
    std::fprintf(stderr, "rocetb: %s\n", s.message().c_str());
    return false;
  }
  initialise_from(have);
  return true;
}

MbufPool::MbufPool(MbufPool&& o) noexcept
    : mp_(std::exchange(o.mp_, nullptr)), name_(std::move(o.name_)), on_empty_(o.on_empty_),
      on_demand_(o.on_demand_), resize_hint_(std::move(o.resize_hint_)),
      payload_(std::move(o.payload_)), counters_(std::move(o.counters_)) {}

MbufPool& MbufPool::operator=(MbufPool&& o) noexcept {
  if (this != &o) {
    if (mp_ != nullptr) rte_mempool_free(mp_);
    mp_ = std::exchange(o.mp_, nullptr);
    name_ = std::move(o.name_);
    on_empty_ = o.on_empty_;
    on_demand_ = o.on_demand_;
    resize_hint_ = std::move(o.resize_hint_);
    payload_ = std::move(o.payload_);
    counters_ = std::move(o.counters_);
  }
  return *this;
}

MbufPool::~MbufPool() {
  if (mp_ != nullptr) rte_mempool_free(mp_);
}

MbufPool::LcoreCounters& MbufPool::mine() { return of_lcore(rte_lcore_id()); }

MbufPool::LcoreCounters& MbufPool::of_lcore(unsigned lcore) {
  return (*counters_)[lcore < RTE_MAX_LCORE ? lcore : RTE_MAX_LCORE];
}

uint32_t MbufPool::peak_in_use() const {
  uint32_t peak = 0;
  for (const LcoreCounters& c : *counters_) peak = std::max(peak, c.peak_in_use);
  return peak;
}

uint64_t MbufPool::alloc_failures() const {
  uint64_t n = 0;
  for (const LcoreCounters& c : *counters_) n += c.alloc_failures;
  return n;
}

// In use = populated - (objects in the pool's ring + this lcore's cache). O(1): it does not
// visit the other lcores' caches, which rte_mempool_avail_count() would.
void MbufPool::note_in_use(unsigned lcore, const rte_mempool_cache* cache) {
  // rte_mempool_ops_get_count() is not exported; call the driver's get_count directly.
  uint32_t avail = rte_mempool_get_ops(mp_->ops_index)->get_count(mp_);
  if (cache != nullptr) avail += cache->len;
  const uint32_t used = mp_->populated_size > avail ? mp_->populated_size - avail : 0;
  uint32_t& peak = of_lcore(lcore).peak_in_use;
  peak = std::max(peak, used);
}

// rte_pktmbuf_alloc() (rte_mempool_get() from the lcore's cache, then rte_pktmbuf_reset()),
// with the lcore id read once: it is a thread-local variable of the EAL's shared library,
// and each read is a call (__tls_get_addr) that the cache, the in-use count and the
// counters would otherwise repeat.
rte_mbuf* MbufPool::alloc() {
  const unsigned lcore = rte_lcore_id();
  rte_mempool_cache* cache = rte_mempool_default_cache(mp_, lcore);
  void* obj = nullptr;
  if (rte_mempool_generic_get(mp_, &obj, 1, cache) < 0) [[unlikely]] {
    if (!grow()) return exhausted();
    if (rte_mempool_generic_get(mp_, &obj, 1, cache) < 0) return exhausted();
  }
  rte_mbuf* m = static_cast<rte_mbuf*>(obj);
  rte_pktmbuf_reset(m);
  note_in_use(lcore, cache);
  frame_meta(m) = FrameMeta{};
  return m;
}

rte_mbuf* MbufPool::exhausted() {
  LcoreCounters& c = mine();
  ++c.alloc_failures;
  c.peak_in_use = std::max(c.peak_in_use, mp_->size);
  if (on_empty_ == OnEmpty::kFatal) die_exhausted();
  return nullptr;
}

// rte_exit() runs rte_eal_cleanup() and exit(), so atexit handlers (the runtime folder's
// removal, eal.cc) still run.
void MbufPool::die_exhausted() const {
  const std::string msg = exhaustion_message();
  std::fprintf(stderr, "rocetb: fatal configuration error: %s\n", msg.c_str());
  std::fflush(stderr);
  rte_exit(EXIT_FAILURE, "mbuf pool '%s' exhausted\n", name_.c_str());
}

std::string MbufPool::exhaustion_message() const {
  return fmt::format(
      "mbuf pool '{}' is exhausted: all {} configured mbufs are in use and another was "
      "needed, so this run needs at least {} (peak in use {}, {} failed allocations); in "
      "virtual time that is a configuration error, not packet loss: {}",
      name_, mp_->size, uint64_t{mp_->size} + 1, peak_in_use(), alloc_failures(),
      resize_hint_.empty() ? "raise the buffer or in-flight bytes the pools are sized from "
                             "(PoolConfig), or look for frames that are never freed"
                           : resize_hint_);
}

Status MbufPool::check_no_leaks() const {
  const uint32_t used = in_use();
  if (used == 0) return {};
  return Error{fmt::format("mbuf pool '{}' has {} of {} mbufs still in use; every frame "
                           "must be freed by the end of a run", name_, used, mp_->size)};
}

uint64_t MbufPool::memory_bytes() const {
  uint64_t total = 0;
  rte_mempool_mem_iter(mp_, add_chunk_len, &total);
  return total;
}


}  // namespace rtb::runtime
