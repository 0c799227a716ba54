// Frames for runtime tests: a small mbuf pool (created like the runtime's pools, with
// RTE_MEMPOOL_F_NO_IOVA_CONTIG) and a helper that makes a frame of a given length; and an
// MbufPool (fatal when empty, as in virtual time) for frames a stage under test builds
// itself, such as a switch's PFC frames.
#pragma once

#include <rte_mbuf.h>
#include <rte_mbuf_pool_ops.h>
#include <rte_mempool.h>

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>

#include "runtime/pool/mbuf_pool.h"

namespace rtb::runtime::testing {

inline rte_mempool* test_pool() {
  static rte_mempool* pool = [] {
    constexpr unsigned kCount = 8191;
    constexpr uint16_t kDataRoom = RTE_PKTMBUF_HEADROOM + 9'216;
    rte_mempool* mp = rte_mempool_create_empty(
        "runtime_test", kCount, sizeof(rte_mbuf) + kDataRoom, 0,
        sizeof(rte_pktmbuf_pool_private), SOCKET_ID_ANY, RTE_MEMPOOL_F_NO_IOVA_CONTIG);
    if (mp == nullptr) throw std::runtime_error("cannot create the test mempool");
    rte_mempool_set_ops_byname(mp, rte_mbuf_best_mempool_ops(), nullptr);
    rte_pktmbuf_pool_private priv{};
    priv.mbuf_data_room_size = kDataRoom;
    rte_pktmbuf_pool_init(mp, &priv);
    if (rte_mempool_populate_default(mp) < 0) throw std::runtime_error("cannot populate");
    rte_mempool_obj_iter(mp, rte_pktmbuf_init, nullptr);
    return mp;
  }();
  return pool;
}

// A frame of `len` bytes whose first byte is `tag` (the rest zero).
inline rte_mbuf* make_frame(uint32_t len, uint8_t tag = 0) {
  rte_mbuf* m = rte_pktmbuf_alloc(test_pool());
  if (m == nullptr) throw std::runtime_error("test pool exhausted");
  if (rte_pktmbuf_append(m, static_cast<uint16_t>(len)) == nullptr) {
    throw std::runtime_error("test frame longer than the data room");
  }
  uint8_t* data = rte_pktmbuf_mtod(m, uint8_t*);
  std::memset(data, 0, len);
  data[0] = tag;
  return m;
}

inline unsigned frames_in_use() { return rte_mempool_in_use_count(test_pool()); }

// Never destroyed: it must outlive every test, and the EAL stops before static destructors.
inline MbufPool& test_control_pool() {
  static MbufPool* pool = [] {
    auto p = MbufPool::create({.name = "runtime_test_ctrl", .count = 1023,
                               .data_room = RTE_PKTMBUF_HEADROOM + 256});
    if (!p) throw std::runtime_error(p.error().message);
    return new MbufPool(std::move(p).value());
  }();
  return *pool;
}

}  // namespace rtb::runtime::testing
