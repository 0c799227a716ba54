#include "testbed/pool_plan.h"

#include <rte_mbuf.h>

#include <algorithm>

#include "runtime/wire_link.h"
#include "wire/frame_size.h"
#include "wire/mbuf_frame.h"

namespace rtb::testbed {

runtime::PoolConfig pool_config(const scenario::Scenario& s) {
  Bytes buffers;
  uint32_t smallest_cell = 64;
  for (const scenario::SwitchNode& sw : s.topology.switches) {
    buffers += sw.config.pool.size + sw.config.pool.lossy_size;
    smallest_cell = std::max<uint32_t>(smallest_cell,
                                       static_cast<uint32_t>(sw.config.pool.cell.count()));
  }
  // Frames on the cables: rate x propagation plus the frame being serialized, each way.
  uint32_t max_mtu = wire::kMinPathMtu;
  for (const scenario::HostNode& h : s.topology.hosts) max_mtu = std::max(max_mtu, h.requester.path_mtu);
  const uint32_t largest = wire::mbuf_data_room(max_mtu) - RTE_PKTMBUF_HEADROOM;
  Bytes on_cables;
  for (const scenario::Link& l : s.topology.links) {
    on_cables += (l.rate.bytes_in(l.propagation) + Bytes(largest)) * 2;
  }
  runtime::PoolConfig c;
  c.data_buffer_bytes = buffers;
  c.data_in_flight_bytes = on_cables + Bytes(largest) * (64 * s.topology.hosts.size());
  c.smallest_data_frame_bytes = std::min<uint32_t>(smallest_cell, 4096);
  c.largest_data_frame_bytes = largest;
  c.control_buffer_bytes = buffers;
  c.control_in_flight_bytes = on_cables;
  // Control frames (ACK 62 B, CNP 74 B, PFC 60 B) take a whole cell each in a switch.
  c.largest_control_frame_bytes = 128;
  c.smallest_control_frame_bytes = std::min<uint32_t>(smallest_cell, c.largest_control_frame_bytes);
  // A per-lcore cache makes allocation LIFO, so a freed mbuf comes back hot in the CPU
  // cache (about a third faster here); one lcore, so the counts stay exact.
  c.cache_size = 512;
  return c;
}

}  // namespace rtb::testbed
