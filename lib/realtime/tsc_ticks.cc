#include "realtime/tsc_ticks.h"

#include <numeric>

namespace rtb::realtime {
namespace {

constexpr uint64_t kPsPerSecond = 1'000'000'000'000ULL;

}  // namespace

TickConverter::TickConverter(uint64_t hz, uint32_t dilation) {
  if (hz == 0) hz = 1;
  if (dilation == 0) dilation = 1;
  // 10^12 / (hz * dilation), reduced in two steps so no product overflows before the
  // reduction: hz * dilation may exceed 64 bits, den after dividing by the gcd does not
  // for hz < 2^44 (17 THz) and dilation <= kMaxDilation (< 2^20).
  const uint64_t g1 = std::gcd(kPsPerSecond, hz);
  uint64_t num = kPsPerSecond / g1;
  const uint64_t g2 = std::gcd(num, static_cast<uint64_t>(dilation));
  num /= g2;
  num_ = num;
  den_ = (hz / g1) * (dilation / g2);
  uint64_t product = 0;
  fits_64_ = !__builtin_mul_overflow(den_ - 1, num_, &product);
}

uint64_t tsc_hz_between(const ClockSample& a, const ClockSample& b) {
  if (b.tsc <= a.tsc || b.mono_ns <= a.mono_ns) return 0;
  // hz = ticks / seconds = ticks * 10^9 / ns, then to the nearest 1000.
  const u128 ticks_x_1e9 = static_cast<u128>(b.tsc - a.tsc) * 1'000'000'000ULL;
  const u128 hz = (ticks_x_1e9 + (b.mono_ns - a.mono_ns) / 2) / (b.mono_ns - a.mono_ns);
  return static_cast<uint64_t>((hz + 500) / 1000 * 1000);
}

}  // namespace rtb::realtime
