#include "replay/frame_mbufs.h"

#include <cstring>
#include <limits>

#include <fmt/format.h>

namespace rtb::replay {
namespace {

// Data room: the longest frame after the headroom (frames are never chained).
uint32_t data_room(const LoadedCapture& c) { return RTE_PKTMBUF_HEADROOM + c.largest; }

// rte_mempool's own object header and trailer, beside rte_mbuf, FrameMeta and the room.
constexpr uint64_t kMempoolObjectOverhead = 64;

}  // namespace

uint64_t FrameMbufs::pool_bytes(const LoadedCapture& c) {
  const uint64_t per_mbuf = sizeof(rte_mbuf) + sizeof(runtime::FrameMeta) + data_room(c) +
                            kMempoolObjectOverhead;
  return per_mbuf * c.frames();
}

Expected<FrameMbufs> FrameMbufs::create(const LoadedCapture& c, const std::string& pool_name) {
  if (data_room(c) > std::numeric_limits<uint16_t>::max()) {
    return Error{fmt::format("{}: a frame of {} bytes does not fit an mbuf (at most {} "
                             "bytes)", c.path, c.largest,
                             std::numeric_limits<uint16_t>::max() - RTE_PKTMBUF_HEADROOM)};
  }
  auto pool = runtime::MbufPool::create(
      {.name = pool_name, .count = static_cast<uint32_t>(c.frames()),
       .data_room = static_cast<uint16_t>(data_room(c)), .on_empty = runtime::OnEmpty::kCount,
       .resize_hint = "the replay's pool holds one mbuf per captured frame"});
  if (!pool) return pool.error();
  std::vector<rte_mbuf*> frames(c.frames(), nullptr);
  for (size_t i = 0; i < c.frames(); ++i) {
    rte_mbuf* m = pool.value().alloc();  // one per frame: never empty here
    const auto bytes = c.frame(i);
    std::memcpy(rte_pktmbuf_mtod(m, uint8_t*), bytes.data(), bytes.size());
    m->data_len = static_cast<uint16_t>(bytes.size());
    m->pkt_len = static_cast<uint32_t>(bytes.size());
    frames[i] = m;
  }
  for (size_t i = 0; i < kLookAhead; ++i) frames.push_back(frames[i % c.frames()]);
  return FrameMbufs(std::move(pool.value()), std::move(frames));
}

void FrameMbufs::release() {
  if (frames_.empty()) return;
  for (size_t i = 0; i < size(); ++i) rte_pktmbuf_free(frames_[i]);  // not the look-ahead copies
  frames_.clear();
}

Status FrameMbufs::check_no_leaks() {
  release();
  return pool_.check_no_leaks();
}

FrameMbufs::~FrameMbufs() { release(); }

}  // namespace rtb::replay
