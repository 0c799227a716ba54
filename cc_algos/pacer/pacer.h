// The pacer: turns each flow's rate into send times. A Carousel timing wheel (Saeed et
// al., "Carousel: Scalable Traffic Shaping at End Hosts", SIGCOMM 2017; eRPC's
// timing_wheel.h) with:
//  - O(1) work per packet whatever the number of flows: a flow is filed as a (flow,
//    ticket) entry at the tail of the slot holding its next send time (slot_queues.h); a
//    hierarchical bitmap finds the next slot with a live entry in one word per level.
//    Removal is lazy: the flow's ticket or state moves on and the slot's live count drops,
//    so filing or removing a flow touches its own record and one slot, never another
//    flow's record; a released batch's records are prefetched together;
//  - picosecond-exact send times with no drift: next = previous + frame_bits·1e12/rate
//    with the sub-picosecond remainder carried (the sum over n frames equals the exact
//    floor of the total);
//  - bounded memory fixed at creation: a 32-byte record per flow plus a chunk pool of
//    1.25·ceil(max_flows/3) 32-byte chunks (bytes_per_flow() counts both), and 32 bytes
//    per slot plus the bitmap (wheel_bytes()). No allocation after create();
//  - no credit while a flow cannot send (paused priority, empty queue, window full): it
//    leaves the wheel, and when ready again its next send time is max(now, next), so it
//    never bursts to "catch up". A ready flow that the host serves late may fall behind
//    its schedule by at most max_lag before the schedule restarts at now.
// Flows are released at the start of their slot (up to one slot width early); the send
// times themselves stay exact, so rates do not drift. Time is passed in; no clock is read.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "cc_algos/pacer/slot_bitmap.h"
#include "cc_algos/pacer/slot_queues.h"
#include "core/error.h"
#include "core/units.h"

namespace rtb::cc {

using FlowIndex = uint32_t;

struct PacerConfig {
  uint32_t max_flows = 0;
  Time slot_width = Time::ns(100);  // granularity of release
  uint32_t slots_log2 = 20;         // 2^20 x 100 ns = 105 ms horizon; later times park
  Time max_lag = Time::zero();      // zero: one slot width
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

  // Start of the earliest non-empty slot, or never: when to poll next.
  Time next_deadline() const;
  Time next_send(FlowIndex f) const { return Time::ps(flows_[f].next_send_ps); }
  Rate rate(FlowIndex f) const { return Rate::bps(flows_[f].rate_bps); }
  bool waiting(FlowIndex f) const { return flows_[f].state == kWaiting; }
  uint32_t max_flows() const { return static_cast<uint32_t>(flows_.size()); }
  Time slot_width() const { return Time::ps(width_ps_); }
  // The flow record and the flow's share of the chunk pool, rounded up.
  static constexpr size_t bytes_per_flow() {
    return sizeof(Flow) + (SlotQueues::chunks_for(12) * sizeof(SlotQueues::Chunk) + 11) / 12;
  }
  // The slots (with their inline entries) and the bitmap.
  size_t wheel_bytes() const;
  // Times the chunk pool ran dry and stale entries were swept out (a counted event).
  uint64_t compactions() const { return compactions_; }
  size_t free_chunks() const { return queues_.free_chunks(); }

 private:
  enum State : uint32_t { kIdle, kWaiting, kReleased, kStalled };
  // Two records per cache line: the per-packet path touches one line per flow.
  struct alignas(32) Flow {
    uint64_t next_send_ps;
    uint64_t rem;  // remainder of (bits·1e12) mod rate, carried into the next gap
    uint64_t rate_bps;
    uint32_t ticket;  // bumped at each filing; an entry with an older ticket is stale
    uint32_t slot : 24;  // wheel index while waiting (slots_log2 <= 24)
    uint32_t state : 8;
  };
  static_assert(sizeof(Flow) == 32);
  static constexpr size_t kBatch = 16;    // entries taken from a slot per prefetch round
  static constexpr size_t kPending = 32;  // filings held back while their slot is fetched
  struct Pending {
    uint32_t idx;
    SlotQueues::Entry entry;
  };

  explicit Pacer(const PacerConfig& c);
  void insert(FlowIndex f);
  void remove(FlowIndex f);
  void file(uint32_t idx, SlotQueues::Entry e);
  void flush();
  void compact();
  bool live(SlotQueues::Entry e) const {
    const Flow& fl = flows_[e.flow];
    return fl.state == kWaiting && fl.ticket == e.ticket;
  }
  uint64_t abs_slot(uint64_t t_ps) const { return t_ps / width_ps_; }
  uint64_t next_busy_from(uint64_t from) const;
  void prefetch_ahead(uint64_t s) const;
  void schedule_from(FlowIndex f, Time now);

  std::vector<Flow> flows_;
  SlotQueues queues_;
  SlotBitmap busy_;  // slots with live > 0; a slot with live == 0 holds no entries
  uint64_t width_ps_;
  uint64_t mask_;
  uint64_t lag_ps_;
  uint64_t cursor_ = 0;  // absolute slot: no flow waits in an earlier slot
  uint64_t compactions_ = 0;
  uint64_t prefetched_for_ = UINT64_MAX;  // the slot whose drain last ran prefetch_ahead
  // Filings whose slot is being prefetched: their bits are set in busy_, their entries and
  // live counts not yet in the slot. Anything that reads or removes from a slot flushes.
  std::array<Pending, kPending> pending_;
  size_t pending_count_ = 0;
};

}  // namespace rtb::cc
