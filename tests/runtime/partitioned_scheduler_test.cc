// Parallel virtual time: stages in two partitions (on two threads, or in turn on one),
// exchanging frames over crossing links, give the same polls at the same instants as one
// scheduler; a crossing frame never arrives
// before its time; windows longer than a crossing link's delay are caught; a thread done
// with its own partitions runs one another thread has not started.
#include "runtime/partitioned_scheduler.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <vector>

#include "runtime/virtual_scheduler.h"
#include "tests/runtime/echo_stage.h"
#include "tests/runtime/test_pool.h"

namespace rtb::runtime {
namespace {

using testing::frames_in_use;
using testing::Echo;
using testing::Event;

// Reads both echoes at every interval: the serial stage of a partitioned run.
class Counter final : public Stage {
 public:
  Counter(const Echo& a, const Echo& b, Time interval) : Stage("counter"), a_(a), b_(b), interval_(interval) {}
  void poll(Time now) override {
    if (now < next_) return;
    seen_.push_back({now, a_.received(), b_.received()});
    next_ = next_ + interval_;
  }
  Time next_deadline() const override { return next_; }
  struct Seen {
    Time at;
    uint64_t a, b;
    bool operator==(const Seen&) const = default;
  };
  const std::vector<Seen>& seen() const { return seen_; }

 private:
  const Echo& a_;
  const Echo& b_;
  Time interval_;
  Time next_ = Time::zero();
  std::vector<Seen> seen_;
};

// Two echoes joined by a cable, with frames bouncing between them.
struct Cable2 {
  explicit Cable2(Time propagation)
      : ab({"a->b", Rate::gbps(100), propagation, Bytes(9'216)}),
        ba({"b->a", Rate::gbps(100), propagation, Bytes(9'216)}),
        a("a", ba, ab, Time::ns(3)),
        b("b", ab, ba, Time::ns(7)),
        counter(a, b, Time::ns(250)) {
    for (uint8_t i = 0; i < 20; ++i) a.start_with(Time::ns(13) * i, static_cast<uint8_t>(30 + i));
    for (uint8_t i = 0; i < 5; ++i) b.start_with(Time::ns(101) * i, static_cast<uint8_t>(40 + i));
  }
  WireLink ab, ba;
  Echo a, b;
  Counter counter;
};

constexpr Time kUntil = Time::us(40);

struct Outcome {
  std::vector<Event> a, b;
  std::vector<Counter::Seen> seen;
  RunStats stats;
};

Outcome run_single(Time propagation) {
  Cable2 c(propagation);
  VirtualScheduler s;
  s.add(c.a);
  s.add(c.b);
  s.add(c.counter);  // last: it reads both after every poll at its instant
  c.ab.connect_receiver(&s, c.b.id());
  c.ba.connect_receiver(&s, c.a.id());
  Outcome o;
  o.stats = s.run(kUntil);
  o.a = c.a.arrivals();
  o.b = c.b.arrivals();
  o.seen = c.counter.seen();
  return o;
}

Outcome run_partitioned(Time propagation, Time lookahead, std::vector<Time> slices, std::string* violation = nullptr,
                        uint32_t threads = 2) {
  Cable2 c(propagation);
  PartitionedScheduler s(2, lookahead, threads);
  s.add(c.a, 0);
  s.add(c.b, 1);
  s.set_serial(c.counter);
  c.ab.connect_receiver(&s.waker(1), c.b.id());
  c.ba.connect_receiver(&s.waker(0), c.a.id());
  s.add_crossing(c.ab, 0, 1);
  s.add_crossing(c.ba, 1, 0);
  Outcome o;
  for (Time until : slices) {
    const RunStats r = s.run(until);
    o.stats.polls += r.polls;
    o.stats.simulated = r.simulated;
    o.stats.idle = r.idle;
  }
  if (violation != nullptr) *violation = s.violation();
  o.a = c.a.arrivals();
  o.b = c.b.arrivals();
  o.seen = c.counter.seen();
  if (s.violation().empty()) {
    EXPECT_GT(s.windows(), 10u);
  }
  return o;
}

TEST(PartitionedScheduler, TwoPartitionsPollLikeOneScheduler) {
  const unsigned before = frames_in_use();
  const Time prop = Time::ns(100);
  const Outcome one = run_single(prop);
  const Outcome two = run_partitioned(prop, prop, {kUntil});
  ASSERT_GT(one.a.size(), 100u);
  EXPECT_EQ(one.a, two.a);
  EXPECT_EQ(one.b, two.b);
  EXPECT_EQ(one.seen, two.seen);
  EXPECT_EQ(one.stats.simulated, two.stats.simulated);
  EXPECT_EQ(frames_in_use(), before);  // every frame freed, on whichever thread
}

TEST(PartitionedScheduler, OneThreadRunsBothPartitionsInTurnAlike) {
  const unsigned before = frames_in_use();
  const Time prop = Time::ns(100);
  const Outcome one = run_single(prop);
  const Outcome turns = run_partitioned(prop, Time::ns(37), {Time::us(13), kUntil}, nullptr, 1);
  EXPECT_EQ(one.a, turns.a);
  EXPECT_EQ(one.b, turns.b);
  EXPECT_EQ(one.seen, turns.seen);
  EXPECT_EQ(one.stats.simulated, turns.stats.simulated);
  std::string violation;
  run_partitioned(prop, Time::us(1), {kUntil}, &violation, 1);
  EXPECT_NE(violation.find("is longer than the link's propagation delay"), std::string::npos) << violation;
  EXPECT_EQ(frames_in_use(), before);
}

TEST(PartitionedScheduler, SlicesAndShorterWindowsChangeNothing) {
  const Time prop = Time::ns(100);
  const Outcome one = run_single(prop);
  std::vector<Time> slices;
  for (Time t = Time::ns(777); t < kUntil; t += Time::ns(777)) slices.push_back(t);
  slices.push_back(kUntil);
  const Outcome short_windows = run_partitioned(prop, Time::ns(37), {kUntil});
  EXPECT_EQ(one.seen, short_windows.seen) << "short windows";
  const Outcome sliced_only = run_partitioned(prop, prop, slices);
  EXPECT_EQ(one.seen, sliced_only.seen) << "slices";
  const Outcome sliced = run_partitioned(prop, Time::ns(37), slices);
  EXPECT_EQ(one.a, sliced.a);
  EXPECT_EQ(one.b, sliced.b);
  EXPECT_EQ(one.seen, sliced.seen);
}

TEST(PartitionedScheduler, ACrossingFrameArrivesExactlyAfterItsDelayNeverBefore) {
  // One frame each way: a's starts at 0 (200 + 30 bytes: 254 x 80 ps on the wire).
  const Time prop = Time::ns(100);
  const Outcome two = run_partitioned(prop, prop, {kUntil});
  ASSERT_FALSE(two.b.empty());
  const Time first_at_b = Time::ps(80) * (200 + 30 + 4 + 20) + prop;
  EXPECT_EQ(two.b.front().at, first_at_b);
  EXPECT_EQ(two.b.front().hops_left, 30);
}

TEST(PartitionedScheduler, WindowsLongerThanACrossingDelayAreCaught) {
  const unsigned before = frames_in_use();
  std::string violation;
  run_partitioned(Time::ns(100), Time::us(1), {kUntil}, &violation);
  EXPECT_TRUE(violation.starts_with("link a->b: ") || violation.starts_with("link b->a: ")) << violation;
  EXPECT_NE(violation.find("lookahead (1000000 ps) is longer than the link's propagation delay (100000 ps)"),
            std::string::npos) << violation;
  EXPECT_EQ(frames_in_use(), before);  // staged frames are freed with their links
}

TEST(PartitionedScheduler, AnIdleRunEndsAtItsLastPoll) {
  // Frames that stop bouncing: both runs go idle at the same last instant.
  const Time prop = Time::ns(100);
  Cable2 c(prop);
  PartitionedScheduler s(2, prop, 2);
  s.add(c.a, 0);
  s.add(c.b, 1);
  c.ab.connect_receiver(&s.waker(1), c.b.id());
  c.ba.connect_receiver(&s.waker(0), c.a.id());
  s.add_crossing(c.ab, 0, 1);
  s.add_crossing(c.ba, 1, 0);
  const RunStats r = s.run(Time::never());
  EXPECT_TRUE(r.idle);
  const Time last = std::max(c.a.arrivals().back().at, c.b.arrivals().back().at);
  EXPECT_EQ(r.simulated, last);
}

// Ticks every `period` until `last`; the base of the two stages below.
class Ticker : public Stage {
 public:
  Ticker(std::string name, Time period, Time last) : Stage(std::move(name)), period_(period), last_(last) {}
  Time next_deadline() const override { return next_ <= last_ ? next_ : Time::never(); }

 protected:
  void advance() { next_ = next_ + period_; }

 private:
  Time period_, last_, next_ = Time::zero();
};

// Counts its polls where another thread can see them.
class Setter final : public Ticker {
 public:
  using Ticker::Ticker;
  void poll(Time now) override {
    if (now < next_deadline()) return;
    polls.fetch_add(1, std::memory_order_release);
    advance();
  }
  std::atomic<uint64_t> polls{0};
};

// At its k-th poll, waits (up to a second) for the setter's k-th: it holds its thread until
// another thread has run the setter's partition in the same window.
class Waiter final : public Ticker {
 public:
  Waiter(Time period, Time last, const Setter& setter) : Ticker("waiter", period, last), setter_(setter) {}
  void poll(Time now) override {
    if (now < next_deadline()) return;
    const uint64_t k = ++polls_;
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(1);
    while (setter_.polls.load(std::memory_order_acquire) < k) {
      if (std::chrono::steady_clock::now() > give_up) {
        ++timeouts;
        break;
      }
    }
    advance();
  }
  uint64_t timeouts = 0;

 private:
  const Setter& setter_;
  uint64_t polls_ = 0;
};

TEST(PartitionedScheduler, AThreadDoneWithItsPartitionsRunsOnesAnotherHasNotStarted) {
  // Thread 0 owns partitions 0 and 2 and is held in 0 until 2 has run in the same window:
  // only thread 1, done with partition 1, can run it. Without stealing every window would
  // wait out the waiter's second.
  const Time period = Time::ns(100);
  const Time last = Time::ns(900);
  Setter setter("setter", period, last);
  Waiter waiter(period, last, setter);
  Setter other("other", period, last);
  PartitionedScheduler s(3, Time::ns(50), 2);
  s.add(waiter, 0);
  s.add(other, 1);
  s.add(setter, 2);
  const RunStats r = s.run(Time::us(1));
  EXPECT_EQ(waiter.timeouts, 0u);
  EXPECT_EQ(setter.polls.load(), 10u);
  EXPECT_EQ(s.windows(), 10u);
  // Each window thread 1 ran partition 2 (thread 0 held in 0), or, when it got there first,
  // 2 and then 0 as well; thread 0 never reaches partition 1 before its owner.
  EXPECT_GE(s.stolen_windows(2) + s.stolen_windows(0), 10u);
  EXPECT_EQ(s.stolen_windows(1), 0u);
  EXPECT_EQ(r.last_polled, last);
}

}  // namespace
}  // namespace rtb::runtime
