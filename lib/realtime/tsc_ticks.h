// Pure arithmetic behind TscClock (tsc_clock.h): TSC ticks -> picoseconds of scenario time,
// and the TSC frequency from two (TSC, CLOCK_MONOTONIC) samples. No clock is read here, so
// every number can be checked by hand in tests.
//
// Conversion: ps = floor(ticks * 10^12 / (hz * dilation)), computed from the tick count
// since the epoch every time (never accumulated), so it cannot drift. The fraction
// 10^12 / (hz * dilation) is reduced by its gcd to num / den once; then
//   ticks * num / den = (ticks / den) * num + ((ticks % den) * num) / den
// is exact (ticks = q * den + r) and needs only 64-bit arithmetic whenever
// (den - 1) * num fits in 64 bits. With hz a whole number of kHz (TscClock rounds its
// calibration to one) num <= 10^9 and den <= hz * dilation / 1000, so it fits for every
// TSC below 4.6 GHz up to dilation 4000. Other values take the same formula in 128-bit
// arithmetic: slower (a library division), equally exact.
#pragma once

#include <cstdint>

#include "core/units.h"

namespace rtb::realtime {

// Scenario slow-down factors accepted by TscClock::set_dilation (1 = real time).
inline constexpr uint32_t kMaxDilation = 1'000'000;

class TickConverter {
 public:
  // 1 tick = 1 ps until configured.
  TickConverter() = default;
  // 1 <= dilation <= kMaxDilation (callers check; see TscClock::set_dilation); hz 0 is
  // taken as 1.
  TickConverter(uint64_t hz, uint32_t dilation);

  Time to_time(uint64_t ticks) const {
    if (fits_64_) {
      const uint64_t q = ticks / den_;
      const uint64_t r = ticks % den_;
      return Time::ps(q * num_ + r * num_ / den_);
    }
    return Time::ps(static_cast<uint64_t>(static_cast<u128>(ticks) * num_ / den_));
  }

  uint64_t num() const { return num_; }
  uint64_t den() const { return den_; }
  bool fits_64() const { return fits_64_; }  // the fast path is used

 private:
  uint64_t num_ = 1;
  uint64_t den_ = 1;
  bool fits_64_ = true;
};

// One reading of both clocks: the TSC half-way between two rdtsc that bracket a
// clock_gettime(CLOCK_MONOTONIC), and how many ticks that bracket took (its uncertainty).
struct ClockSample {
  uint64_t tsc = 0;
  uint64_t mono_ns = 0;
  uint64_t width_ticks = 0;
};

// TSC frequency in Hz between two samples (b after a), rounded to the nearest kHz: the
// calibration's own resolution is about 1 ppm (a bracket of ~100 ns over a 100 ms window),
// coarser than 1 kHz on any TSC above 1 GHz. Returns 0 when b is not after a.
uint64_t tsc_hz_between(const ClockSample& a, const ClockSample& b);

}  // namespace rtb::realtime
