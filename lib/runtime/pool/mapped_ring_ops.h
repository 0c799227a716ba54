// A mempool driver for the pools of a one-thread virtual run (Populate::kOnDemand,
// MbufPoolSpec::one_thread): DPDK's default "ring_mp_mc" (drivers/mempool/ring), with the
// ring in memory mapped from the kernel instead of a memzone of the DPDK heap.
//
// Why: a pool's ring is sized for every mbuf the pool may ever hold (the worst case;
// 4 MiB for half a million), but the run writes only the part its mbufs reach. Freed
// through the DPDK heap, the whole memzone is zeroed (malloc_elem_free keeps the heap's
// memory zeroed for rte_zmalloc), which first faults in every page the run never touched:
// about 20 ms at the end of each run of the HPCC simulator's 8:1 incast. munmap() returns
// the pages without touching them.
#pragma once

namespace rtb::runtime {

// The driver's name, for rte_mempool_set_ops_byname(); its registration runs at start-up.
const char* mapped_ring_ops_name();

}  // namespace rtb::runtime
