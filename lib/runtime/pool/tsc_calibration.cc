#include "runtime/pool/tsc_calibration.h"

namespace rtb::runtime {
namespace {

thread_local uint32_t t_shortened_in = 0;  // the EAL start it was shortened in: once each
std::optional<Time> g_slept;             // written by the EAL-starting thread only
timespec g_chosen = kShortCalibrationSleep;  // likewise

timespec to_timespec(Time t) {
  const uint64_t ns = t.ns();
  return timespec{static_cast<time_t>(ns / 1'000'000'000), static_cast<long>(ns % 1'000'000'000)};
}

bool equal(const timespec& a, const timespec& b) {
  return a.tv_sec == b.tv_sec && a.tv_nsec == b.tv_nsec;
}

}  // namespace

timespec calibration_sleep_for(const timespec& asked) {
  if (!inside_eal_start() || t_shortened_in == eal_starts_begun() ||
      !equal(asked, kEalCalibrationSleep)) {
    return asked;
  }
  t_shortened_in = eal_starts_begun();
  g_slept = Time::s(static_cast<uint64_t>(g_chosen.tv_sec)) + Time::ns(static_cast<uint64_t>(g_chosen.tv_nsec));
  return g_chosen;
}

void choose_calibration_sleep(Time sleep) { g_chosen = to_timespec(sleep); }

std::optional<Time> calibration_sleep() { return g_slept; }

}  // namespace rtb::runtime
