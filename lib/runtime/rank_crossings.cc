#include "runtime/rank_crossings.h"

#include <rte_mbuf.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "runtime/pool/mbuf_pool_meta.h"
#include "wire/mbuf_frame.h"

namespace rtb::runtime {
namespace {

// A frame in a message: this header, then its bytes, padded to 8.
struct Record {
  uint32_t id;
  uint16_t length;
  uint16_t data_off;  // where the frame starts in its mbuf: a data frame's payload sits at a fixed place
  uint64_t arrival_ps;
  FrameMeta meta;
};
static_assert(sizeof(Record) == 48 && std::is_trivially_copyable_v<Record>);

constexpr size_t padded(size_t n) { return (n + 7) & ~size_t{7}; }

[[noreturn]] void fail(const char* what, uint32_t id) {
  std::fprintf(stderr, "rocetb: internal error: a frame from another rank on wire %u: %s\n", id, what);
  std::abort();
}

}  // namespace

RankCrossings::RankCrossings(Ranks& ranks) : ranks_(ranks), out_(ranks.size()), in_(ranks.size()) {}

void RankCrossings::add_outgoing(WireLink& link, uint32_t id, uint32_t to_rank) {
  outgoing_.push_back(Outgoing{&link, id, to_rank});
}

void RankCrossings::add_incoming(WireLink& link, uint32_t id, PoolSet& pools) {
  if (incoming_.size() <= id) incoming_.resize(id + 1);
  incoming_[id] = Incoming{&link, &pools};
}

void RankCrossings::write(Message& m, uint32_t id, Time arrival, rte_mbuf* frame) {
  if (frame->nb_segs != 1) fail("a frame of several segments cannot be sent", id);
  const uint16_t len = rte_pktmbuf_data_len(frame);
  const Record r{id, len, frame->data_off, arrival.ps(), frame_meta(frame)};
  const size_t at = m.size();
  m.resize(at + sizeof r + padded(len));
  std::memcpy(m.data() + at, &r, sizeof r);
  std::memcpy(m.data() + at + sizeof r, rte_pktmbuf_mtod(frame, const void*), len);
  rte_pktmbuf_free(frame);
  ++frames_sent_;
  bytes_sent_ += len;
}

void RankCrossings::read(const Message& m, uint32_t parity) {
  for (size_t at = 0; at < m.size();) {
    Record r;
    std::memcpy(&r, m.data() + at, sizeof r);
    if (r.id >= incoming_.size() || incoming_[r.id].link == nullptr) fail("no such wire ends here", r.id);
    const Incoming& to = incoming_[r.id];
    MbufPool& pool = (r.meta.flags & kFrameControl) != 0 ? to.pools->control() : to.pools->data();
    rte_mbuf* frame = pool.alloc();  // virtual time: an empty pool stops the run with its sizing
    if (uint32_t{r.data_off} + r.length > frame->buf_len) fail("longer than the receiving pool's mbufs", r.id);
    // Where the sender had it (the pools of every partition are alike), so a data frame's
    // payload is where the builders expect the pattern; bytes copied over the payload area
    // are marked for the mbuf's next build to restore (wire/mbuf_frame.h).
    frame->data_off = r.data_off;
    frame->data_len = r.length;
    frame->pkt_len = r.length;
    std::memcpy(rte_pktmbuf_mtod(frame, void*), m.data() + at + sizeof r, r.length);
    if (&pool == &to.pools->data()) {
      const int64_t end = wire::payload_offset(frame, r.length);
      if (end > 0) wire::mark_payload_dirty(frame, static_cast<uint32_t>(std::max<int64_t>(0, wire::payload_offset(frame, 0))),
                                             static_cast<uint32_t>(end));
    }
    frame_meta(frame) = r.meta;
    to.link->stage_arrived(parity, Time::ps(r.arrival_ps), frame);
    ++frames_received_;
    at += sizeof r + padded(r.length);
  }
}

Ranks::Reduced RankCrossings::after_window(uint64_t window, Time next, bool failed) {
  const auto parity = static_cast<uint32_t>(window & 1);
  for (Message& m : out_) m.clear();
  for (const Outgoing& o : outgoing_) {
    o.link->hand_over_staged(parity, [&](Time arrival, rte_mbuf* frame) { write(out_[o.rank], o.id, arrival, frame); });
  }
  const auto start = std::chrono::steady_clock::now();
  const Ranks::Reduced r = ranks_.exchange(out_, in_, next, failed);
  exchange_seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  for (const Message& m : in_) read(m, parity);
  return r;
}

}  // namespace rtb::runtime
