#include "runtime/virtual_scheduler.h"

#include <gtest/gtest.h>

#include <deque>
#include <memory>
#include <utility>
#include <vector>

#include "core/rng.h"
#include "runtime/wire_link.h"
#include "tests/runtime/test_pool.h"

namespace rtb::runtime {
namespace {

using Event = std::pair<Time, StageId>;

// Has work at the given instants.
class TimedStage final : public Stage {
 public:
  TimedStage(std::string name, std::deque<Time> times) : Stage(std::move(name)), times_(std::move(times)) {}
  void poll(Time now) override {
    while (!times_.empty() && times_.front() <= now) times_.pop_front();
  }
  Time next_deadline() const override { return times_.empty() ? Time::never() : times_.front(); }

 private:
  std::deque<Time> times_;
};

TEST(VirtualScheduler, SameInstantIsOrderedByStageIdNotByNameOrAddress) {
  TimedStage c("c", {Time::ns(5)}), a("a", {Time::ns(5)}), b("b", {Time::ns(5), Time::ns(6)});
  VirtualScheduler s;
  s.add(c);
  s.add(a);
  s.add(b);
  std::vector<Event> log;
  s.set_trace([&](Time t, StageId id) { log.emplace_back(t, id); });
  const RunStats stats = s.run();
  EXPECT_EQ(log, (std::vector<Event>{{Time::ns(5), 0}, {Time::ns(5), 1}, {Time::ns(5), 2},
                                     {Time::ns(6), 2}}));
  EXPECT_EQ(stats.polls, 4u);
  EXPECT_TRUE(stats.idle);
  EXPECT_EQ(stats.simulated, Time::ns(6));
}

TEST(VirtualScheduler, StopsAtTheDurationWithWorkLeft) {
  TimedStage a("a", {Time::ns(1), Time::ns(10), Time::ns(20)});
  VirtualScheduler s;
  s.add(a);
  const RunStats first = s.run(Time::ns(10));
  EXPECT_FALSE(first.idle);
  EXPECT_EQ(first.polls, 2u);
  EXPECT_EQ(first.simulated, Time::ns(10));
  const RunStats rest = s.run();
  EXPECT_TRUE(rest.idle);
  EXPECT_EQ(rest.polls, 1u);
}

TEST(VirtualScheduler, IdleAtOnceWithNothingToDo) {
  TimedStage a("a", {});
  VirtualScheduler s;
  s.add(a);
  const RunStats stats = s.run();
  EXPECT_TRUE(stats.idle);
  EXPECT_EQ(stats.polls, 0u);
}

// Relays every frame it receives to its output after a random hold time drawn from its
// own generator; a ring of these makes a randomized multi-stage run.
class RandomRelay final : public Stage {
 public:
  // Holds for a random time under 500 ns, or in steps of `hold_step` (many frames due at
  // one instant: ties the scheduler orders by stage id).
  RandomRelay(std::string name, WireLink& in, WireLink& out, Rng rng, Time hold_step = Time::zero())
      : Stage(std::move(name)), in_(in), out_(out), rng_(rng), hold_step_(hold_step) {}
  void seed_frame(rte_mbuf* m) { held_.push_back({Time::zero(), m}); }
  void poll(Time now) override {
    rte_mbuf* burst[8];
    const uint32_t n = in_.receive(now, burst, 8);
    for (uint32_t i = 0; i < n; ++i) {
      if (++hops_ >= kMaxHops) {
        rte_pktmbuf_free(burst[i]);
        continue;
      }
      const Time hold = hold_step_ == Time::zero() ? Time::ns(rng_.uniform_int(500))
                                                   : hold_step_ * rng_.uniform_int(5);
      held_.push_back({now + hold, burst[i]});
    }
    for (auto it = held_.begin(); it != held_.end() && out_.can_send(now);) {
      if (it->until <= now) {
        out_.send(now, it->frame);
        it = held_.erase(it);
      } else {
        ++it;
      }
    }
  }
  Time next_deadline() const override {
    Time t = in_.next_arrival();
    for (const auto& h : held_) {
      const Time ready = h.until > out_.free_at() ? h.until : out_.free_at();
      if (ready < t) t = ready;
    }
    return t;
  }

 private:
  static constexpr uint32_t kMaxHops = 200;
  struct Held {
    Time until;
    rte_mbuf* frame;
  };
  WireLink& in_;
  WireLink& out_;
  Rng rng_;
  Time hold_step_;
  std::deque<Held> held_;
  uint32_t hops_ = 0;
};

struct Ring {
  int stages = 6;
  uint32_t scan_up_to = VirtualScheduler::kScanStages;
  Time hold_step = Time::zero();
};

std::vector<Event> run_ring(uint64_t seed, Ring ring = {}) {
  const int kStages = ring.stages;
  std::vector<std::unique_ptr<WireLink>> links;
  for (int i = 0; i < kStages; ++i) {
    links.push_back(std::make_unique<WireLink>(
        WireLinkConfig{"l" + std::to_string(i), Rate::gbps(25), Time::ns(3 * (i % 8)), Bytes(9'216)}));
  }
  std::vector<std::unique_ptr<RandomRelay>> relays;
  for (int i = 0; i < kStages; ++i) {
    relays.push_back(std::make_unique<RandomRelay>("r" + std::to_string(i), *links[i],
                                                   *links[(i + 1) % kStages], Rng(seed, i), ring.hold_step));
    relays.back()->seed_frame(testing::make_frame(64 + 100 * (i % 8)));
  }
  VirtualScheduler s(ring.scan_up_to);
  for (auto& r : relays) s.add(*r);
  for (int i = 0; i < kStages; ++i) links[i]->connect_receiver(&s, relays[i]->id());
  std::vector<Event> log;
  s.set_trace([&](Time t, StageId id) { log.emplace_back(t, id); });
  EXPECT_TRUE(s.run().idle);
  return log;
}

TEST(VirtualScheduler, RandomizedRunsAreDeterministic) {
  const std::vector<Event> first = run_ring(7);
  const std::vector<Event> second = run_ring(7);
  EXPECT_GT(first.size(), 1000u);
  EXPECT_EQ(first, second);
  const std::vector<Event> other = run_ring(8);
  EXPECT_NE(first, other) << first.size() << " events vs " << other.size();  // the seed matters
  EXPECT_EQ(testing::frames_in_use(), 0u);
}

// The heap (many stages) and the scan (few) are two ways to one order: a ring too large
// for the scan, run by each, polls the same stages at the same instants.
TEST(VirtualScheduler, TheHeapPollsInTheScansOrder) {
  for (uint64_t seed = 1; seed <= 4; ++seed) {
    for (const Time step : {Time::zero(), Time::ns(100)}) {
      const std::vector<Event> by_heap = run_ring(seed, Ring{40, 0, step});
      const std::vector<Event> by_scan = run_ring(seed, Ring{40, 1'000, step});
      EXPECT_GT(by_heap.size(), 1000u);
      ASSERT_EQ(by_heap, by_scan) << "seed " << seed << ", hold step " << step.ps() << " ps";
    }
  }
  EXPECT_EQ(testing::frames_in_use(), 0u);
}

TEST(VirtualScheduler, WakeEarlierSupersedesALaterDeadline) {
  TimedStage a("a", {Time::us(5)});
  VirtualScheduler s;
  s.add(a);
  std::vector<Event> log;
  s.set_trace([&](Time t, StageId id) { log.emplace_back(t, id); });
  s.wake(a.id(), Time::us(1));
  s.wake(a.id(), Time::us(3));  // later than the pending wake: no extra entry
  s.run();
  EXPECT_EQ(log, (std::vector<Event>{{Time::us(1), 0}, {Time::us(5), 0}}));
}

}  // namespace
}  // namespace rtb::runtime
