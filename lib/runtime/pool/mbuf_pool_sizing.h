// How many mbufs a run needs, from the scenario's buffers (design.md "Memory and mbufs").
//
// A frame occupies one mbuf however short it is, so the worst case is a buffer full of the
// smallest frames:
//   count = ceil(buffer_bytes / smallest_frame) + ceil(in_flight_bytes / smallest_frame)
//         + lcores * (ceil(1.5 * cache_size) + burst)
// The last term is slack for what sits outside every queue: per-lcore mempool caches
// (which can hold up to 1.5 x cache_size objects) and one burst array per lcore.
// Data frames and control frames (ACK, NAK, CNP, PFC) get separate pools: the control pool
// is small and its frames can never be starved by data.
#pragma once

#include <cstdint>
#include <string>

#include "core/error.h"
#include "core/units.h"

namespace rtb::runtime {

struct PoolConfig {
  Bytes data_buffer_bytes;          // data bytes that can wait in queues (switch + host)
  Bytes data_in_flight_bytes;       // data bytes on wires and in NIC pipelines
  uint32_t smallest_data_frame_bytes = 64;
  uint32_t largest_data_frame_bytes = 4096 + 128;  // path MTU 4096 plus headers and ICRC
  Bytes control_buffer_bytes;       // control bytes that can wait in queues
  Bytes control_in_flight_bytes;
  uint32_t smallest_control_frame_bytes = 60;   // a PFC frame without FCS
  uint32_t largest_control_frame_bytes = 128;   // a CNP with a VLAN tag is 82
  uint32_t lcores = 1;
  uint32_t cache_size = 0;          // per-lcore mempool cache (0 in virtual mode: exact counts)
  uint32_t burst = 32;
};

struct PoolSizes {
  uint32_t data_count = 0;
  uint16_t data_room = 0;      // rte_pktmbuf data room: RTE_PKTMBUF_HEADROOM + largest frame
  uint32_t control_count = 0;
  uint16_t control_room = 0;
  uint32_t cache_size = 0;
  // The end of each pool's exhaustion message (MbufPoolSpec::resize_hint): how the count
  // was found and what to change for more. Empty: a generic hint.
  std::string data_resize_hint;
  std::string control_resize_hint;

  // Upper estimate of the memory both pools take (objects, rings, caches), for EAL -m.
  uint64_t memory_bytes() const;
  // The part of it that stays in DPDK memory when the pools populate on demand (rings,
  // headers, caches): their objects are mapped from the kernel (mbuf_pool.h); so are the
  // rings of a one-thread run (mapped_ring_ops.h), for which this over-reserves.
  uint64_t metadata_bytes() const;
};

// Errors: a zero or inconsistent frame size, a data room over 65535 bytes, or a count that
// does not fit 32 bits; each message names the field and the value.
Expected<PoolSizes> size_pools(const PoolConfig& c);

// Mbufs for `bytes` of frames no shorter than `smallest`: ceil(bytes / smallest).
uint64_t frames_for(Bytes bytes, uint32_t smallest);

// Upper estimate of one mbuf's memory with RTE_MEMPOOL_F_NO_IOVA_CONTIG: object header,
// struct rte_mbuf, FrameMeta, data room, cache-line rounding and spreading padding.
uint64_t mbuf_footprint_bytes(uint16_t data_room);

}  // namespace rtb::runtime
