// Parallel virtual time across processes, with two "ranks" as two threads of this process
// (ThreadRanks: the collectives of runtime::Ranks over shared slots and a barrier, as MPI
// gives them between processes). Each rank has its own copy of the cable and runs one
// echo; the frames crossing between them are written into messages and rebuilt in the
// other rank's pool. The arrivals are those of one scheduler holding both echoes; a window
// longer than the cable's delay is caught on the receiving rank, and the other rank says
// that a rank failed; no mbuf is left behind.
#include "runtime/rank_crossings.h"

#include <gtest/gtest.h>

#include <array>
#include <barrier>
#include <string>
#include <thread>
#include <vector>

#include "runtime/partitioned_scheduler.h"
#include "runtime/virtual_scheduler.h"
#include "tests/runtime/echo_stage.h"
#include "tests/runtime/test_pool.h"
#include "wire/payload_pattern.h"

namespace rtb::runtime {
namespace {

using testing::frames_in_use;
using testing::Echo;
using testing::Event;

// Two ranks' collectives through shared slots: every rank writes its slot, all meet, each
// reads the others', all meet again before a slot is written anew.
struct Shared {
  std::barrier<> meet{2};
  std::array<std::vector<Message>, 2> out;
  std::array<Time, 2> next{};
  std::array<bool, 2> failed{};
  std::array<uint64_t, 2> word{};
  std::array<Message, 2> bytes;
};

class ThreadRanks final : public Ranks {
 public:
  ThreadRanks(Shared& s, uint32_t rank) : s_(s), rank_(rank) {}
  uint32_t rank() const override { return rank_; }
  uint32_t size() const override { return 2; }
  std::string host_name() const override { return "thread"; }
  Reduced exchange(const std::vector<Message>& out, std::vector<Message>& in, Time next, bool failed) override {
    s_.out[rank_] = out;
    s_.next[rank_] = next;
    s_.failed[rank_] = failed;
    s_.meet.arrive_and_wait();
    in.assign(2, {});
    in[1 - rank_] = s_.out[1 - rank_][rank_];
    const Reduced r{std::min(s_.next[0], s_.next[1]), s_.failed[0] || s_.failed[1]};
    s_.meet.arrive_and_wait();
    return r;
  }
  Time max(Time t) override { return Time::ps(reduce(t.ps(), [](uint64_t a, uint64_t b) { return std::max(a, b); })); }
  uint64_t sum(uint64_t v) override { return reduce(v, [](uint64_t a, uint64_t b) { return a + b; }); }
  bool any(bool b) override { return reduce(b ? 1 : 0, [](uint64_t a, uint64_t c) { return a | c; }) != 0; }
  std::vector<Message> gather(std::span<const std::byte> mine) override {
    s_.bytes[rank_].assign(mine.begin(), mine.end());
    s_.meet.arrive_and_wait();
    std::vector<Message> all;
    if (rank_ == 0) all = {s_.bytes[0], s_.bytes[1]};
    s_.meet.arrive_and_wait();
    return all;
  }

 private:
  template <class Op>
  uint64_t reduce(uint64_t v, Op op) {
    s_.word[rank_] = v;
    s_.meet.arrive_and_wait();
    const uint64_t r = op(s_.word[0], s_.word[1]);
    s_.meet.arrive_and_wait();
    return r;
  }
  Shared& s_;
  uint32_t rank_;
};

// A cable with an echo at each end; a rank runs one of them.
struct Cable2 {
  explicit Cable2(Time propagation)
      : ab({"a->b", Rate::gbps(100), propagation, Bytes(9'216)}),
        ba({"b->a", Rate::gbps(100), propagation, Bytes(9'216)}),
        a("a", ba, ab, Time::ns(3)),
        b("b", ab, ba, Time::ns(7)) {}
  void start(bool at_a) {
    if (at_a) {
      for (uint8_t i = 0; i < 20; ++i) a.start_with(Time::ns(13) * i, static_cast<uint8_t>(30 + i));
    } else {
      for (uint8_t i = 0; i < 5; ++i) b.start_with(Time::ns(101) * i, static_cast<uint8_t>(40 + i));
    }
  }
  WireLink ab, ba;
  Echo a, b;
};

constexpr Time kUntil = Time::us(40);

struct Outcome {
  std::vector<Event> a, b;
  std::array<std::string, 2> violation;
  std::array<uint64_t, 2> crossed{};
  std::array<std::string, 2> leaks;
};

Outcome run_single(Time propagation) {
  Cable2 c(propagation);
  c.start(true);
  c.start(false);
  VirtualScheduler s;
  s.add(c.a);
  s.add(c.b);
  c.ab.connect_receiver(&s, c.b.id());
  c.ba.connect_receiver(&s, c.a.id());
  s.run(kUntil);
  return Outcome{c.a.arrivals(), c.b.arrivals(), {}, {}, {}};
}

PoolSet rank_pools(uint32_t rank) {
  static uint32_t made = 0;
  PoolSizes z{.data_count = 256, .data_room = RTE_PKTMBUF_HEADROOM + 9'216, .control_count = 64,
              .control_room = RTE_PKTMBUF_HEADROOM + 256};
  auto p = PoolSet::create(z, &wire::payload_byte, "rank" + std::to_string(rank) + "_" + std::to_string(made++),
                           OnEmpty::kFatal, Populate::kOnDemand);
  if (!p) throw std::runtime_error(p.error().message);
  return std::move(p).value();
}

// `b_starts`: echo b sends frames of its own too (otherwise only echoes a's).
void run_rank(Shared& shared, uint32_t rank, Time propagation, Time lookahead, bool b_starts, Outcome& o) {
  ThreadRanks ranks(shared, rank);
  PoolSet pools = rank_pools(rank);
  {
    Cable2 c(propagation);
    if (rank == 0 || b_starts) c.start(rank == 0);
    PartitionedScheduler s(2, lookahead, 1);
    s.set_ranks(ranks, {0, 1});
    if (rank == 0) {
      s.add(c.a, 0);
      c.ba.connect_receiver(&s.waker(0), c.a.id());
    } else {
      s.add(c.b, 1);
      c.ab.connect_receiver(&s.waker(1), c.b.id());
    }
    s.add_crossing(c.ab, 0, 1, 0, &pools);
    s.add_crossing(c.ba, 1, 0, 1, &pools);
    for (Time until = Time::us(7);; until = std::min(until + Time::us(7), kUntil)) {  // in slices, as a run
      const RunStats r = s.run(until);
      if (r.idle || until == kUntil || !s.violation().empty()) break;
    }
    o.violation[rank] = s.violation();
    o.crossed[rank] = s.rank_crossings()->frames_received();
    (rank == 0 ? o.a : o.b) = (rank == 0 ? c.a : c.b).arrivals();
    c.ab.drain();
    c.ba.drain();
  }
  const Status leaks = pools.check_no_leaks();
  o.leaks[rank] = leaks ? "" : leaks.message();
}

Outcome run_ranked(Time propagation, Time lookahead, bool b_starts = true) {
  Shared shared;
  Outcome o;
  std::thread other([&] { run_rank(shared, 1, propagation, lookahead, b_starts, o); });
  run_rank(shared, 0, propagation, lookahead, b_starts, o);
  other.join();
  return o;
}

TEST(RankCrossings, TwoRanksPollLikeOneScheduler) {
  const unsigned before = frames_in_use();
  const Time prop = Time::ns(100);
  const Outcome one = run_single(prop);
  const Outcome two = run_ranked(prop, Time::ns(37));
  ASSERT_GT(one.a.size(), 100u);
  EXPECT_EQ(one.a, two.a);
  EXPECT_EQ(one.b, two.b);
  EXPECT_GT(two.crossed[0], 100u);
  EXPECT_GT(two.crossed[1], 100u);
  EXPECT_EQ(two.violation[0], "");
  EXPECT_EQ(two.violation[1], "");
  EXPECT_EQ(two.leaks[0], "");
  EXPECT_EQ(two.leaks[1], "");
  EXPECT_EQ(frames_in_use(), before);
}

TEST(RankCrossings, AWindowLongerThanTheCrossingDelayIsCaughtOnEveryRank) {
  const unsigned before = frames_in_use();
  // Only a sends first: its first frame is due at b (rank 1) inside the too-long window.
  const Outcome o = run_ranked(Time::ns(100), Time::us(1), false);
  const std::string& caught = o.violation[1];
  const std::string& told = o.violation[0];
  EXPECT_TRUE(caught.starts_with("link a->b: ")) << caught;
  EXPECT_NE(caught.find("lookahead (1000000 ps) is longer than the link's propagation delay (100000 ps)"),
            std::string::npos) << caught;
  EXPECT_NE(told.find("another rank"), std::string::npos) << told;
  EXPECT_EQ(o.leaks[0], "");
  EXPECT_EQ(o.leaks[1], "");
  EXPECT_EQ(frames_in_use(), before);
}

}  // namespace
}  // namespace rtb::runtime
