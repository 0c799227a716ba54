// The stage contract (design.md "The pipeline"): every datapath component is a stage that
// owns its state, is polled by exactly one lcore, never blocks, and never reads a clock:
//
//     poll(now)        do all work that is due at `now` (bursts in, bursts out)
//     next_deadline()  the earliest time it will have work, or Time::never()
//
// next_deadline() must include the arrival time of the next frame on each of the stage's
// input links (WireLink::next_arrival()) and the times its output links become free or
// un-paused while it has frames waiting: the virtual scheduler polls a stage only then.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

#include "core/units.h"

namespace rtb::runtime {

using StageId = uint32_t;
inline constexpr StageId kNoStage = UINT32_MAX;

class Stage {
 public:
  explicit Stage(std::string name) : name_(std::move(name)) {}
  virtual ~Stage() = default;
  Stage(const Stage&) = delete;
  Stage& operator=(const Stage&) = delete;

  virtual void poll(Time now) = 0;
  virtual Time next_deadline() const = 0;

  // Realtime only (lib/realtime, "Catch-up"): a stage of the modelled network (a host, a
  // switch, the sampler) may be polled at instants before the clock's `now`, so that work
  // which fell due during one loop iteration runs at its own modelled time: frames start
  // back to back on the wire and leave the lcore in bursts. A stage that moves frames at
  // the clock's time (a DPDK port bridge, a control stage) returns true and is polled at
  // `now` only. The virtual scheduler ignores it.
  virtual bool polled_at_now_only() const { return false; }

  std::string_view name() const { return name_; }
  StageId id() const { return id_; }
  // Set once by the scheduler that runs the stage; ids order same-instant events.
  void set_id(StageId id) { id_ = id; }

 private:
  std::string name_;
  StageId id_ = kNoStage;
};

// How a link tells the scheduler that a stage has work at a given time (a frame will
// arrive). The virtual scheduler implements it; realtime lcores poll anyway and ignore it.
class Waker {
 public:
  virtual ~Waker() = default;
  virtual void wake(StageId stage, Time at) = 0;
};

}  // namespace rtb::runtime
