// When a switch sends PFC frames for one (ingress port, priority group) (802.1Qbb;
// reference §3.1): XOFF with the configured quanta when the PG reaches its XOFF point;
// the same XOFF again every refresh interval while it has not drained to XON, so the
// neighbour's pause never lapses; XON (quanta 0) as soon as it drains to XON.
// A pure state machine: the caller tells it what the MMU says and sends the frames.
#pragma once

#include "core/units.h"

namespace rtb::sw {

enum class PfcAction : uint8_t { kNone, kXoff, kXon };

class PfcGenerator {
 public:
  PfcGenerator() = default;
  explicit PfcGenerator(Time refresh_interval) : interval_(refresh_interval) {}

  // After a frame was admitted to the PG.
  PfcAction on_admit(Time now, bool xoff_reached) {
    if (pausing_ || !xoff_reached) return PfcAction::kNone;
    pausing_ = true;
    refresh_at_ = now + interval_;
    return PfcAction::kXoff;
  }
  // After cells of the PG were released.
  PfcAction on_release(bool xon_reached) {
    if (!pausing_ || !xon_reached) return PfcAction::kNone;
    pausing_ = false;
    refresh_at_ = Time::never();
    return PfcAction::kXon;
  }
  // At refresh_at(): refresh, or XON if the PG has drained meanwhile.
  PfcAction on_timer(Time now, bool xon_reached) {
    if (!pausing_ || now < refresh_at_) return PfcAction::kNone;
    if (xon_reached) return on_release(true);
    refresh_at_ = now + interval_;
    return PfcAction::kXoff;
  }
  // Stop without sending XON (the PG's port went into PFC watchdog drop mode).
  void reset() {
    pausing_ = false;
    refresh_at_ = Time::never();
  }

  bool pausing() const { return pausing_; }
  Time refresh_at() const { return refresh_at_; }

 private:
  Time interval_;
  bool pausing_ = false;
  Time refresh_at_ = Time::never();
};

}  // namespace rtb::sw
