#include "testbed/pool_plan.h"

#include <rte_mbuf.h>

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <string>

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

namespace {

// The end of the exhaustion message of the pool with `count` mbufs (`sized` by the plan
// above, `given` by `key`).
std::string resize_hint(const char* frames, const char* key, uint32_t sized,
                        const std::optional<uint32_t>& given) {
  if (given) {
    return fmt::format("run.{} = {} set its size (the scenario's sizing gives {}); raise "
                       "run.{}, or remove it", key, *given, sized, key);
  }
  return fmt::format("it holds {} and was sized to {} from the scenario's switch buffers "
                     "and cables; set run.{} above that (e.g. --set run.{}={}), and report "
                     "the scenario: the sizing missed a case", frames, sized, key, key,
                     uint64_t{sized} * 2);
}

}  // namespace

Expected<runtime::PoolSizes> pool_sizes(const scenario::Scenario& s, const runtime::PoolConfig& c) {
  auto sized = runtime::size_pools(c);
  if (!sized) return Error{"sizing the mbuf pools: " + sized.error().message};
  runtime::PoolSizes z = sized.value();
  const scenario::RunConfig& r = s.run;
  z.data_resize_hint = resize_hint("data frames", "data_mbufs", z.data_count, r.data_mbufs);
  z.control_resize_hint =
      resize_hint("ACK, NAK, CNP and PFC frames", "control_mbufs", z.control_count, r.control_mbufs);
  if (r.data_mbufs) z.data_count = *r.data_mbufs;
  if (r.control_mbufs) z.control_count = *r.control_mbufs;
  return z;
}

}  // namespace rtb::testbed
