#include "runtime/pool/tsc_calibration.h"

namespace rtb::runtime {
namespace {

thread_local uint32_t t_shortened_in = 0;  // the EAL start it was shortened in: once each
std::optional<Time> g_slept;             // written by the EAL-starting thread only
Time g_chosen = kShortCalibration;        // likewise

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
  g_slept = g_chosen;
  const uint64_t ns = g_chosen.ns();
  return timespec{static_cast<time_t>(ns / 1'000'000'000), static_cast<long>(ns % 1'000'000'000)};
}

void choose_calibration_sleep(Time sleep) { g_chosen = sleep; }

std::optional<Time> calibration_sleep() { return g_slept; }

}  // namespace rtb::runtime
