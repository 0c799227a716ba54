// One lcore's realtime loop (design.md "Time", realtime):
//
//     now = clock.now(); for each of its stages: poll(now)
//
// and the lateness measurement (lateness.h). Per stage and iteration:
//
//     d = stage.next_deadline()
//     if d <= now: record now - max(d, the stage's previous poll time)
//     if d < now and the stage is modelled: catch up (catch_up.h): poll it at each of its
//                                           deadlines up to now, bounded
//     else: stage.poll(now)
//
// Work that was already due at the previous poll counts only the gap since then, so a stage
// that is always due (a DPDK port bridge, next_deadline() = Time::zero()) measures the
// loop's polling gap, and an idle stage (Time::never()) records nothing. The first poll of a
// stage measures from the epoch (scenario time 0), which includes the lcore's start-up.
//
// Tight by construction: a flat vector of stages, two virtual calls per stage, the clock read
// once and the stop flag read (relaxed) once per iteration; no allocation, lock, log or file
// I/O. Lateness is recorded once per stage and iteration, for its oldest due work, before
// any catch-up: the polls of a burst run that work at its modelled instants, they do not
// make it less late on the wire. The RealtimeScheduler builds one LcoreLoop per lcore before the run; benchmarks drive
// iterate() directly.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <ctime>
#include <vector>

#include "core/units.h"
#include "realtime/catch_up.h"
#include "realtime/lateness_histogram.h"
#include "realtime/tsc_clock.h"
#include "runtime/stage.h"

namespace rtb::realtime {

// The calling thread's CPU clock (CLOCK_THREAD_CPUTIME_ID), in seconds: a system call, so
// read at the start and the end of a run, or once by a stage, never per iteration.
inline double thread_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) / 1e9;
}

class alignas(64) LcoreLoop {
 public:
  explicit LcoreLoop(unsigned lcore) : lcore_(lcore) {}

  void add(runtime::Stage& stage) {
    entries_.push_back(Entry{&stage, Time::zero(), stage.polled_at_now_only()});
  }
  // max_polls <= 1 turns catch-up off (one poll per stage and iteration, at `now`).
  void set_catch_up(CatchUp c) { catch_up_ = c; }

  // One pass over the stages at `now`.
  void iterate(Time now) {
    for (Entry& e : entries_) {
      const Time due = e.stage->next_deadline();
      if (due <= now) lateness_.record(now - std::max(due, e.last_poll));
      if (due < now && !e.at_now_only && catch_up_.max_polls > 1) {
        catch_up(e, due, now);
      } else {
        e.stage->poll(now);
        e.last_poll = now;
      }
    }
    ++loops_;
  }

  // Iterates while the clock reads at most `until` and `stop` is clear. The time the
  // lcore's thread did not run meanwhile (preempted, interrupted, the core shared) is the
  // wall time of the loop less the CPU time the kernel gave its thread: stalled(). (A gap
  // between iterations is no measure of it: an iteration that catches up is long work.)
  void run(const TscClock& clock, Time until, const std::atomic<bool>& stop) {
    const double cpu_start = thread_cpu_seconds();
    const auto wall_start = std::chrono::steady_clock::now();
    Time now = clock.now();
    while (now <= until && !stop.load(std::memory_order_relaxed)) {
      iterate(now);
      last_now_ = now;
      now = clock.now();
    }
    ended_at_ = now;
    const std::chrono::duration<double> wall = std::chrono::steady_clock::now() - wall_start;
    cpu_clock_at_end_ = thread_cpu_seconds();
    cpu_seconds_ = cpu_clock_at_end_ - cpu_start;
    wall_seconds_ = wall.count();
    const double lost = wall_seconds_ - cpu_seconds_;
    stalled_ = lost > 0 ? Time::ps(static_cast<uint64_t>(lost * 1e12)) : Time::zero();
  }
  Time stalled() const { return stalled_; }  // wall time, not scenario time
  double wall_seconds() const { return wall_seconds_; }
  // CPU time the lcore's thread got during run() (CLOCK_THREAD_CPUTIME_ID): on a shared
  // machine, what the loop really ran for.
  double cpu_seconds() const { return cpu_seconds_; }
  // The thread's CPU clock when run() ended (to measure a part of a run against a reading
  // a stage took on this lcore).
  double cpu_clock_at_end() const { return cpu_clock_at_end_; }

  unsigned lcore() const { return lcore_; }
  size_t stage_count() const { return entries_.size(); }
  uint64_t loops() const { return loops_; }
  // Every poll, due or not: one per stage and iteration, plus the catch-up polls beyond it.
  uint64_t polls() const { return loops_ * entries_.size() + catch_up_counters_.polls; }
  const CatchUpCounters& catch_up_counters() const { return catch_up_counters_; }
  const LatenessHistogram& lateness() const { return lateness_; }
  Time last_now() const { return last_now_; }  // the last instant polled (0: none)
  // The clock reading that ended run(): above `until` unless the stop flag ended it.
  Time ended_at() const { return ended_at_; }

 private:
  struct Entry {
    runtime::Stage* stage;
    Time last_poll;
    bool at_now_only;
  };

  // Polls `e` at each of its deadlines from max(due, its last poll) up to `now`, at most
  // max_polls times (catch_up.h). Work older than the window moves up to now - window.
  void catch_up(Entry& e, Time due, Time now) {
    Time t = std::max(due, e.last_poll);
    const Time oldest = now > catch_up_.window ? now - catch_up_.window : Time::zero();
    if (t < oldest) {
      ++catch_up_counters_.window_overruns;
      catch_up_counters_.skipped += oldest - t;
      t = oldest;
    }
    uint32_t n = 0;
    uint32_t at_instant = 0;  // polls at t so far
    while (true) {
      e.stage->poll(t);
      e.last_poll = t;
      ++at_instant;
      if (++n == catch_up_.max_polls || t == now) break;
      const Time next = std::max(e.stage->next_deadline(), t);
      if (next > now) break;
      if (next > t) {
        t = next;
        at_instant = 0;
      } else if (at_instant == kMaxPollsPerInstant) {
        t = now;  // still due at t: blocked (a full port), not catching up
      }
    }
    catch_up_counters_.polls += n - 1;  // the first is the iteration's own poll
    if (n == catch_up_.max_polls && t < now && e.stage->next_deadline() <= now) {
      ++catch_up_counters_.burst_limited;
    }
  }

  std::vector<Entry> entries_;
  CatchUp catch_up_;
  CatchUpCounters catch_up_counters_;
  LatenessHistogram lateness_;
  uint64_t loops_ = 0;
  Time last_now_ = Time::zero();
  Time ended_at_ = Time::zero();
  double cpu_seconds_ = 0;
  double cpu_clock_at_end_ = 0;
  double wall_seconds_ = 0;
  Time stalled_ = Time::zero();
  unsigned lcore_;
};

}  // namespace rtb::realtime
