#include "realtime/tsc_clock.h"

#include <time.h>

#include <cassert>
#include <thread>

#include <fmt/format.h>

namespace rtb::realtime {
namespace {

// Brackets tried per sample: the tightest one wins (a preempted bracket is wide).
constexpr int kBracketsPerSample = 32;

uint64_t monotonic_ns() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1'000'000'000ULL +
         static_cast<uint64_t>(ts.tv_nsec);
}

// rte_rdtsc_precise (serialising) on both sides so the clock_gettime cannot be reordered
// outside its bracket.
ClockSample tightest_sample() {
  ClockSample best{0, 0, UINT64_MAX};
  for (int i = 0; i < kBracketsPerSample; ++i) {
    const uint64_t before = rte_rdtsc_precise();
    const uint64_t mono = monotonic_ns();
    const uint64_t after = rte_rdtsc_precise();
    if (after - before < best.width_ticks) {
      best = ClockSample{before + (after - before) / 2, mono, after - before};
    }
  }
  return best;
}

}  // namespace

TscClock::TscClock(uint64_t hz, uint64_t dpdk_hz)
    : hz_(hz), dpdk_hz_(dpdk_hz), converter_(hz, 1) {}

TscClock TscClock::calibrate(std::chrono::milliseconds window) {
  const ClockSample a = tightest_sample();
  std::this_thread::sleep_for(window);
  const ClockSample b = tightest_sample();
  const uint64_t dpdk = rte_get_tsc_hz();
  const uint64_t hz = tsc_hz_between(a, b);
  // A zero window (or a clock that did not move) leaves DPDK's figure as the only one.
  return TscClock(hz != 0 ? hz : dpdk, dpdk);
}

TscClock TscClock::with_hz(uint64_t hz, uint64_t dpdk_hz) { return TscClock(hz, dpdk_hz); }

double TscClock::dpdk_error() const {
  if (hz_ == 0) return 0;
  return (static_cast<double>(dpdk_hz_) - static_cast<double>(hz_)) /
         static_cast<double>(hz_);
}

Status TscClock::check_dilation(uint64_t k) {
  if (k >= 1 && k <= kMaxDilation) return {};
  return Error{fmt::format("time dilation {} is out of range: it must be a whole number from "
                           "1 (real time) to {} (the scenario runs that many times slower "
                           "than wall time)", k, kMaxDilation)};
}

void TscClock::set_dilation(uint32_t k) {
  assert(check_dilation(k).ok());
  dilation_ = k < 1 ? 1 : (k > kMaxDilation ? kMaxDilation : k);
  converter_ = TickConverter(hz_, dilation_);
}

nlohmann::ordered_json TscClock::to_json() const {
  nlohmann::ordered_json j;
  j["tsc_hz_calibrated"] = hz_;
  j["tsc_hz_dpdk"] = dpdk_hz_;
  j["dpdk_error_ppm"] = dpdk_error() * 1e6;
  j["dilation"] = dilation_;
  return j;
}

}  // namespace rtb::realtime
