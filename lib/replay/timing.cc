#include "replay/timing.h"

#include <charconv>
#include <cmath>

#include <fmt/format.h>

#include "core/units_parse.h"

namespace rtb::replay {
namespace {

Expected<double> parse_speed(const std::string& text) {
  double v = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, v);
  if (text.empty() || ec != std::errc() || ptr != end || !std::isfinite(v) || v <= 0 ||
      v > kMaxSpeed) {
    return Error{fmt::format("--speed '{}': expected a number above 0 and at most {:g} "
                             "(2 = twice as fast as captured, 0.5 = half as fast)",
                             text, kMaxSpeed)};
  }
  return v;
}

}  // namespace

Expected<Timing> parse_timing(const std::string& speed, const std::string& rate, bool top_speed) {
  const int given = !speed.empty() + !rate.empty() + top_speed;
  if (given > 1) {
    return Error{fmt::format("--speed '{}', --rate '{}' and --top-speed {}: expected at most "
                             "one timing option", speed, rate, top_speed ? "given" : "not given")};
  }
  Timing t;
  if (top_speed) {
    t.kind = TimingKind::kTopSpeed;
  } else if (!rate.empty()) {
    auto r = parse_rate(rate);
    if (!r || r.value() == Rate::zero()) {
      return Error{fmt::format("--rate '{}': {}", rate,
                               r ? "expected a rate above 0, e.g. 10Gbps" : r.error().message)};
    }
    t.kind = TimingKind::kRate;
    t.rate = r.value();
  } else if (!speed.empty()) {
    auto s = parse_speed(speed);
    if (!s) return s.error();
    t.speed = s.value();
  }
  return t;
}

std::string describe(const Timing& t) {
  switch (t.kind) {
    case TimingKind::kTopSpeed: return "top speed";
    case TimingKind::kRate: return fmt::format("back to back at {:g} Gb/s", t.rate.gbps_f());
    case TimingKind::kCapture: break;
  }
  return t.speed == 1.0 ? "capture timing" : fmt::format("capture timing x{:g}", t.speed);
}

}  // namespace rtb::replay
