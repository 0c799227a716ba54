// Stages for the realtime scheduler tests. They record what the loop did to them; read
// their fields only after the run (the lcore that polled them has stopped).
#pragma once

#include <rte_lcore.h>

#include <chrono>
#include <cstdint>
#include <functional>

#include "core/units.h"
#include "runtime/stage.h"

namespace rtb::realtime::testing {

// Polled with whatever deadline it is given (Time::zero(): always due; never(): idle).
class ProbeStage : public runtime::Stage {
 public:
  explicit ProbeStage(const char* name, Time deadline = Time::zero())
      : Stage(name), deadline_(deadline) {}
  void poll(Time now) override {
    if (polls > 0 && now < last_now) ++went_backwards;
    if (polls == 0) first_now = now;
    last_now = now;
    lcore = rte_lcore_id();
    ++polls;
    after_poll(now);
  }
  Time next_deadline() const override { return deadline_; }
  // A probe of the loop at the clock's `now` (catch_up_test.cc tests the modelled stages).
  bool polled_at_now_only() const override { return true; }

  uint64_t polls = 0;
  uint64_t went_backwards = 0;
  Time first_now;
  Time last_now;
  unsigned lcore = LCORE_ID_ANY;

 protected:
  virtual void after_poll(Time) {}

 private:
  Time deadline_;
};

// Always due; busy-waits `stall` of wall time once, inside its `at_poll`-th poll, then
// calls `then` 100 polls later (so the poll after the stall is measured whatever the
// machine's delays).
class StallOnceStage final : public ProbeStage {
 public:
  StallOnceStage(std::chrono::milliseconds stall, uint64_t at_poll, std::function<void()> then)
      : ProbeStage("stall"), stall_(stall), at_poll_(at_poll), then_(std::move(then)) {}

 private:
  void after_poll(Time) override {
    if (polls == at_poll_ + 100) then_();
    if (polls != at_poll_) return;
    const auto end = std::chrono::steady_clock::now() + stall_;
    while (std::chrono::steady_clock::now() < end) {
    }
  }
  std::chrono::milliseconds stall_;
  uint64_t at_poll_;
  std::function<void()> then_;
};

// Calls `action` once, in its `at_poll`-th poll; always due unless given a deadline.
class ActAtPollStage final : public ProbeStage {
 public:
  ActAtPollStage(uint64_t at_poll, std::function<void()> action, Time deadline = Time::zero())
      : ProbeStage("act", deadline), at_poll_(at_poll), action_(std::move(action)) {}

 private:
  void after_poll(Time) override {
    if (polls == at_poll_) action_();
  }
  uint64_t at_poll_;
  std::function<void()> action_;
};

}  // namespace rtb::realtime::testing
