// The realtime scheduler (design.md "Time", realtime): stages placed explicitly on lcores,
// each lcore looping `now = clock.now(); for each of its stages: poll(now)` (lcore_loop.h)
// until scenario time `until` or request_stop(), measuring its own lateness; a control
// thread beside them (control_thread.h).
//
// Threads:
//   - the calling thread (the EAL main lcore) runs the loop of the stages placed on
//     rte_lcore_id(), then waits for the others;
//   - every other lcore with stages runs its loop through rte_eal_remote_launch;
//   - a std::thread, not pinned and mostly sleeping, calls `control` every control_period
//     until all loops end, then once more.
// Nothing else crosses between them during the run: counters and samples leave the workers
// through Channels (channel.h), requests reach them through ControlStages (control.h), and
// the stop flag is one relaxed atomic read once per iteration.
//
// Lateness (lateness.h, lcore_loop.h): per poll with due work, now - max(deadline, the
// stage's previous poll); merged over lcores; the run is invalid when the worst exceeds
// `lateness_budget` (Time::never() = no budget).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/error.h"
#include "core/units.h"
#include "realtime/catch_up.h"
#include "realtime/lateness.h"
#include "realtime/lateness_histogram.h"
#include "realtime/tsc_clock.h"
#include "runtime/stage.h"

namespace rtb::realtime {

struct LcoreStats {
  unsigned lcore = 0;
  uint64_t loops = 0;  // iterations of the loop
  uint64_t polls = 0;  // stage polls, due or not (loops x stages)
  LatenessHistogram lateness;  // polls with due work only
  Time stalled;        // wall time its thread did not run: loop wall time less CPU time
  CatchUpCounters catch_up;  // lcore_loop.h, catch_up.h
  double cpu_seconds = 0;    // CPU time the lcore's thread got
  double cpu_clock_at_end = 0;  // its CLOCK_THREAD_CPUTIME_ID reading at the end
  Time ended;                // the last instant it polled
};

struct RealtimeStats {
  Time simulated;             // the last instant polled on any lcore (<= until)
  double wall_seconds = 0;    // from clock.start() to the end of the last loop
  uint64_t polls = 0;         // stage polls over all lcores, due or not
  std::vector<LcoreStats> lcores;  // in lcore order
  LatenessReport lateness;    // merged over lcores
  bool stopped_early = false;  // request_stop() ended the loops before `until`
  uint64_t control_calls = 0;  // how many times `control` ran
  CatchUp catch_up;            // the bounds the loops ran with
  CatchUpCounters catch_up_counters;  // merged over lcores

  double polls_per_second() const { return wall_seconds > 0 ? polls / wall_seconds : 0; }
  // {"simulated_ns", "wall_seconds", "polls", "stopped_early", "control_calls",
  //  "lateness": LatenessReport::to_json(), "catch_up": {"window_ns", "max_polls",
  //  "polls", "window_overruns", "skipped_ns", "burst_limited", "exceeded", "note"},
  //  "lcores": [{"lcore", "loops", "polls", "due_polls", "lateness_p99_ns",
  //  "lateness_max_ns", "stalled_ns", "cpu_seconds", "catch_up": {...}}]}
  nlohmann::ordered_json to_json() const;
};

class RealtimeScheduler {
 public:
  // Stage ids are given in the order stages are added (as VirtualScheduler does). A stage
  // is polled by exactly one lcore: add it once.
  runtime::StageId add(runtime::Stage& stage, unsigned lcore);

  // Runs each lcore's loop until scenario time `until` (inclusive) or request_stop().
  // Must be called on the EAL main lcore's thread. Errors (nothing runs): no stages; a
  // stage added twice; a stage on an lcore the EAL was not started with or that is busy.
  // clock.start() is called just before the loops start (all lcores share the epoch).
  // `control` (may be empty) runs on the control thread every `control_period` and once
  // after the loops end. A stop requested before run() makes it return at once; each run
  // clears the flag when it ends.
  Expected<RealtimeStats> run(TscClock& clock, Time until, Time lateness_budget,
                              std::string budget_reason, std::function<void()> control = {},
                              std::chrono::microseconds control_period =
                                  std::chrono::milliseconds(1));

  // Any thread, any time: every loop ends at its next iteration.
  void request_stop() { stop_.store(true, std::memory_order_relaxed); }
  // Stalls: the time an lcore's thread did not run (its loop's wall time less the CPU
  // time the kernel gave it) distorts a run as much as lateness does (the wire stays idle
  // while nobody polls), so the run is also invalid when an lcore lost more than
  // `max_fraction` of its wall time that way. Default: no stall rule.
  void set_stall_rule(double max_fraction) { max_stalled_fraction_ = max_fraction; }

  // Catch-up bounds of every loop (catch_up.h); the default when never called.
  void set_catch_up(CatchUp c) { catch_up_ = c; }

  size_t stage_count() const { return placements_.size(); }

 private:
  struct Placement {
    runtime::Stage* stage;
    unsigned lcore;
  };
  Status check_placements(unsigned main_lcore) const;
  void check_stalls(RealtimeStats& stats) const;

  std::vector<Placement> placements_;
  std::atomic<bool> stop_{false};
  double max_stalled_fraction_ = 1.0;
  CatchUp catch_up_;
};

}  // namespace rtb::realtime
