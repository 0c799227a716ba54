// How an open-loop replay spaces its frames, as tcpreplay's options do (tcpreplay(1):
// --multiplier, --mbps, --topspeed): the capture's own timing, that timing scaled
// (--speed X: X times as fast), back to back at a line rate (--rate R: each frame is due
// when the previous one has left the wire, runtime::wire_occupancy), or as fast as the
// port takes frames (--top-speed).
#pragma once

#include <string>

#include "core/error.h"
#include "core/units.h"

namespace rtb::replay {

enum class TimingKind { kCapture, kRate, kTopSpeed };

struct Timing {
  TimingKind kind = TimingKind::kCapture;
  double speed = 1.0;  // kCapture: capture gaps are divided by this (2 = twice as fast)
  Rate rate;           // kRate: the line rate frames are sent back to back at
};

// The largest --speed accepted: beyond it the gaps of any capture are below a nanosecond.
inline constexpr double kMaxSpeed = 1e6;

// From the command line: `speed` and `rate` as typed ("" when not given), `top_speed` the
// flag. At most one of the three. Errors are one line naming the option, the value and
// what was expected ("--speed '0': expected a number above 0 and at most 1e+06, e.g. 2").
Expected<Timing> parse_timing(const std::string& speed, const std::string& rate, bool top_speed);

// For the table and summary.json: "capture timing", "capture timing x2",
// "back to back at 10 Gb/s", "top speed".
std::string describe(const Timing& t);

}  // namespace rtb::replay
