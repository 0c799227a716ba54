// The realtime clock (design.md "Time", realtime): the TSC, calibrated against
// CLOCK_MONOTONIC at start because the frequency DPDK reports can be off by 0.2% on
// virtual machines, converted to picoseconds of *scenario* time since start().
//
//   TscClock clock = TscClock::calibrate();  // needs the EAL (rte_get_tsc_hz to compare)
//   clock.set_dilation(4);                   // optional: the scenario runs 4x slower
//   clock.start();                           // epoch; every lcore shares it
//   Time now = clock.now();                  // once per loop iteration, on any lcore
//
// now() is const and lock-free: any number of lcores read one clock. It assumes an
// invariant TSC that is synchronised across cores (every x86 CPU of the last decade; DPDK
// assumes the same for rte_rdtsc). Time dilation k: the scenario sees 1 ps for every k ps of
// wall time, so a machine that cannot keep up with line rate in real time can still run a
// scenario in realtime mode with k times the slack (its lateness shrinks by k too).
#pragma once

#include <chrono>
#include <cstdint>

#include <nlohmann/json.hpp>
#include <rte_cycles.h>

#include "core/error.h"
#include "core/units.h"
#include "realtime/tsc_ticks.h"

namespace rtb::realtime {

class TscClock {
 public:
  // Measures the TSC frequency against CLOCK_MONOTONIC over `window`: a (TSC, monotonic)
  // sample at both ends, each the tightest of several rdtsc/clock_gettime/rdtsc brackets.
  // Sleeps for `window`. Requires the EAL (dpdk_hz() is rte_get_tsc_hz()).
  static TscClock calibrate(std::chrono::milliseconds window = std::chrono::milliseconds(100));
  // A clock with a known frequency and no measurement (tests, benchmarks, replays).
  static TscClock with_hz(uint64_t hz, uint64_t dpdk_hz);

  // The epoch: now() counts from here. Call once, before the loops start.
  void start() { epoch_ = rte_rdtsc(); }
  // Picoseconds of scenario time since start(): (TSC ticks since the epoch) -> ps, exact
  // integer arithmetic (tsc_ticks.h), divided by the dilation. Before start() it counts
  // from TSC 0.
  Time now() const { return converter_.to_time(rte_rdtsc() - epoch_); }

  uint64_t hz() const { return hz_; }            // calibrated, whole kHz
  uint64_t dpdk_hz() const { return dpdk_hz_; }  // rte_get_tsc_hz()
  double dpdk_error() const;                     // (dpdk_hz - hz) / hz

  // Time dilation: the scenario runs k times slower than wall time; 1 = real time.
  // 1 <= k <= kMaxDilation (check_dilation says why not); set it before start(), since
  // changing it later makes now() jump.
  void set_dilation(uint32_t k);
  uint32_t dilation() const { return dilation_; }
  static Status check_dilation(uint64_t k);

  // {"tsc_hz_calibrated", "tsc_hz_dpdk", "dpdk_error_ppm", "dilation"}
  nlohmann::ordered_json to_json() const;

 private:
  TscClock(uint64_t hz, uint64_t dpdk_hz);

  uint64_t hz_ = 0;
  uint64_t dpdk_hz_ = 0;
  uint64_t epoch_ = 0;
  uint32_t dilation_ = 1;
  TickConverter converter_;
};

}  // namespace rtb::realtime
