// The EAL's TSC calibration, shortened from 100 ms to 10 ms (1 ms in virtual runs).
//
// On a CPU that does not state its TSC frequency (AMD's; Intel's without CPUID leaf 0x15
// and MSR_PLATFORM_INFO) DPDK 22.11's rte_eal_init() measures it: it reads the TSC and
// CLOCK_MONOTONIC_RAW around a nanosleep() of 100 ms and rounds the quotient to 10 MHz
// (lib/eal/linux/eal_timer.c, get_tsc_freq()). The quotient divides by the time that
// really passed, not by the time asked for, so a 10 ms sleep measures the same frequency:
// to lose a 10 MHz step of a 2 GHz TSC, the two readings would have to be 25 us apart
// (0.25% of 10 ms) instead of the tens of nanoseconds between adjacent instructions.
// Every `rocetb` process starts the EAL, a virtual-time run included (its mbuf pools are
// DPDK mempools), so this is 90 ms off every run and 99 ms off a virtual one (run.json
// reports the sleep beside the figure); realtime runs calibrate the TSC themselves over
// 100 ms (realtime/tsc_clock.h) and only compare DPDK's figure.
//
// `rocetb` links DPDK statically with `-Wl,--wrap=nanosleep` (apps/meson.build), so the
// EAL's call reaches __wrap_nanosleep (apps/eal_nanosleep.cc), which asks
// shorten_calibration_sleep() here. Binaries linking DPDK as a shared library (the test
// programs) keep the EAL's own 100 ms.
#pragma once

#include <ctime>
#include <optional>

#include "core/units.h"
#include "runtime/pool/eal_start_window.h"

namespace rtb::runtime {

inline constexpr timespec kEalCalibrationSleep{0, 100'000'000};  // get_tsc_freq()'s sleep
inline constexpr Time kShortCalibration = Time::ms(10);

// The sleep the next EAL start's calibration gets (start_eal() sets EalOptions'
// tsc_calibration_sleep here): kShortCalibration unless chosen. A virtual run, which
// never reads the TSC, takes 1 ms: at 1 ms the readings would have to be 2.5 us apart to
// lose a 10 MHz step of a 2 GHz TSC, and only run.json's figure would show it.
void choose_calibration_sleep(Time sleep);

// What the calling thread should sleep instead of `asked`: the chosen sleep when it is
// the EAL's calibration (this thread is inside rte_eal_init(), eal_start_window.h, and
// asked for exactly 100 ms, once), else `asked`. The first shortening is recorded for
// calibration_sleep().
timespec calibration_sleep_for(const timespec& asked);

// The sleep the EAL's TSC calibration got in this process when it was shortened; empty
// when it was not (the EAL read the frequency from the CPU, or this binary does not wrap
// nanosleep).
std::optional<Time> calibration_sleep();

}  // namespace rtb::runtime
