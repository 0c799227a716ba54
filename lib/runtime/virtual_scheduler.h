// The virtual-time scheduler (design.md "Time", virtual): one lcore; `now` jumps to the
// earliest stage deadline or frame arrival; events at the same instant are ordered by
// (time, stage id, sequence), never by pointer. Deterministic for a given set of stages.
//
// Each stage has at most one live entry in a binary heap: after a poll the stage's
// next_deadline() is pushed; a link delivering a frame earlier than that wakes it sooner.
// Superseded entries are recognised by a per-stage generation number and skipped. Since
// a stage has one live entry, (time, stage id) orders live entries completely, so an
// entry is 16 bytes: the time and one key holding the stage id above the generation.
//
// A polled stage's entry stays at the root until its next deadline replaces it (one sift
// down instead of a pop and a push). A stage whose next deadline comes before every other
// entry is polled again at once: the order of polls is the one the heap would give.
//
// With few stages (up to kScanStages, e.g. a single-switch incast) there is no heap: the
// next event is found by scanning every stage's deadline in id order, which gives the
// same (time, stage id) order for fewer instructions than a push and a pop.
#pragma once

#include <cstdint>
#include <functional>
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
  Time last_polled = Time::never();  // the latest instant a stage was polled, ever
};

class VirtualScheduler final : public Waker {
 public:
  static constexpr uint32_t kScanStages = 16;  // the default scan limit (see the top)

  // Up to `scan_up_to` stages the next event is found by a scan, past it by the heap (the
  // two give the same order; tests compare them on one run).
  explicit VirtualScheduler(uint32_t scan_up_to = kScanStages) : scan_up_to_(scan_up_to) {}

  // Stage ids are given in the order stages are added.
  StageId add(Stage& stage);
  void wake(StageId stage, Time at) override;

  // Runs until `until` (inclusive) or until no stage has work.
  RunStats run(Time until = Time::never());
  Time now() const { return now_; }
  // The earliest instant a stage is scheduled for, or never (superseded heap entries at
  // the front are dropped first).
  Time next_event();

  // Called before each poll with (now, stage id): event logs for determinism tests.
  void set_trace(std::function<void(Time, StageId)> trace) { trace_ = std::move(trace); }

 private:
  // key = stage id << kGenerationBits | generation (mod 2^kGenerationBits): ordering by
  // (at, key) is ordering by (time, stage id) for live entries.
  static constexpr unsigned kGenerationBits = 40;
  static constexpr uint64_t kGenerationMask = (uint64_t{1} << kGenerationBits) - 1;
  struct Entry {
    Time at;
    uint64_t key;
    StageId stage() const { return static_cast<StageId>(key >> kGenerationBits); }
    bool before(const Entry& o) const { return at != o.at ? at < o.at : key < o.key; }
  };
  struct Slot {
    Stage* stage;
    Time scheduled = Time::never();
    uint64_t key = 0;  // of the live entry: stage id and generation
  };
  bool scanning() const { return stages_ <= scan_up_to_; }
  void schedule(StageId id, Time at);
  void poll_stage(StageId id, Time at, Time until, RunStats& stats);
  void push(Entry e);
  void pop();
  void replace_root(Entry e);
  const Entry* first_other(uint64_t polled) const;
  void retire(StageId id, uint64_t polled);
  static uint64_t next_key(uint64_t key);
  void run_heap(Time until, RunStats& stats);
  void run_scan(Time until, RunStats& stats);
  void build_heap();

  std::vector<Slot> slots_;
  uint32_t scan_up_to_;
  uint32_t stages_ = 0;  // slots_.size(), kept as a count: the hot loops read it every turn
  std::vector<Entry> heap_;  // binary min-heap by before(), beyond kScanStages stages
  Time now_;
  Time last_polled_ = Time::never();
  std::function<void(Time, StageId)> trace_;
};

}  // namespace rtb::runtime
