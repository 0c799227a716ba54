// What the two ends of a ring pair share (eth_port.h, EthPort::ring_pair): their net_ring
// port, the rte_ring of each direction and a placeholder mbuf pool (ethdev wants an rx pool
// per queue; the ring driver never allocates from it). Freed when the last of the two ends
// goes: the port is closed first, since the ring driver does not free rings it was given.
#pragma once

#include <rte_build_config.h>

#include <cstdint>
#include <optional>
#include <string>

#include "runtime/pool/mbuf_pool.h"

struct rte_ring;

namespace rtb::ethport {

struct RingPairRings {
  uint16_t port = RTE_MAX_ETHPORTS;  // the ends' port (queue 0: end a, queue 1: end b)
  std::string vdev;                  // its name, removed after the port is closed
  bool started = false;
  rte_ring* a_to_b = nullptr;
  rte_ring* b_to_a = nullptr;
  std::optional<runtime::MbufPool> placeholder_pool;  // one mbuf, never taken
  RingPairRings() = default;
  RingPairRings(const RingPairRings&) = delete;
  RingPairRings& operator=(const RingPairRings&) = delete;
  ~RingPairRings();  // frees any frames still in the rings, then the rings and the pool
};

}  // namespace rtb::ethport
