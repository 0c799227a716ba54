#include "replay/schedule.h"

#include <algorithm>
#include <cmath>

#include "runtime/wire_link.h"

namespace rtb::replay {
namespace {

// Capture gaps divided by the speed, in whole picoseconds, never going back in time.
// A span beyond what Time holds (213 days) saturates.
Schedule capture_timing(std::span<const uint64_t> ts_ns, double speed) {
  Schedule s;
  s.due.resize(ts_ns.size());
  uint64_t latest = ts_ns.empty() ? 0 : ts_ns.front();
  const double limit_ps = static_cast<double>(Time::never().ps()) / 4;  // llround-safe
  for (size_t i = 0; i < ts_ns.size(); ++i) {
    if (ts_ns[i] < latest) {
      ++s.backwards;
    } else {
      latest = ts_ns[i];
    }
    const double scaled_ps = static_cast<double>(latest - ts_ns.front()) * 1e3 / speed;
    s.due[i] = Time::ps(static_cast<uint64_t>(std::llround(std::min(scaled_ps, limit_ps))));
  }
  s.period = s.due.empty() ? Time::zero() : s.due.back();
  return s;
}

// Back to back at `rate`: each frame starts when the previous one's wire time is over.
Schedule line_rate(std::span<const uint32_t> lengths, Rate rate) {
  Schedule s;
  s.due.resize(lengths.size());
  SerialClock wire(rate);
  Time at = Time::zero();
  for (size_t i = 0; i < lengths.size(); ++i) {
    s.due[i] = at;
    at += wire.advance(runtime::wire_occupancy(lengths[i]));
  }
  s.period = at;
  return s;
}

}  // namespace

Schedule make_schedule(std::span<const uint64_t> ts_ns, std::span<const uint32_t> lengths,
                       const Timing& timing) {
  switch (timing.kind) {
    case TimingKind::kCapture: return capture_timing(ts_ns, timing.speed);
    case TimingKind::kRate: return line_rate(lengths, timing.rate);
    case TimingKind::kTopSpeed: break;
  }
  return Schedule{};
}

}  // namespace rtb::replay
