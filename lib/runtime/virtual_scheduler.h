// The virtual-time scheduler (design.md "Time", virtual): one lcore; `now` jumps to the
// earliest stage deadline or frame arrival; events at the same instant are ordered by
// (time, stage id, sequence), never by pointer. Deterministic for a given set of stages.
//
// Each stage has at most one live entry in a binary heap: after a poll the stage's
// next_deadline() is pushed; a link delivering a frame earlier than that wakes it sooner.
// Superseded entries are recognised by a per-stage generation number and skipped.
#pragma once

#include <cstdint>
#include <functional>
#include <queue>
#include <vector>

#include "core/units.h"
#include "runtime/stage.h"

namespace rtb::runtime {

struct RunStats {
  Time simulated;        // the last instant processed
  double wall_seconds = 0;
  uint64_t polls = 0;    // stage polls (events)
  double polls_per_second() const { return wall_seconds > 0 ? polls / wall_seconds : 0; }
  bool idle = false;     // stopped because no stage had work left
};

class VirtualScheduler final : public Waker {
 public:
  // Stage ids are given in the order stages are added.
  StageId add(Stage& stage);
  void wake(StageId stage, Time at) override;

  // Runs until `until` (inclusive) or until no stage has work.
  RunStats run(Time until = Time::never());
  Time now() const { return now_; }

  // Called before each poll with (now, stage id): event logs for determinism tests.
  void set_trace(std::function<void(Time, StageId)> trace) { trace_ = std::move(trace); }

 private:
  struct Entry {
    Time at;
    StageId stage;
    uint64_t seq;
    uint64_t generation;
    bool operator>(const Entry& o) const {
      if (at != o.at) return at > o.at;
      if (stage != o.stage) return stage > o.stage;
      return seq > o.seq;
    }
  };
  struct Slot {
    Stage* stage;
    Time scheduled = Time::never();
    uint64_t generation = 0;
  };
  void schedule(StageId id, Time at);

  std::vector<Slot> slots_;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> heap_;
  uint64_t seq_ = 0;
  Time now_;
  std::function<void(Time, StageId)> trace_;
};

}  // namespace rtb::runtime
