// nanosleep() as the statically linked EAL sees it (`-Wl,--wrap=nanosleep`): its TSC
// calibration sleeps 10 ms instead of 100 (runtime/pool/tsc_calibration.h says why that
// measures the same frequency); every other sleep is passed on unchanged.
#include <ctime>

#include "runtime/pool/tsc_calibration.h"

extern "C" int __real_nanosleep(const timespec* asked, timespec* remaining);

extern "C" int __wrap_nanosleep(const timespec* asked, timespec* remaining) {
  if (asked == nullptr) return __real_nanosleep(asked, remaining);
  const timespec sleep = rtb::runtime::calibration_sleep_for(*asked);
  return __real_nanosleep(&sleep, remaining);
}
