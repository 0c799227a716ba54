// The realtime scheduler on the EAL main lcore (0) and one worker lcore (1). No timing is
// asserted beyond "not before": the machine is shared and may stall for milliseconds.
#include "realtime/realtime_scheduler.h"

#include <gtest/gtest.h>
#include <rte_launch.h>
#include <rte_pause.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>

#include "tests/realtime/test_clock.h"
#include "tests/realtime/test_stages.h"

namespace rtb::realtime {
namespace {

using testing::ActAtPollStage;
using testing::calibrated_clock;
using testing::ProbeStage;
using testing::StallOnceStage;

TEST(RealtimeScheduler, PollsStagesOnBothLcoresWithIncreasingNowUntilTheEnd) {
  RealtimeScheduler s;
  ProbeStage on_main("main");
  ProbeStage on_worker("worker");
  EXPECT_EQ(s.add(on_main, 0), 0u);
  EXPECT_EQ(s.add(on_worker, 1), 1u);
  EXPECT_EQ(on_worker.id(), 1u);
  TscClock clock = calibrated_clock();
  const Time until = Time::ms(100);  // long enough that a stalled lcore still polls
  const auto stats = s.run(clock, until, Time::never(), "");
  ASSERT_TRUE(stats.ok()) << stats.error().message;
  for (const ProbeStage* p : {&on_main, &on_worker}) {
    EXPECT_GT(p->polls, 0u) << p->name();
    EXPECT_EQ(p->went_backwards, 0u) << p->name();
    EXPECT_LT(p->first_now, p->last_now) << p->name();
    EXPECT_LE(p->last_now, until) << p->name();
  }
  EXPECT_EQ(on_main.lcore, 0u);
  EXPECT_EQ(on_worker.lcore, 1u);
  EXPECT_FALSE(stats->stopped_early);
  EXPECT_LE(stats->simulated, until);
  EXPECT_EQ(stats->simulated, std::max(on_main.last_now, on_worker.last_now));
  EXPECT_GE(stats->wall_seconds, 0.100 * 0.999);
  ASSERT_EQ(stats->lcores.size(), 2u);
  EXPECT_EQ(stats->lcores[0].lcore, 0u);
  EXPECT_EQ(stats->lcores[1].lcore, 1u);
  EXPECT_EQ(stats->lcores[0].polls, on_main.polls);
  EXPECT_EQ(stats->lcores[1].polls, on_worker.polls);
  EXPECT_EQ(stats->polls, on_main.polls + on_worker.polls);
  // Always-due stages: every poll has due work and is measured.
  EXPECT_EQ(stats->lateness.polls, stats->polls);
  EXPECT_TRUE(stats->lateness.valid);
}

TEST(RealtimeScheduler, IdleStagesArePolledButNotMeasured) {
  RealtimeScheduler s;
  ActAtPollStage idle(1000, [&] { s.request_stop(); }, Time::never());
  ProbeStage later("later", Time::s(3600));
  s.add(idle, 1);
  s.add(later, 1);
  TscClock clock = calibrated_clock();
  const auto stats = s.run(clock, Time::s(60), Time::ns(1), "a budget nothing can meet");
  ASSERT_TRUE(stats.ok()) << stats.error().message;
  EXPECT_GE(idle.polls, 1000u);
  EXPECT_GE(later.polls, 1000u);
  EXPECT_EQ(stats->lateness.polls, 0u);
  EXPECT_TRUE(stats->lateness.valid);
}

TEST(RealtimeScheduler, RequestStopFromAStageEndsEarly) {
  RealtimeScheduler s;
  ActAtPollStage stopper(1000, [&] { s.request_stop(); });
  ProbeStage other("other");
  s.add(stopper, 1);
  s.add(other, 0);
  TscClock clock = calibrated_clock();
  const auto stats = s.run(clock, Time::s(3600), Time::never(), "");
  ASSERT_TRUE(stats.ok()) << stats.error().message;
  EXPECT_TRUE(stats->stopped_early);
  EXPECT_GE(stopper.polls, 1000u);
  EXPECT_LT(stats->simulated, Time::s(3600));
  // The flag is consumed: the next run goes to its end.
  const auto again = s.run(clock, Time::ms(1), Time::never(), "");
  ASSERT_TRUE(again.ok());
  EXPECT_FALSE(again->stopped_early);
}

TEST(RealtimeScheduler, ControlIsCalledRepeatedlyAndCanStop) {
  RealtimeScheduler s;
  ProbeStage a("a");
  s.add(a, 0);
  std::atomic<uint64_t> calls{0};
  TscClock clock = calibrated_clock();
  const auto stats = s.run(
      clock, Time::s(3600), Time::never(), "",
      [&] {
        if (calls.fetch_add(1) + 1 == 5) s.request_stop();
      },
      std::chrono::microseconds(200));
  ASSERT_TRUE(stats.ok()) << stats.error().message;
  EXPECT_TRUE(stats->stopped_early);
  EXPECT_GE(calls.load(), 6u) << "five during the run, then one after";
  EXPECT_EQ(stats->control_calls, calls.load());
}

TEST(RealtimeScheduler, ControlRunsOnceMoreAfterTheLoops) {
  RealtimeScheduler s;
  ProbeStage a("a");
  s.add(a, 1);
  std::atomic<uint64_t> calls{0};
  TscClock clock = calibrated_clock();
  const auto stats = s.run(clock, Time::ms(10), Time::never(), "", [&] { ++calls; });
  ASSERT_TRUE(stats.ok()) << stats.error().message;
  EXPECT_GE(calls.load(), 2u);
}

TEST(RealtimeScheduler, AStallMakesTheRunInvalidWithAReasonNamingTheLateness) {
  RealtimeScheduler s;
  StallOnceStage stall(std::chrono::milliseconds(20), 100, [&] { s.request_stop(); });
  ProbeStage quiet("quiet");
  s.add(stall, 1);
  s.add(quiet, 0);
  TscClock clock = calibrated_clock();
  const auto stats = s.run(clock, Time::s(60), Time::ms(5), "PFC headroom of 5 ms");
  ASSERT_TRUE(stats.ok()) << stats.error().message;
  ASSERT_GE(stall.polls, 200u) << "the stall must be followed by more polls";
  const LatenessReport& r = stats->lateness;
  RecordProperty("reason", r.reason);
  EXPECT_FALSE(r.valid);
  EXPECT_GE(r.max.s_f(), 0.020 * 0.999) << r.max;
  EXPECT_NE(r.reason.find("polls were up to "), std::string::npos) << r.reason;
  EXPECT_NE(r.reason.find(" ms late (p99 "), std::string::npos) << r.reason;
  EXPECT_NE(r.reason.find("more than the 5 ms the scenario allows (PFC headroom of 5 ms)"),
            std::string::npos) << r.reason;
  // The stall is on lcore 1: its histogram holds the worst poll.
  EXPECT_EQ(stats->lcores[1].lateness.max(), r.max);
}

TEST(RealtimeScheduler, WithoutTheStallAGenerousBudgetIsValid) {
  RealtimeScheduler s;
  ProbeStage busy("busy");
  ProbeStage quiet("quiet");
  s.add(busy, 1);
  s.add(quiet, 0);
  TscClock clock = calibrated_clock();
  const auto stats = s.run(clock, Time::ms(100), Time::s(1), "generous");
  ASSERT_TRUE(stats.ok()) << stats.error().message;
  RecordProperty("lateness", stats->lateness.to_json().dump());
  EXPECT_TRUE(stats->lateness.valid) << stats->lateness.reason;
  EXPECT_TRUE(stats->lateness.reason.empty());
  EXPECT_GT(stats->lateness.polls, 0u);
  EXPECT_LE(stats->lateness.p50, stats->lateness.max);
}

// Sleeps 300 us of wall time in every 20th poll: each gap is short, together they are a
// large part of the run.
class OftenAsleepStage final : public runtime::Stage {
 public:
  OftenAsleepStage() : runtime::Stage("asleep") {}
  void poll(Time) override {
    if (++polls_ % 20 == 0) std::this_thread::sleep_for(std::chrono::microseconds(300));
  }
  Time next_deadline() const override { return Time::zero(); }

 private:
  uint64_t polls_ = 0;
};

TEST(RealtimeScheduler, ManyShortStallsMakeTheRunInvalidUnderTheStallRule) {
  RealtimeScheduler s;
  OftenAsleepStage asleep;
  s.add(asleep, 0);
  s.set_stall_rule(0.01);
  TscClock clock = calibrated_clock();
  // A lateness budget no single stall exceeds: only the stall rule can object.
  const auto stats = s.run(clock, Time::ms(50), Time::s(1), "generous");
  ASSERT_TRUE(stats.ok()) << stats.error().message;
  const LatenessReport& r = stats->lateness;
  RecordProperty("reason", r.reason);
  EXPECT_FALSE(r.valid);
  EXPECT_NE(r.reason.find("lcore 0 did not run for "), std::string::npos) << r.reason;
  EXPECT_NE(r.reason.find("its CPU time was that much shorter"), std::string::npos) << r.reason;
  EXPECT_GT(stats->lcores[0].stalled, Time::ms(1));
  EXPECT_TRUE(stats->to_json()["lcores"][0].contains("stalled_ns"));
}

TEST(RealtimeScheduler, DilationStretchesTheRunInWallTime) {
  RealtimeScheduler s;
  ProbeStage a("a");
  s.add(a, 0);
  TscClock clock = calibrated_clock();
  clock.set_dilation(4);
  const auto stats = s.run(clock, Time::ms(5), Time::never(), "");
  ASSERT_TRUE(stats.ok()) << stats.error().message;
  EXPECT_GE(stats->wall_seconds, 0.020 * 0.999);
}

TEST(RealtimeScheduler, AStageOnAnLcoreTheEalDoesNotHaveIsAnError) {
  RealtimeScheduler s;
  ProbeStage a("ghost");
  s.add(a, 5);
  TscClock clock = calibrated_clock();
  const auto stats = s.run(clock, Time::ms(1), Time::never(), "");
  ASSERT_FALSE(stats.ok());
  EXPECT_EQ(stats.error().message,
            "stage 'ghost' is placed on lcore 5, which the EAL was not started with (its "
            "lcores: 0,1); add 5 to EalOptions::worker_lcores or place the stage on one of "
            "those");
  EXPECT_EQ(a.polls, 0u);
}

TEST(RealtimeScheduler, AStageOnABusyLcoreIsAnError) {
  static std::atomic<bool> release{false};
  ASSERT_EQ(rte_eal_remote_launch(
                [](void*) {
                  while (!release.load()) rte_pause();
                  return 0;
                },
                nullptr, 1),
            0);
  RealtimeScheduler s;
  ProbeStage a("late");
  s.add(a, 1);
  TscClock clock = calibrated_clock();
  const auto stats = s.run(clock, Time::ms(1), Time::never(), "");
  release.store(true);
  rte_eal_wait_lcore(1);
  ASSERT_FALSE(stats.ok());
  EXPECT_NE(stats.error().message.find("stage 'late' is placed on lcore 1, which is busy"),
            std::string::npos) << stats.error().message;
}

TEST(RealtimeScheduler, NoStagesOrAStageAddedTwiceIsAnError) {
  TscClock clock = calibrated_clock();
  RealtimeScheduler empty;
  const auto none = empty.run(clock, Time::ms(1), Time::never(), "");
  ASSERT_FALSE(none.ok());
  EXPECT_NE(none.error().message.find("no stages"), std::string::npos);
  RealtimeScheduler twice;
  ProbeStage a("twin");
  twice.add(a, 0);
  twice.add(a, 1);
  const auto dup = twice.run(clock, Time::ms(1), Time::never(), "");
  ASSERT_FALSE(dup.ok());
  EXPECT_NE(dup.error().message.find("stage 'twin' was added twice (ids 0 and 1)"),
            std::string::npos) << dup.error().message;
}

TEST(RealtimeScheduler, RunFromANonEalThreadIsAnError) {
  RealtimeScheduler s;
  ProbeStage a("a");
  s.add(a, 0);
  TscClock clock = calibrated_clock();
  std::string message;
  std::thread t([&] {
    const auto stats = s.run(clock, Time::ms(1), Time::never(), "");
    if (!stats.ok()) message = stats.error().message;
  });
  t.join();
  EXPECT_NE(message.find("must be called on the EAL main lcore's thread"), std::string::npos)
      << message;
}

TEST(RealtimeStats, Json) {
  RealtimeScheduler s;
  ProbeStage a("a");
  s.add(a, 0);
  TscClock clock = calibrated_clock();
  const auto stats = s.run(clock, Time::ms(1), Time::never(), "");
  ASSERT_TRUE(stats.ok());
  const auto j = stats->to_json();
  for (const char* key : {"simulated_ns", "wall_seconds", "polls", "stopped_early",
                          "control_calls", "lateness", "lcores"}) {
    EXPECT_TRUE(j.contains(key)) << key;
  }
  ASSERT_EQ(j["lcores"].size(), 1u);
  EXPECT_EQ(j["lcores"][0]["lcore"], 0);
}

}  // namespace
}  // namespace rtb::realtime
