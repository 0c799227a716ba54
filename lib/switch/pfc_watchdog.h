// The PFC watchdog of one (port, lossless priority), with SONiC semantics (reference §3.3,
// [SONIC-PFCWD]): a storm is a queue held in paused state continuously for detection_time
// (even if empty), found at the watchdog's polls; the action (drop, forward, alert) lasts
// until no PFC frame has been received for restoration_time, found at a later poll.
// A pure state machine: the switch reports PFC frames and polls it; it applies actions.
#pragma once

#include "core/units.h"

namespace rtb::sw {

enum class WatchdogEvent : uint8_t { kNone, kStormDetected, kRestored };

class PfcWatchdog {
 public:
  PfcWatchdog() = default;
  PfcWatchdog(Time detection_time, Time restoration_time)
      : detection_(detection_time), restoration_(restoration_time) {}

  // A PFC frame for this priority arrived; `was_paused`: the queue was paused just before.
  void on_pfc_frame(Time now, uint16_t quanta, bool was_paused) {
    last_frame_ = now;
    if (quanta == 0) {
      paused_since_ = Time::never();
    } else if (!was_paused || paused_since_.is_never()) {
      paused_since_ = now;
    }
  }
  // A poll; `paused_now`: the queue is paused at `now`.
  WatchdogEvent poll(Time now, bool paused_now) {
    if (storm_) {
      if (now - last_frame_ < restoration_) return WatchdogEvent::kNone;
      storm_ = false;
      paused_since_ = Time::never();
      return WatchdogEvent::kRestored;
    }
    if (!paused_now) {
      paused_since_ = Time::never();
      return WatchdogEvent::kNone;
    }
    if (paused_since_.is_never() || now - paused_since_ < detection_) return WatchdogEvent::kNone;
    storm_ = true;
    return WatchdogEvent::kStormDetected;
  }

  bool storm() const { return storm_; }
  // Polls are needed while the queue is paused or in a storm.
  bool active() const { return storm_ || !paused_since_.is_never(); }

 private:
  Time detection_, restoration_;
  Time paused_since_ = Time::never();
  Time last_frame_;
  bool storm_ = false;
};

}  // namespace rtb::sw
