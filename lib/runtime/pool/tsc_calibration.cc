#include "runtime/pool/tsc_calibration.h"

namespace rtb::runtime {
namespace {

thread_local bool t_in_eal_start = false;
thread_local bool t_shortened = false;  // one calibration per rte_eal_init()
std::optional<Time> g_slept;             // written by the EAL-starting thread only

bool equal(const timespec& a, const timespec& b) {
  return a.tv_sec == b.tv_sec && a.tv_nsec == b.tv_nsec;
}

}  // namespace

timespec calibration_sleep_for(const timespec& asked) {
  if (!t_in_eal_start || t_shortened || !equal(asked, kEalCalibrationSleep)) return asked;
  t_shortened = true;
  g_slept = Time::ns(static_cast<uint64_t>(kShortCalibrationSleep.tv_nsec));
  return kShortCalibrationSleep;
}

void begin_eal_start() {
  t_in_eal_start = true;
  t_shortened = false;
}

void end_eal_start() { t_in_eal_start = false; }

std::optional<Time> calibration_sleep() { return g_slept; }

}  // namespace rtb::runtime
