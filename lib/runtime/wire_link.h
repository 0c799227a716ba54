// One direction of an in-process cable and the MAC at its sending end (design.md, "The
// pipeline", wire link). Exact to the picosecond:
//
//  - a frame starts only when the wire is free (busy_until <= now): can_send();
//  - it occupies the wire for max(len + 4, 64) + 20 bytes at the link rate (FCS, minimum
//    frame, preamble + start delimiter + inter-frame gap), summed without drift;
//  - it arrives store-and-forward: start + serialization + propagation delay;
//  - a PFC frame overtakes data queued in the sending stage but waits for the frame already
//    on the wire: send_control() starts it at max(now, busy_until), before any data the
//    stage could start then (the stage finds the wire busy again);
//  - received PFC pauses are kept here, at the sending end, per priority: the owner of the
//    send queue asks may_start(priority, now) before each frame starts. A pause arriving
//    mid-frame does not stop the frame on the wire.
//
// The link holds no queue of data: queues form in the stages that own them (a switch
// egress queue, a host's send queue), which is what makes ECN marks and PFC real. It only
// holds frames in flight, in a ring sized at construction (no allocation per frame).
//
// A crossing link (make_crossing()) joins two partitions of a parallel virtual-time run
// (partitioned_scheduler.h), each on its own thread. Its sending end then stages the frames
// it starts in one of two buffers, by the parity of the sender's window; the receiving
// partition moves the previous window's buffer into the ring, and wakes itself, at the start
// of its next window (take_staged()). The two ends share no field while both run: the
// sender writes busy_until_, the pauses, the staging buffer of this window and its
// counters; the receiver the ring, next_arrival_ and its own counters. A frame's arrival is
// at least the propagation delay after its start, so with windows no longer than that it
// is never due before the receiver sees it; take_staged() checks that it is not.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/units.h"
#include "runtime/stage.h"

struct rte_mbuf;

namespace rtb::runtime {

class FrameTap;
class LinkFaults;

struct WireLinkConfig {
  std::string name;                // e.g. "host0->sw0", used in captures and errors
  Rate rate = Rate::gbps(100);
  Time propagation = Time::zero();  // or from cable length: propagation_for_cable()
  Bytes max_frame = Bytes(9'216);   // bounds the in-flight ring
};

// Light in fibre/copper: about 5 ns per metre (design.md).
constexpr Time propagation_for_cable(uint64_t metres) { return Time::ns(5) * metres; }

// Bytes a frame of `frame_len` (without FCS) occupies on the wire.
constexpr Bytes wire_occupancy(uint32_t frame_len) {
  const uint64_t with_fcs = static_cast<uint64_t>(frame_len) + 4;
  return Bytes((with_fcs < 64 ? 64 : with_fcs) + 20);
}

struct WireLinkCounters {
  uint64_t frames = 0;        // frames that started on the wire
  uint64_t bytes = 0;         // their lengths without FCS
  uint64_t control_frames = 0;
  Time busy;                  // total time the wire was occupied
  uint64_t delivered = 0;     // frames handed to the receiver
  uint64_t dropped_fault = 0;     // dropped by a fault hook
  uint64_t dropped_link_down = 0; // lost because the link was down as they started
  uint64_t lost_down_in_flight = 0;  // lost because it went down while they were on it
  uint64_t corrupted = 0;
};

class WireLink {
 public:
  explicit WireLink(WireLinkConfig config);
  ~WireLink();
  WireLink(const WireLink&) = delete;
  WireLink& operator=(const WireLink&) = delete;

  // The stage that receives from this link, and how to wake it.
  void connect_receiver(Waker* waker, StageId receiver);

  // --- sending end ---
  // The wire is free, and the in-flight ring has room beyond the slots kept for control
  // frames. Sized from the cable, the ring never fills in virtual time; in realtime a
  // bridge whose DPDK port is full stops taking frames, the ring fills, and the sending
  // stage holds its frames in its own queues (back-pressure, as a NIC's full TX ring).
  // A crossing link's ring is the receiver's: its room is not read by the sender (in
  // virtual time a ring sized from the cable never fills).
  bool can_send(Time now) const {
    return busy_until_ <= now && (crossing_ != nullptr || room() > kControlReserve);
  }
  static constexpr uint32_t kControlReserve = 8;
  Time free_at() const { return busy_until_; }
  bool may_start(uint8_t priority, Time now) const { return paused_until_[priority] <= now; }
  Time paused_until(uint8_t priority) const { return paused_until_[priority]; }
  // Starts a data frame now. Precondition: can_send(now). Takes ownership of `frame`.
  void send(Time now, rte_mbuf* frame);
  // Starts a MAC control (PFC) frame as soon as the frame on the wire ends.
  void send_control(Time now, rte_mbuf* frame);
  // A PFC frame for `priority` was received at the other end of the cable: pause this
  // direction for quanta x 512 bit times (802.1Qbb); a later frame replaces the remaining
  // time; quanta 0 resumes at once. Called by the stage that owns this sending end (it
  // received the PFC frame on the reverse direction), whose next_deadline() then reflects
  // the new pause; anyone else must wake that stage.
  void apply_pause(uint8_t priority, uint16_t quanta, Time now);

  // --- receiving end ---
  // Kept in a member as the ring changes, so a stage scanning many input links (a switch
  // polls every port's) reads one value per link instead of the ring. The receiving stage
  // may have it kept in an array of its own instead, where its scan reads the values side
  // by side rather than one link object each (nullptr: back in the link). The slot is
  // written where the member was, by the thread that owns the receiving end; the stage
  // gives it back (nullptr) before it goes, since the link may be drained after it.
  // `earliest`, if given, is lowered to every arrival that becomes the head of an empty
  // ring: a stage with many input links keeps the earliest of their next arrivals without
  // a scan, and scans only when one is due (it finds the new earliest as it receives).
  Time next_arrival() const { return *next_arrival_; }
  void keep_next_arrival_in(Time* slot, Time* earliest = nullptr);
  // Moves up to `max` frames that have arrived by `now` into `out`; returns how many.
  uint32_t receive(Time now, rte_mbuf** out, uint32_t max);
  uint32_t in_flight() const { return count_; }
  // Realtime bridges (lib/ethport): a frame that crossed a DPDK port has already been
  // serialized by the remote MAC, so it is placed at the receiving end as arrived at `now`
  // (counted in frames/bytes as if sent here). Precondition: room() > 0.
  void deliver(Time now, rte_mbuf* frame);
  uint32_t room() const { return mask_ + 1 - count_; }

  // --- faults ---
  // Fault hooks applied to every frame at the moment it starts; owned by the caller.
  void set_faults(LinkFaults* faults) { faults_ = faults; }

  // --- capture ---
  // A tap shown every frame as it starts (frame_tap.h); owned by the caller, may be null.
  void set_tap(FrameTap* tap) { tap_ = tap; }

  // --- crossing two partitions (parallel virtual time) ---
  // From now on frames started here are staged for take_staged() instead of entering the
  // ring. Set before the run, with the receiver connected.
  void make_crossing();
  bool crossing() const { return crossing_ != nullptr; }
  // Sending end, at the start of the sender's window `window`: frames started from now on
  // go to that window's buffer.
  void begin_window(uint64_t window) { crossing_->writing = window & 1; }
  // Sending end: the earliest arrival staged in the current window, or never.
  Time first_staged() const;
  // Receiving end, at the start of its window `window` (window_start: its first instant):
  // moves the frames staged in window - 1 into the ring and wakes the receiver. Returns
  // false, keeping them staged, if one of them arrives before window_start (the windows
  // were longer than this link's propagation delay: a lookahead violation).
  bool take_staged(uint64_t window, Time window_start);
  // A crossing to another process (rank_crossings.h). Sending end, after its window of
  // this parity: each staged frame to `each(arrival, frame)`, which takes it; then none is
  // staged. Receiving end: a frame the far end staged in its window of this parity.
  template <class Each>
  void hand_over_staged(uint32_t parity, Each&& each) {
    auto& b = crossing_->staged[parity];
    for (const InFlight& f : b) each(f.arrival, f.frame);
    b.clear();
  }
  void stage_arrived(uint32_t parity, Time arrival, rte_mbuf* frame) {
    crossing_->staged[parity].push_back(InFlight{arrival, frame});
  }

  const WireLinkConfig& config() const { return config_; }
  const WireLinkCounters& counters() const { return counters_; }
  // Frees frames still in flight (end of run); returns how many.
  uint32_t drain();

 private:
  struct InFlight {
    Time arrival;
    rte_mbuf* frame;
  };
  struct Crossing {
    std::array<std::vector<InFlight>, 2> staged;  // by window parity
    uint32_t writing = 0;                         // the sender's current buffer
  };
  Time start_frame(Time now, Time start, rte_mbuf* frame);
  void push(Time arrival, rte_mbuf* frame);
  uint32_t take_due(Time now, rte_mbuf** out, uint32_t max);
  uint32_t take_due_with_faults(Time now, rte_mbuf** out, uint32_t max);

  WireLinkConfig config_;
  SerialClock serial_;
  Time busy_until_;
  std::array<Time, 8> paused_until_{};
  std::vector<InFlight> ring_;  // power-of-two capacity, sized once
  uint32_t mask_;               // capacity - 1
  uint32_t head_ = 0;
  uint32_t count_ = 0;
  Time own_next_arrival_ = Time::never();
  Time* next_arrival_ = &own_next_arrival_;  // the head's arrival, or never
  Time own_earliest_ = Time::never();
  Time* earliest_ = &own_earliest_;  // lowered to each new head's arrival
  Waker* waker_ = nullptr;
  StageId receiver_ = kNoStage;
  LinkFaults* faults_ = nullptr;
  FrameTap* tap_ = nullptr;
  WireLinkCounters counters_;
  std::unique_ptr<Crossing> crossing_;
};

// Both directions of a cable, each with its own counters.
struct Cable {
  Cable(const WireLinkConfig& a_to_b, const WireLinkConfig& b_to_a) : ab(a_to_b), ba(b_to_a) {}
  WireLink ab;
  WireLink ba;
};

}  // namespace rtb::runtime
