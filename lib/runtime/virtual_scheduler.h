// The virtual-time scheduler (design.md "Time", virtual): one lcore; `now` jumps to the
// earliest stage deadline or frame arrival; events at the same instant are ordered by
// (time, stage id), never by pointer. Deterministic for a given set of stages.
//
// Each stage has one slot in an indexed min-heap (core/indexed_heap.h): after a poll the
// stage's next_deadline() is set there; a link delivering a frame earlier than that moves
// it sooner. No stale entries, no allocation while running.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "core/indexed_heap.h"
#include "core/units.h"
#include "runtime/stage.h"

namespace rtb::runtime {

struct RunStats {
  Time simulated;        // the last instant processed (the end, when stopped by it)
  double wall_seconds = 0;
  uint64_t polls = 0;    // stage polls (events)
  double polls_per_second() const { return wall_seconds > 0 ? polls / wall_seconds : 0; }
  bool idle = false;     // stopped because no stage had work left
};

class VirtualScheduler final : public Waker {
 public:
  // Stage ids are given in the order stages are added.
  StageId add(Stage& stage);
  // The stage has work at `at` (clamped to now): moves its slot earlier, never later.
  void wake(StageId stage, Time at) override;

  // Runs until `until` (inclusive) or until no stage has work.
  RunStats run(Time until = Time::never());
  Time now() const { return now_; }

  // Called before each poll with (now, stage id): event logs for determinism tests.
  void set_trace(std::function<void(Time, StageId)> trace) { trace_ = std::move(trace); }

 private:
  std::vector<Stage*> stages_;
  IndexedMinHeap due_;
  Time now_;
  std::function<void(Time, StageId)> trace_;
};

}  // namespace rtb::runtime
