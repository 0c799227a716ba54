// The pacer: turns each flow's rate into send times. A Carousel timing wheel (Saeed et
// al., "Carousel: Scalable Traffic Shaping at End Hosts", SIGCOMM 2017; eRPC's
// timing_wheel.h) with:
//  - O(1) work per packet whatever the number of flows: a flow sits in the FIFO list of
//    the slot holding its next send time; a hierarchical bitmap finds the next
//    non-empty slot in one word per level;
//  - picosecond-exact send times with no drift: next = previous + frame_bits·1e12/rate
//    with the sub-picosecond remainder carried (the sum over n frames equals the exact
//    floor of the total);
//  - bounded memory: 40 bytes per flow plus the wheel (fixed at creation);
//  - no credit while a flow cannot send (paused priority, empty queue, window full): it
//    leaves the wheel, and when ready again its next send time is max(now, next), so it
//    never bursts to "catch up". A ready flow that the host serves late may fall behind
//    its schedule by at most max_lag before the schedule restarts at now.
// Flows are released at the start of their slot (up to one slot width early); the send
// times themselves stay exact, so rates do not drift. Time is passed in; no clock is read.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "cc_algos/pacer/slot_bitmap.h"
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
  static constexpr size_t bytes_per_flow() { return sizeof(Flow); }
  size_t wheel_bytes() const;

 private:
  static constexpr uint32_t kNil = UINT32_MAX;
  enum State : uint32_t { kIdle, kWaiting, kReleased, kStalled };
  struct Flow {
    uint64_t next_send_ps;
    uint64_t rem;  // remainder of (bits·1e12) mod rate, carried into the next gap
    uint64_t rate_bps;
    uint32_t prev, next;  // FIFO list of the slot
    uint32_t slot;        // wheel index while waiting
    uint32_t state;
  };
  static_assert(sizeof(Flow) == 40);

  explicit Pacer(const PacerConfig& c);
  void insert(FlowIndex f);
  void remove(FlowIndex f);
  uint64_t abs_slot(uint64_t t_ps) const { return t_ps / width_ps_; }
  // The next non-empty slot at or after the cursor, as an absolute slot, or UINT64_MAX.
  uint64_t next_busy_slot() const;
  void schedule_from(FlowIndex f, Time now);

  std::vector<Flow> flows_;
  struct Slot {
    uint32_t head, tail;  // together: one cache line touched per slot, not two
  };
  std::vector<Slot> slots_;
  SlotBitmap busy_;
  uint64_t width_ps_;
  uint64_t mask_;
  uint64_t lag_ps_;
  uint64_t cursor_ = 0;  // absolute slot: no flow waits in an earlier slot
};

}  // namespace rtb::cc
