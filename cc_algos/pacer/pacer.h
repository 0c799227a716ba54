// The pacer: turns each flow's rate into send times. A Carousel timing wheel (Saeed et
// al., "Carousel: Scalable Traffic Shaping at End Hosts", SIGCOMM 2017; eRPC's
// timing_wheel.h) in two levels (Varghese and Lauck, "Hashed and Hierarchical Timing
// Wheels", SOSP 1987), so that a million flows stay cache friendly:
//  - a fine wheel of 2^fine_log2 slots (2^8 by default) covers the span of slots holding
//    the cursor; a coarse wheel of 2^(slots_log2-fine_log2) buckets, one per later span,
//    covers the rest of the horizon. A flow is filed as a (flow, ticket, fine slot) entry
//    at the tail of its fine slot or of its span's bucket (chunk_lists.h). When the cursor
//    enters a span its bucket is cascaded into the fine slots, in filing order, so FIFO
//    within a slot holds. Filing appends to one of the few hundred bucket tails in use
//    (cached). A cascade reads a bucket front to back and, when no entry of it is stale
//    (the usual case), moves each entry to the fine slot it carries without reading the
//    flow's record (list_of() then knows where the flow is); it only prefetches the
//    records, a chunk of entries ahead, for the drain and send that follow. A bucket with
//    stale entries is re-filed flow by flow from the records. So a packet costs about one
//    cache miss (its flow's record), overlapped with other work, instead of misses on a
//    random slot, its chunk and the record in turn (README.md has the measurements);
//  - O(1) work per packet whatever the number of flows: each entry is filed once and
//    cascaded at most once per filing (a flow parked beyond the horizon is re-filed at each
//    pass, once per revolution); a bitmap per level finds the next live slot or bucket in
//    one word per level. Removal is lazy: the flow's ticket or state moves on and its
//    list's live count drops, so filing or removing a flow touches its own record and one
//    list, never another flow's record. Tickets are 16 bits: an entry 65536 filings stale
//    could pass for live, so liveness also asks that the flow be filed in the entry's own
//    list, which confines such a mistake to the order of two entries of one flow in one list;
//  - picosecond-exact send times with no drift: next = previous + frame_bits·1e12/rate
//    with the sub-picosecond remainder carried (the sum over n frames equals the exact
//    floor of the total);
//  - bounded memory fixed at creation: a 32-byte record per flow plus its share of a pool of
//    256-byte chunks of 31 entries (bytes_per_flow() = 43), and per wheel the list headers,
//    bitmaps, bucket bounds and one chunk per list (wheel_bytes()). No allocation after
//    create();
//  - no credit while a flow cannot send (paused priority, empty queue, window full): it
//    leaves the wheel, and when ready again its next send time is max(now, next), so it
//    never bursts to "catch up". A ready flow that the host serves late may fall behind
//    its schedule by at most max_lag before the schedule restarts at now;
//  - a lane in front of the wheel: while the wheel holds no live flow, a filing no earlier
//    than the lane's last one is appended to a plain ring of (slot, flow, ticket) instead.
//    Every live lane entry was filed before every live wheel entry (the lane only grows
//    while the wheel is empty), so releasing by slot with the lane first at a tie keeps
//    the wheel's order: by slot, FIFO within a slot. Flows at one rate, the usual case, are
//    filed in time order and never touch the wheel's lists and bitmaps; the first filing
//    out of order goes to the wheel, and the lane grows again once the wheel has emptied.
//    The lane's stale entries are dropped from both ends as flows leave, so its front is
//    live and next_deadline() stays exact.
// Flows are released at the start of their slot (up to one slot width early); the send
// times themselves stay exact, so rates do not drift. next_deadline() is exact while the
// next flow is in the cursor's span; beyond it, it is its bucket's earliest filing, which
// may be early when that flow has left since (a poll then releases nothing). Time is
// passed in; no clock is read.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "cc_algos/pacer/chunk_lists.h"
#include "cc_algos/pacer/slot_bitmap.h"
#include "core/error.h"
#include "core/huge_page_allocator.h"
#include "core/units.h"

namespace rtb::cc {

using FlowIndex = uint32_t;

struct PacerConfig {
  uint32_t max_flows = 0;
  Time slot_width = Time::ns(100);  // granularity of release
  uint32_t slots_log2 = 20;         // 2^20 x 100 ns = 105 ms horizon; later times park
  Time max_lag = Time::zero();      // zero: one slot width
  // The fine wheel's slots (at most slots_log2 - 1): 2^8 keeps a million flows' fine lists
  // and tail chunks in cache; a wider fine span files fewer flows into buckets that must be
  // cascaded later, which is cheaper when the flows are few (the host, host.cc).
  uint32_t fine_log2 = 8;
};

class Pacer {
 public:
  static Expected<Pacer> create(const PacerConfig& config);

  // A new rate. While the flow waits, the not-yet-elapsed part of its wait is rescaled
  // by old/new. Rate zero holds the flow until a positive rate arrives.
  void set_rate(FlowIndex f, Rate rate, Time now);
  // The flow has a frame and may send: it joins the wheel at max(now, its next time).
  void ready(FlowIndex f, Time now);
  // The flow cannot send: it leaves the wheel and gathers no credit.
  void block(FlowIndex f);
  // Flows whose slot has started by `now`, in time order (FIFO within a slot), removed
  // from the wheel. Returns how many were written to `out`.
  size_t poll(Time now, std::span<FlowIndex> out);
  // The host sent one frame of `frame` bytes (as counted on the wire) for a flow that
  // poll released. The next send time advances by frame/rate; with still_ready the flow
  // rejoins the wheel, otherwise it waits for ready().
  void sent(FlowIndex f, Bytes frame, Time now, bool still_ready);

  // Starts loading flow f's record (a caller that knows which flow it serves next).
  void prefetch(FlowIndex f) const { __builtin_prefetch(&flows_[f], 1); }

  // When to poll next: the start of the earliest live slot, or never (see the top note).
  Time next_deadline() const;
  Time next_send(FlowIndex f) const { return Time::ps(flows_[f].next_send_ps); }
  Rate rate(FlowIndex f) const { return Rate::bps(flows_[f].rate_bps); }
  bool waiting(FlowIndex f) const { return flows_[f].state == kWaiting; }
  uint32_t max_flows() const { return static_cast<uint32_t>(flows_.size()); }
  Time slot_width() const { return Time::ps(width_ps_); }
  // The flow record and the flow's share of the chunk pool, rounded up.
  static constexpr size_t bytes_per_flow() {
    constexpr uint64_t n = 4 * ChunkLists::kPerChunk;
    return sizeof(Flow) + (ChunkLists::chunks_for(n, 0) * sizeof(ChunkLists::Chunk) + n - 1) / n;
  }
  // The list headers, bitmaps, bucket bounds and stale counts, the pool's one chunk per
  // list, and the lane.
  size_t wheel_bytes() const;
  // Times the chunk pool ran dry and stale entries were swept out (a counted event).
  uint64_t compactions() const { return compactions_; }
  // Filings the lane took instead of the wheel (see the top note).
  uint64_t lane_filings() const { return lane_filings_; }
  size_t free_chunks() const { return lists_.free_chunks(); }

 private:
  enum State : uint32_t { kIdle, kWaiting, kReleased, kStalled };
  // Two records per cache line: the per-packet path touches one line per flow.
  struct alignas(32) Flow {
    uint64_t next_send_ps;
    uint64_t rem;  // remainder of (bits·1e12) mod rate, carried into the next gap
    uint64_t rate_bps;
    uint16_t ticket;     // bumped at each filing; an entry with another ticket is stale
    uint32_t list : 24;  // where filed: fine slot i is list i, bucket b is list fine_ + b
    uint32_t state : 8;
  };
  static_assert(sizeof(Flow) == 32);
  using Entry = ChunkLists::Entry;
  struct LaneEntry {
    uint64_t slot;  // absolute: the slot the flow was filed for
    FlowIndex flow;
    uint16_t ticket;
  };
  static constexpr uint32_t kLaneList = 0xffffff;  // Flow::list of a flow filed in the lane
  static constexpr uint16_t kParked = UINT16_MAX;  // Entry::slot of a flow beyond the horizon
  static constexpr size_t kBatch = 16;  // drained entries whose records are fetched together

  explicit Pacer(const PacerConfig& c);
  void insert(FlowIndex f);
  void file(uint32_t list, Entry e);
  void remove(FlowIndex f);
  void leave(uint32_t list);
  void compact();
  uint32_t list_of(const Flow& fl) const;
  // e is its waiting flow's latest filing, unless it is 65536 filings old (16-bit tickets):
  // each caller adds a check of where the flow is, which confines that mistake to a second
  // entry of the flow in the same list, released or moved first.
  static bool current(const Flow& fl, Entry e) {
    return fl.state == kWaiting && fl.ticket == e.ticket;
  }
  // e is its flow's live entry in `list`: a fine slot (where moved flows are found by
  // list_of()), or a bucket, also while the bucket is re-filed (when list_of() would place
  // its unread flows in the fine slots already).
  bool filed_in(Entry e, uint32_t list) const {
    const Flow& fl = flows_[e.flow];
    return current(fl, e) && list_of(fl) == list;
  }
  bool in_bucket(Entry e, uint32_t list) const {
    const Flow& fl = flows_[e.flow];
    return current(fl, e) && fl.list == list;
  }
  uint64_t abs_slot(uint64_t t_ps) const { return t_ps / width_ps_; }
  uint64_t span(uint64_t slot) const { return slot >> fine_log2_; }
  uint64_t next_fine() const;
  uint64_t next_bucket() const;
  size_t drain(uint64_t s, std::span<FlowIndex> out);
  void cascade(uint64_t b);
  template <class Take>
  void read_ahead(uint32_t list, Take&& take);
  void move_to_fine(uint32_t list);
  void refile_live(uint32_t list);
  void schedule_from(FlowIndex f, Time now);
  bool wheel_empty() const { return fine_busy_.empty() && bucket_busy_.empty(); }
  bool lane_live(const LaneEntry& e) const {
    const Flow& fl = flows_[e.flow];
    return current(fl, Entry{e.flow, e.ticket, 0}) && fl.list == kLaneList;
  }
  bool lane_empty() const { return lane_head_ == lane_tail_; }
  // The slot of the lane's first entry (live: see trim_lane), or UINT64_MAX.
  uint64_t lane_front() const {
    return lane_empty() ? UINT64_MAX : lane_[lane_head_ & lane_mask_].slot;
  }
  bool lane_takes(uint64_t target) const;
  void trim_lane();
  FlowIndex release_lane_front();

  std::vector<Flow, HugePageAllocator<Flow>> flows_;
  uint32_t fine_log2_;
  uint32_t fine_;         // fine slots: lists [0, fine_)
  uint64_t bucket_mask_;  // buckets: lists [fine_, fine_ + bucket_mask_ + 1)
  ChunkLists lists_;
  SlotBitmap fine_busy_;    // fine slots with live > 0 (a list with live == 0 is empty)
  SlotBitmap bucket_busy_;  // buckets with live > 0
  std::vector<uint64_t> bucket_min_;  // absolute slot: no live entry of the bucket is earlier
  std::vector<uint32_t> bucket_stale_;  // removals from the bucket since it was last emptied
  uint64_t width_ps_;
  uint64_t mask_;         // horizon: a flow is filed at most mask_ slots after the cursor
  uint64_t lag_ps_;
  uint64_t cursor_ = 0;  // absolute slot: no flow waits in an earlier slot; the fine wheel
                         // holds the span of the cursor, buckets the later spans
  std::vector<LaneEntry> lane_;  // a ring of a power-of-two size, in slot order
  uint64_t lane_mask_;
  uint64_t lane_head_ = 0;  // entries [head, tail), counted from the start (never wrap)
  uint64_t lane_tail_ = 0;
  uint64_t lane_filings_ = 0;
  uint64_t compactions_ = 0;
};

}  // namespace rtb::cc
