// LcoreLoop's catch-up (lcore_loop.h, catch_up.h) with a hand-driven clock: a modelled
// stage is polled at each of its own deadlines up to `now`, within the window and the
// burst bound; a stage polled at `now` only is not.
#include "realtime/lcore_loop.h"

#include <gtest/gtest.h>

#include <vector>

namespace rtb::realtime {
namespace {

// A stage with work every `period` from `first` on (a wire that frees every frame time),
// recording the instants it is polled at.
class PeriodicStage final : public runtime::Stage {
 public:
  PeriodicStage(Time first, Time period, bool at_now_only = false)
      : Stage("periodic"), next_(first), period_(period), at_now_only_(at_now_only) {}
  void poll(Time now) override {
    polled.push_back(now);
    while (next_ <= now) next_ += period_;
  }
  Time next_deadline() const override { return next_; }
  bool polled_at_now_only() const override { return at_now_only_; }
  std::vector<Time> polled;

 private:
  Time next_;
  Time period_;
  bool at_now_only_;
};

// Work due at one instant that a poll does not finish (a full port): its deadline stays.
class StuckStage final : public runtime::Stage {
 public:
  explicit StuckStage(Time due) : Stage("stuck"), due_(due) {}
  void poll(Time now) override { polled.push_back(now); }
  Time next_deadline() const override { return due_; }
  std::vector<Time> polled;

 private:
  Time due_;
};

std::vector<Time> every(Time from, Time step, Time to) {
  std::vector<Time> v;
  for (Time t = from; t <= to; t += step) v.push_back(t);
  return v;
}

TEST(CatchUp, AStageIsPolledAtEachOfItsDeadlinesUpToNow) {
  LcoreLoop loop(0);
  PeriodicStage s(Time::ns(10), Time::ns(10));
  loop.add(s);
  loop.iterate(Time::zero());
  loop.iterate(Time::ns(95));
  std::vector<Time> want{Time::zero()};
  for (Time t : every(Time::ns(10), Time::ns(10), Time::ns(90))) want.push_back(t);
  EXPECT_EQ(s.polled, want);
  EXPECT_EQ(loop.catch_up_counters().polls, 8u);  // nine polls in the second iteration
  EXPECT_EQ(loop.polls(), 2u + 8u);
  EXPECT_EQ(loop.catch_up_counters().window_overruns, 0u);
  EXPECT_EQ(loop.catch_up_counters().burst_limited, 0u);
  // Lateness: once per iteration, for the oldest due work (10 ns, 85 ns late).
  EXPECT_EQ(loop.lateness().count(), 1u);
  EXPECT_EQ(loop.lateness().max(), Time::ns(85));
}

TEST(CatchUp, TheBurstBoundEndsAnIterationAndTheNextGoesOnFromThere) {
  LcoreLoop loop(0);
  loop.set_catch_up({.window = Time::us(5), .max_polls = 4});
  PeriodicStage s(Time::ns(10), Time::ns(10));
  loop.add(s);
  loop.iterate(Time::zero());
  loop.iterate(Time::ns(100));  // polls at 10, 20, 30, 40; 50 .. 100 still due
  EXPECT_EQ(loop.catch_up_counters().burst_limited, 1u);
  loop.iterate(Time::ns(100));  // 50, 60, 70, 80
  loop.iterate(Time::ns(100));  // 90, 100: caught up
  std::vector<Time> want{Time::zero()};
  for (Time t : every(Time::ns(10), Time::ns(10), Time::ns(100))) want.push_back(t);
  EXPECT_EQ(s.polled, want);
  EXPECT_EQ(loop.catch_up_counters().burst_limited, 2u);
  EXPECT_EQ(loop.catch_up_counters().window_overruns, 0u);
}

TEST(CatchUp, WorkOlderThanTheWindowMovesUpAndTheSkippedTimeIsCounted) {
  LcoreLoop loop(0);
  loop.set_catch_up({.window = Time::ns(30), .max_polls = 64});
  PeriodicStage s(Time::ns(10), Time::ns(10));
  loop.add(s);
  loop.iterate(Time::zero());
  loop.iterate(Time::ns(100));  // due at 10, but only 70 .. 100 are within the window
  EXPECT_EQ(s.polled, (std::vector<Time>{Time::zero(), Time::ns(70), Time::ns(80), Time::ns(90), Time::ns(100)}));
  EXPECT_EQ(loop.catch_up_counters().window_overruns, 1u);
  EXPECT_EQ(loop.catch_up_counters().skipped, Time::ns(60));
}

TEST(CatchUp, AStagePolledAtNowOnlyIsPolledOncePerIteration) {
  LcoreLoop loop(0);
  PeriodicStage s(Time::ns(10), Time::ns(10), /*at_now_only=*/true);
  loop.add(s);
  loop.iterate(Time::zero());
  loop.iterate(Time::ns(95));
  EXPECT_EQ(s.polled, (std::vector<Time>{Time::zero(), Time::ns(95)}));
  EXPECT_EQ(loop.catch_up_counters().polls, 0u);
}

TEST(CatchUp, OneFramePerPollWhenTurnedOff) {
  LcoreLoop loop(0);
  loop.set_catch_up({.window = Time::us(5), .max_polls = 1});
  PeriodicStage s(Time::ns(10), Time::ns(10));
  loop.add(s);
  loop.iterate(Time::zero());
  loop.iterate(Time::ns(95));
  EXPECT_EQ(s.polled, (std::vector<Time>{Time::zero(), Time::ns(95)}));
}

TEST(CatchUp, WorkThatPollsDoNotMoveOnGoesOnAtNowWithoutSpinning) {
  LcoreLoop loop(0);
  StuckStage s(Time::ns(40));
  loop.add(s);
  loop.iterate(Time::zero());
  loop.iterate(Time::ns(100));  // four polls at its deadline (blocked), then at now
  const Time k40 = Time::ns(40), k100 = Time::ns(100);
  EXPECT_EQ(s.polled, (std::vector<Time>{Time::zero(), k40, k40, k40, k40, k100}));
  loop.iterate(Time::ns(200));  // due since before its last poll: four more there, then now
  EXPECT_EQ(s.polled.size(), 6u + 5u);
  EXPECT_EQ(s.polled.back(), Time::ns(200));
}

TEST(CatchUp, AStageStillDueAfterAPollIsPolledAgainAtTheSameInstant) {
  // As the virtual scheduler does: a timer fires at 30 ns and its frame starts in the next
  // poll at 30 ns, not at the clock's now.
  class TimerThenFrame final : public runtime::Stage {
   public:
    TimerThenFrame() : Stage("timer") {}
    void poll(Time now) override {
      polled.push_back(now);
      if (now >= Time::ns(30) && step_ < 2) ++step_;
    }
    Time next_deadline() const override { return step_ < 2 ? Time::ns(30) : Time::never(); }
    std::vector<Time> polled;

   private:
    int step_ = 0;
  } s;
  LcoreLoop loop(0);
  loop.add(s);
  loop.iterate(Time::zero());
  loop.iterate(Time::ns(100));
  EXPECT_EQ(s.polled, (std::vector<Time>{Time::zero(), Time::ns(30), Time::ns(30)}));
}

TEST(CatchUp, PollsNeverGoBackInTime) {
  LcoreLoop loop(0);
  loop.set_catch_up({.window = Time::ns(25), .max_polls = 3});
  PeriodicStage s(Time::ns(7), Time::ns(7));
  loop.add(s);
  for (Time now = Time::zero(); now < Time::us(2); now += Time::ns(31)) loop.iterate(now);
  for (size_t i = 1; i < s.polled.size(); ++i) ASSERT_LE(s.polled[i - 1], s.polled[i]) << i;
}

}  // namespace
}  // namespace rtb::realtime
