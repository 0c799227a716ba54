#include "runtime/pool/mapped_ring_ops.h"

#include <rte_common.h>
#include <rte_mempool.h>
#include <rte_ring.h>
#include <sys/mman.h>

#include <cerrno>

namespace rtb::runtime {
namespace {

rte_ring* ring_of(const rte_mempool* mp) { return static_cast<rte_ring*>(mp->pool_data); }

// A ring of the next power of two above the pool's size, as the ring driver makes it;
// multi-producer and multi-consumer like DPDK's default "ring_mp_mc", so a pool misused
// from a second thread stays correct (MbufPoolSpec::one_thread says who may use it).
int mapped_alloc(rte_mempool* mp) {
  const unsigned count = rte_align32pow2(mp->size + 1);
  const ssize_t bytes = rte_ring_get_memsize(count);
  if (bytes < 0) return static_cast<int>(bytes);
  void* mem = mmap(nullptr, static_cast<size_t>(bytes), PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mem == MAP_FAILED) return -ENOMEM;
  auto* ring = static_cast<rte_ring*>(mem);
  if (const int rc = rte_ring_init(ring, mp->name, count, 0); rc != 0) {
    munmap(mem, static_cast<size_t>(bytes));
    return rc;
  }
  mp->pool_data = ring;
  return 0;
}

void mapped_free(rte_mempool* mp) {
  rte_ring* ring = ring_of(mp);
  munmap(ring, static_cast<size_t>(rte_ring_get_memsize(ring->size)));
}

int mapped_enqueue(rte_mempool* mp, void* const* objs, unsigned n) {
  return rte_ring_mp_enqueue_bulk(ring_of(mp), objs, n, nullptr) == 0 ? -ENOBUFS : 0;
}

int mapped_dequeue(rte_mempool* mp, void** objs, unsigned n) {
  return rte_ring_mc_dequeue_bulk(ring_of(mp), objs, n, nullptr) == 0 ? -ENOBUFS : 0;
}

unsigned mapped_count(const rte_mempool* mp) { return rte_ring_count(ring_of(mp)); }

rte_mempool_ops rtb_mapped_ring_ops = {
    .name = "rtb_mapped_ring_mp_mc",
    .alloc = mapped_alloc,
    .free = mapped_free,
    .enqueue = mapped_enqueue,
    .dequeue = mapped_dequeue,
    .get_count = mapped_count,
    .calc_mem_size = nullptr,
    .populate = nullptr,
    .get_info = nullptr,
    .dequeue_contig_blocks = nullptr,
};

RTE_MEMPOOL_REGISTER_OPS(rtb_mapped_ring_ops);

}  // namespace

const char* mapped_ring_ops_name() { return rtb_mapped_ring_ops.name; }

}  // namespace rtb::runtime
