#include "runtime/pool/mbuf_pool_sizing.h"

#include <rte_mbuf.h>
#include <rte_mempool.h>

#include <fmt/format.h>

#include "runtime/pool/mbuf_pool_meta.h"

namespace rtb::runtime {
namespace {

constexpr uint64_t kCacheLine = RTE_CACHE_LINE_SIZE;
// Per pool besides the objects: struct rte_mempool with RTE_MAX_LCORE cache structs, and
// the ring of pointers (rounded up to a power of two).
constexpr uint64_t kPoolOverheadBytes = 2ull << 20;

uint64_t round_up(uint64_t v, uint64_t to) { return (v + to - 1) / to * to; }

uint64_t ring_bytes(uint32_t count) {
  uint64_t slots = 1;
  while (slots < uint64_t{count} + 1) slots <<= 1;
  return slots * sizeof(void*);
}

uint64_t slack(const PoolConfig& c) {
  return uint64_t{c.lcores} * ((uint64_t{c.cache_size} * 3 + 1) / 2 + c.burst);
}

Expected<uint16_t> data_room(uint32_t largest, const char* field) {
  const uint64_t room = uint64_t{RTE_PKTMBUF_HEADROOM} + largest;
  if (room > UINT16_MAX) {
    return Error{fmt::format("PoolConfig.{} = {} bytes: with the {}-byte headroom an mbuf "
                             "would need {} bytes of data room, more than the 65535 it can "
                             "hold", field, largest, RTE_PKTMBUF_HEADROOM, room)};
  }
  return static_cast<uint16_t>(room);
}

Status check_frames(uint32_t smallest, uint32_t largest, const char* kind) {
  if (smallest == 0) {
    return Error{fmt::format("PoolConfig.smallest_{0}_frame_bytes is 0; it must be the "
                             "length of the shortest {0} frame (at least 1)", kind)};
  }
  if (smallest > largest) {
    return Error{fmt::format("PoolConfig.smallest_{0}_frame_bytes = {1} is larger than "
                             "largest_{0}_frame_bytes = {2}", kind, smallest, largest)};
  }
  return {};
}

Expected<uint32_t> count_for(Bytes buffer, Bytes in_flight, uint32_t smallest,
                             uint64_t extra, const char* kind) {
  const uint64_t n = frames_for(buffer, smallest) + frames_for(in_flight, smallest) + extra;
  if (n > UINT32_MAX) {
    return Error{fmt::format("the {} pool would need {} mbufs, more than a mempool holds; "
                             "lower the {} buffer or in-flight bytes", kind, n, kind)};
  }
  return static_cast<uint32_t>(n);
}

}  // namespace

uint64_t frames_for(Bytes bytes, uint32_t smallest) {
  return (bytes.count() + smallest - 1) / smallest;
}

uint64_t mbuf_footprint_bytes(uint16_t room) {
  const uint64_t elt = round_up(sizeof(rte_mbuf) + sizeof(FrameMeta) + room, kCacheLine);
  // Object header (one cache line) and up to two lines the mempool adds so objects spread
  // over memory channels (rte_mempool_calc_obj_size).
  return kCacheLine + elt + 2 * kCacheLine;
}

uint64_t PoolSizes::memory_bytes() const {
  return uint64_t{data_count} * mbuf_footprint_bytes(data_room) +
         uint64_t{control_count} * mbuf_footprint_bytes(control_room) + metadata_bytes();
}

uint64_t PoolSizes::metadata_bytes() const {
  return ring_bytes(data_count) + ring_bytes(control_count) + 2 * kPoolOverheadBytes;
}

Expected<PoolSizes> size_pools(const PoolConfig& c) {
  if (Status s = check_frames(c.smallest_data_frame_bytes, c.largest_data_frame_bytes, "data");
      !s) {
    return Error{s.message()};
  }
  if (Status s = check_frames(c.smallest_control_frame_bytes, c.largest_control_frame_bytes,
                              "control");
      !s) {
    return Error{s.message()};
  }
  if (c.lcores == 0) return Error{"PoolConfig.lcores is 0; a run has at least one lcore"};
  auto droom = data_room(c.largest_data_frame_bytes, "largest_data_frame_bytes");
  if (!droom) return droom.error();
  auto croom = data_room(c.largest_control_frame_bytes, "largest_control_frame_bytes");
  if (!croom) return croom.error();
  auto dcount = count_for(c.data_buffer_bytes, c.data_in_flight_bytes,
                          c.smallest_data_frame_bytes, slack(c), "data");
  if (!dcount) return dcount.error();
  auto ccount = count_for(c.control_buffer_bytes, c.control_in_flight_bytes,
                          c.smallest_control_frame_bytes, slack(c), "control");
  if (!ccount) return ccount.error();
  return PoolSizes{dcount.value(), droom.value(), ccount.value(), croom.value(),
                   c.cache_size};
}

}  // namespace rtb::runtime
