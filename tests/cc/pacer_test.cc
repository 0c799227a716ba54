// The pacer in virtual time: exact send times, achieved rates, no burst after a pause,
// and 10^6 flows with bounded memory.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <tuple>

#include "cc_algos/pacer/pacer.h"
#include "core/rng.h"

namespace rtb::cc {
namespace {

using ::testing::HasSubstr;

constexpr uint64_t kPsPerS = 1'000'000'000'000ULL;

Pacer make(uint32_t flows, uint32_t slots_log2 = 20, Time width = Time::ns(100),
           uint32_t fine_log2 = 8) {
  auto p = Pacer::create(PacerConfig{flows, width, slots_log2, Time::zero(), fine_log2});
  EXPECT_TRUE(p.ok()) << (p.ok() ? "" : p.error().message);
  return std::move(p).value();
}

struct FlowLog {
  uint64_t packets = 0;
  Time first, last;
};

// The host loop in virtual time: jump to the pacer's deadline, send every released flow
// one frame (all stay ready), until `packets` frames were sent.
std::vector<FlowLog> run(Pacer& p, uint64_t packets, Bytes frame) {
  std::vector<FlowLog> log(p.max_flows());
  std::array<FlowIndex, 64> out;
  uint64_t sent = 0;
  while (sent < packets) {
    const Time now = p.next_deadline();
    if (now.is_never()) break;
    const size_t n = p.poll(now, out);
    for (size_t i = 0; i < n && sent < packets; ++i, ++sent) {
      FlowLog& l = log[out[i]];
      if (l.packets++ == 0) l.first = now;
      l.last = now;
      p.sent(out[i], frame, now, true);
    }
  }
  return log;
}

TEST(Pacer, SendTimesArePicosecondExactOverAMillionFrames) {
  Pacer p = make(1);
  const Rate r = Rate::bps(3'000'000'007);  // nothing divides evenly
  const Bytes frame(1106);
  p.set_rate(0, r, Time::zero());
  p.ready(0, Time::zero());
  std::array<FlowIndex, 8> out;
  for (uint64_t k = 1; k <= 1'000'000; ++k) {
    const Time now = p.next_deadline();
    ASSERT_EQ(p.poll(now, out), 1u);
    // Released at the start of its slot, never after its exact time.
    ASSERT_LE(now, p.next_send(0));
    ASSERT_GT(now + p.slot_width(), p.next_send(0));
    p.sent(0, frame, now, true);
    // The k-th next send time is floor(k * bits * 1e12 / rate): no drift.
    const u128 exact = static_cast<u128>(k) * frame.bits() * kPsPerS / r.bps();
    ASSERT_EQ(p.next_send(0).ps(), static_cast<uint64_t>(exact)) << "frame " << k;
  }
}

// Achieved rate of each flow: (packets - 1) frames over (last - first) release times.
void expect_rates(const std::vector<FlowLog>& log, const std::vector<Rate>& rates, Bytes frame) {
  for (size_t f = 0; f < log.size(); ++f) {
    ASSERT_GE(log[f].packets, 10u) << "flow " << f;
    const double achieved = static_cast<double>((log[f].packets - 1) * frame.bits()) /
                            (log[f].last - log[f].first).s_f();
    const double set = static_cast<double>(rates[f].bps());
    ASSERT_NEAR(achieved / set, 1.0, 1e-3) << "flow " << f << " set " << set;
  }
}

void rates_test(uint32_t flows, uint64_t lo_mbps, uint64_t hi_mbps) {
  Pacer p = make(flows);
  Rng rng(5, flows);
  std::vector<Rate> rates;
  for (uint32_t f = 0; f < flows; ++f) {
    rates.push_back(Rate::mbps(lo_mbps + rng.uniform_int(hi_mbps - lo_mbps + 1)));
    p.set_rate(f, rates.back(), Time::zero());
    // Seeded start jitter so flows are not in phase.
    p.ready(f, Time::ps(rng.uniform_int(1'000'000)));
  }
  const Bytes frame(1000);
  expect_rates(run(p, 1'000'000, frame), rates, frame);
}

TEST(Pacer, AchievedRatesMatchSetRatesOneFlow) { rates_test(1, 37'000, 37'000); }
TEST(Pacer, AchievedRatesMatchSetRates100Flows) { rates_test(100, 100, 4'000); }
TEST(Pacer, AchievedRatesMatchSetRates10000Flows) { rates_test(10'000, 500, 5'000); }

TEST(Pacer, NoBurstAfterAPause) {
  Pacer p = make(2);
  const Bytes frame(1000);
  const Time gap = Time::ns(800);  // 1000 B at 10 Gb/s
  p.set_rate(0, Rate::gbps(10), Time::zero());
  p.set_rate(1, Rate::gbps(10), Time::zero());
  p.ready(0, Time::zero());
  p.ready(1, Time::zero());
  std::array<FlowIndex, 8> out;
  std::vector<Time> sends;
  bool paused = false;
  Time resume_at;
  while (sends.size() < 300) {
    const Time now = p.next_deadline();
    const size_t n = p.poll(now, out);
    for (size_t i = 0; i < n; ++i) {
      if (out[i] == 1) {  // flow 1 keeps the clock moving
        p.sent(1, frame, now, true);
        continue;
      }
      sends.push_back(now);
      if (sends.size() == 100 && !paused) {
        p.sent(0, frame, now, false);  // e.g. PFC pause: flow 0 cannot send
        paused = true;
        resume_at = now + Time::ms(1);
        continue;
      }
      p.sent(0, frame, now, true);
    }
    if (paused && now >= resume_at && !p.waiting(0) && sends.size() == 100) p.ready(0, now);
  }
  // Before and after the pause, consecutive sends are a gap apart (up to one slot of
  // release quantization); right after the pause there is no catching up.
  for (size_t i = 1; i < sends.size(); ++i) {
    if (i == 100) {
      EXPECT_GE(sends[i], resume_at);
      continue;
    }
    EXPECT_GE(sends[i] - sends[i - 1] + p.slot_width(), gap) << "send " << i;
  }
  // In the first 10 gaps after the resume, at most 11 frames.
  size_t burst = 0;
  for (size_t i = 100; i < sends.size(); ++i) burst += sends[i] < sends[100] + gap * 10;
  EXPECT_LE(burst, 11u);
}

TEST(Pacer, ReadyAfterIdleStartsNowAndBlockedFlowsAreNotReleased) {
  Pacer p = make(3);
  p.set_rate(0, Rate::gbps(1), Time::zero());
  p.ready(0, Time::us(50));
  EXPECT_EQ(p.next_send(0), Time::us(50));
  p.block(0);
  EXPECT_TRUE(p.next_deadline().is_never());
  std::array<FlowIndex, 4> out;
  EXPECT_EQ(p.poll(Time::ms(1), out), 0u);
  // Rate zero holds a ready flow until a rate arrives.
  p.ready(1, Time::ms(1));
  EXPECT_TRUE(p.next_deadline().is_never());
  p.set_rate(1, Rate::gbps(1), Time::ms(2));
  EXPECT_EQ(p.next_send(1), Time::ms(2));
  ASSERT_EQ(p.poll(Time::ms(2), out), 1u);
  EXPECT_EQ(out[0], 1u);
}

TEST(Pacer, RateChangeRescalesTheRemainingWait) {
  Pacer p = make(1);
  p.set_rate(0, Rate::gbps(1), Time::zero());
  p.ready(0, Time::zero());
  std::array<FlowIndex, 4> out;
  ASSERT_EQ(p.poll(Time::zero(), out), 1u);
  p.sent(0, Bytes(1000), Time::zero(), true);  // next at 8 us
  EXPECT_EQ(p.next_send(0), Time::us(8));
  p.set_rate(0, Rate::mbps(500), Time::us(2));  // 6 us left at 1G = 12 us at 0.5G
  EXPECT_EQ(p.next_send(0), Time::us(14));
  EXPECT_EQ(p.poll(Time::us(8), out), 0u);
  EXPECT_EQ(p.next_deadline(), Time::us(14));
}

TEST(Pacer, FlowsBeyondTheHorizonParkAndKeepExactTimes) {
  // 64 slots of 100 ns: a 6.4 us horizon; a 1 Mb/s flow of 9000 B frames waits 72 ms.
  Pacer p = make(2, 6);
  p.set_rate(0, Rate::mbps(1), Time::zero());
  p.set_rate(1, Rate::gbps(8), Time::zero());
  p.ready(0, Time::zero());
  p.ready(1, Time::zero());
  std::array<FlowIndex, 4> out;
  std::vector<Time> slow;
  while (slow.size() < 5) {
    const Time now = p.next_deadline();
    const size_t n = p.poll(now, out);
    for (size_t i = 0; i < n; ++i) {
      if (out[i] == 0) slow.push_back(now);
      p.sent(out[i], out[i] == 0 ? Bytes(9000) : Bytes(1000), now, true);
    }
  }
  for (size_t i = 1; i < slow.size(); ++i) EXPECT_EQ(slow[i] - slow[i - 1], Time::ms(72));
}

TEST(Pacer, AMillionFlowsWithBoundedMemory) {
  constexpr uint32_t kFlows = 1'000'000;
  Pacer p = make(kFlows);
  EXPECT_LE(Pacer::bytes_per_flow(), 48u);
  Rng rng(9, 1);
  for (uint32_t f = 0; f < kFlows; ++f) {
    p.set_rate(f, Rate::mbps(100 + rng.uniform_int(900)), Time::zero());
    p.ready(f, Time::ps(rng.uniform_int(10'000'000)));
  }
  const Bytes frame(1000);
  const auto log = run(p, 1'200'000, frame);
  uint64_t total = 0, idle = 0;
  for (const auto& l : log) total += l.packets, idle += l.packets == 0;
  EXPECT_EQ(total, 1'200'000u);
  EXPECT_EQ(idle, 0u);  // every flow got its turn
}

// Removal is lazy: a blocked or re-filed flow leaves a stale entry in its old slot, which
// the drain skips; the others keep their FIFO order.
TEST(Pacer, StaleEntriesAreSkippedAndFifoHolds) {
  Pacer p = make(4);
  for (FlowIndex f = 0; f < 4; ++f) {
    p.set_rate(f, Rate::gbps(1), Time::zero());
    p.ready(f, Time::ns(10 * f));  // all in slot 0, filed 0, 1, 2, 3
  }
  p.block(1);                // stale entry
  p.ready(1, Time::ns(50));  // a new ticket, filed after 3
  p.block(2);
  std::array<FlowIndex, 8> out;
  ASSERT_EQ(p.poll(Time::ns(50), out), 3u);
  EXPECT_EQ(out[0], 0u);
  EXPECT_EQ(out[1], 3u);
  EXPECT_EQ(out[2], 1u);  // released once, at its new place
  EXPECT_EQ(p.poll(Time::ms(1), out), 0u);
  EXPECT_TRUE(p.next_deadline().is_never());
}

// A rate change re-files the flow with a new ticket: its old entry, in an earlier slot,
// does not release it early, and the flow is released exactly once.
TEST(Pacer, StaleTicketAfterRateChangesReleasesOnce) {
  Pacer p = make(2);
  p.set_rate(0, Rate::gbps(1), Time::zero());
  p.ready(0, Time::zero());
  std::array<FlowIndex, 4> out;
  ASSERT_EQ(p.poll(Time::zero(), out), 1u);
  p.sent(0, Bytes(1000), Time::zero(), true);  // filed at 8 us
  p.set_rate(0, Rate::mbps(500), Time::zero());  // re-filed at 16 us
  p.set_rate(0, Rate::mbps(250), Time::zero());  // re-filed at 32 us
  EXPECT_EQ(p.next_deadline(), Time::us(32));
  EXPECT_EQ(p.poll(Time::us(31), out), 0u);
  ASSERT_EQ(p.poll(Time::us(32), out), 1u);
  EXPECT_EQ(out[0], 0u);
  EXPECT_EQ(p.poll(Time::ms(1), out), 0u);
}

// Beyond the cursor's span (256 slots of 100 ns: 25.6 us) a flow waits in its span's
// bucket. Cascading the bucket when the cursor enters the span keeps the filing order, and
// flows filed into the span afterwards come after the cascaded ones.
TEST(Pacer, CascadedFlowsKeepTheirOrderBeforeLaterFilings) {
  Pacer p = make(3);
  for (FlowIndex f = 0; f < 3; ++f) p.set_rate(f, Rate::gbps(1), Time::zero());
  p.ready(2, Time::ns(30'050));  // slot 300, span 1: a bucket
  p.ready(0, Time::us(30));      // slot 300
  std::array<FlowIndex, 4> out;
  EXPECT_EQ(p.poll(Time::ns(25'600), out), 0u);  // enters span 1: cascades, releases nothing
  p.ready(1, Time::us(30));  // slot 300, filed straight into the fine slot
  ASSERT_EQ(p.poll(Time::us(30), out), 3u);
  EXPECT_EQ(out[0], 2u);
  EXPECT_EQ(out[1], 0u);
  EXPECT_EQ(out[2], 1u);
}

// A bucket's deadline is its earliest filing: a lower bound, early when that flow has left
// since. A poll at it releases nothing and cascades the bucket; the deadline is then exact.
// (Flow 2 takes the lane first, so that flows 0 and 1, filed out of order, go to the wheel.)
TEST(Pacer, BucketDeadlineIsALowerBoundThatAPollMakesExact) {
  Pacer p = make(3);
  for (FlowIndex f = 0; f < 3; ++f) p.set_rate(f, Rate::gbps(1), Time::zero());
  p.ready(2, Time::us(50));  // the lane
  p.ready(0, Time::us(30));  // slot 300, span 1
  p.ready(1, Time::us(40));  // slot 400, span 1
  EXPECT_EQ(p.lane_filings(), 1u);
  EXPECT_EQ(p.next_deadline(), Time::us(30));
  p.block(0);
  EXPECT_EQ(p.next_deadline(), Time::us(30));
  std::array<FlowIndex, 4> out;
  EXPECT_EQ(p.poll(Time::us(30), out), 0u);
  EXPECT_EQ(p.next_deadline(), Time::us(40));
  ASSERT_EQ(p.poll(Time::us(40), out), 1u);
  EXPECT_EQ(out[0], 1u);
  EXPECT_EQ(p.next_deadline(), Time::us(50));
  ASSERT_EQ(p.poll(Time::us(50), out), 1u);
  EXPECT_EQ(out[0], 2u);
  EXPECT_TRUE(p.next_deadline().is_never());
}

// The lane drops the stale entries at its front: a flow that left makes no early deadline,
// and the lane's next flow is released at its own slot.
TEST(Pacer, LaneDeadlineIsExactAfterItsFrontLeaves) {
  Pacer p = make(3);
  for (FlowIndex f = 0; f < 3; ++f) p.set_rate(f, Rate::gbps(1), Time::zero());
  p.ready(0, Time::us(30));
  p.ready(1, Time::us(40));
  p.ready(2, Time::us(40));
  EXPECT_EQ(p.lane_filings(), 3u);
  p.block(0);
  EXPECT_EQ(p.next_deadline(), Time::us(40));
  p.block(2);  // the lane's back is flow 1 again: a filing before 40 us goes to the wheel
  p.ready(0, Time::us(35));
  EXPECT_EQ(p.lane_filings(), 3u);
  EXPECT_EQ(p.next_deadline(), Time::us(35));
  std::array<FlowIndex, 4> out;
  ASSERT_EQ(p.poll(Time::us(40), out), 2u);
  EXPECT_THAT(std::vector<FlowIndex>(out.begin(), out.begin() + 2), ::testing::ElementsAre(0u, 1u));
  EXPECT_TRUE(p.next_deadline().is_never());
}

// Flows filed in the lane before the wheel took its first flow leave first within a slot;
// a wheel flow in an earlier slot leaves before them.
TEST(Pacer, LaneAndWheelReleaseBySlotThenFilingOrder) {
  Pacer p = make(4);
  for (FlowIndex f = 0; f < 4; ++f) p.set_rate(f, Rate::gbps(1), Time::zero());
  p.ready(0, Time::us(2));  // the lane
  p.ready(1, Time::us(1));  // out of order: the wheel
  p.ready(2, Time::us(2));  // the wheel holds a flow: the wheel
  p.ready(3, Time::us(2));
  EXPECT_EQ(p.lane_filings(), 1u);
  std::array<FlowIndex, 8> out;
  ASSERT_EQ(p.poll(Time::us(2), out), 4u);
  EXPECT_THAT(std::vector<FlowIndex>(out.begin(), out.begin() + 4),
              ::testing::ElementsAre(1u, 0u, 2u, 3u));
  p.ready(3, Time::us(3));  // the wheel is empty again: the lane takes filings
  EXPECT_EQ(p.lane_filings(), 2u);
}

// A handful of flows churning in one slot fills the small chunk pool with stale entries:
// the pacer compacts (a counted event) and loses nothing; the drained wheel gives every
// chunk back.
TEST(Pacer, ChunkExhaustionCompactsAndLosesNothing) {
  constexpr uint32_t kFlows = 4;
  Pacer p = make(kFlows);
  const size_t pool = p.free_chunks();
  for (FlowIndex f = 0; f < kFlows; ++f) p.set_rate(f, Rate::gbps(1), Time::zero());
  p.ready(3, Time::us(2));  // the lane, so that the others go to the wheel
  p.ready(0, Time::us(1));  // keeps slot 10 live throughout
  for (int i = 0; i < 100; ++i) {
    p.ready(1, Time::us(1));
    p.ready(2, Time::us(1));
    p.block(1);
    p.block(2);
  }
  p.ready(2, Time::us(1));
  p.ready(1, Time::us(1));
  EXPECT_GT(p.compactions(), 0u);
  std::array<FlowIndex, 8> out;
  EXPECT_EQ(p.poll(Time::ns(999), out), 0u);
  ASSERT_EQ(p.poll(Time::us(1), out), 3u);
  EXPECT_EQ(out[0], 0u);
  EXPECT_EQ(out[1], 2u);
  EXPECT_EQ(out[2], 1u);
  EXPECT_EQ(p.free_chunks(), pool);
  ASSERT_EQ(p.poll(Time::us(2), out), 1u);
  EXPECT_EQ(out[0], 3u);
}

// The wheel against a plain model (every waiting flow with its slot and filing order,
// released in (slot, order)) under random set_rate / ready / block / sent, with a pool
// small enough to compact: wide slots, so many flows and stale entries share one, and
// phases of `quiet_steps` without polls that pile stale entries up. With `one_rate` most
// flows share a rate, so most filings come in time order and the lane takes them.
struct ModelRun {
  uint64_t compactions = 0, filings = 0, lane_filings = 0;
};
ModelRun reference_model_run(Time width, int quiet_steps, uint32_t fine_log2 = 8,
                             bool one_rate = false) {
  constexpr uint32_t kFlows = 16;
  Pacer p = make(kFlows, 6, width, fine_log2);  // a 64-slot horizon: the rates below never park
  struct Ref {
    bool waiting = false;
    uint64_t slot = 0, order = 0;
  };
  std::vector<Ref> ref(kFlows);
  uint64_t order = 0, cursor = 0;
  auto file = [&](FlowIndex f) {
    ref[f] = {true, std::max(p.next_send(f).ps() / width.ps(), cursor), order++};
  };
  Rng rng(11, 1);
  std::vector<bool> released(kFlows, false);
  Time now;
  for (int step = 0; step < 200'000; ++step) {
    now = now + Time::ps(rng.uniform_int(200'000));
    const FlowIndex f = static_cast<FlowIndex>(rng.uniform_int(kFlows));
    switch (rng.uniform_int(8)) {
      case 0: {  // a new rate, 1..10 Gb/s: a waiting flow with time left is re-filed
        const Rate old = p.rate(f);
        const Time next = p.next_send(f);
        const Rate rate = one_rate ? Rate::gbps(rng.uniform_int(8) == 0 ? 5 : 10)
                                   : Rate::mbps(1'000 + rng.uniform_int(9'000));
        p.set_rate(f, rate, now);
        if (ref[f].waiting && next > now && old != rate) file(f);
        break;
      }
      case 1:
      case 2:
      case 3:
        if (released[f]) break;
        if (!ref[f].waiting && p.rate(f).bps() > 0) {
          p.ready(f, now);
          file(f);
        }
        break;
      case 4:
      case 5:
        if (released[f]) break;
        p.block(f);
        ref[f].waiting = false;
        break;
      default: {
        if ((step / quiet_steps) % 2 == 1) break;  // no polls: stale entries pile up
        std::array<FlowIndex, 4> out;
        const size_t n = p.poll(now, out);
        std::vector<FlowIndex> expect;
        for (FlowIndex g = 0; g < kFlows; ++g)
          if (ref[g].waiting && ref[g].slot * width.ps() <= now.ps()) expect.push_back(g);
        std::sort(expect.begin(), expect.end(), [&](FlowIndex a, FlowIndex b) {
          return std::tie(ref[a].slot, ref[a].order) < std::tie(ref[b].slot, ref[b].order);
        });
        if (expect.size() >= out.size()) {  // a full batch stops at the last slot read
          cursor = ref[expect[out.size() - 1]].slot;
          expect.resize(out.size());
        } else {
          cursor = std::max(cursor, now.ps() / width.ps());
        }
        EXPECT_EQ(std::vector<FlowIndex>(out.begin(), out.begin() + n), expect)
            << "step " << step;
        if (::testing::Test::HasFailure()) return {};
        for (FlowIndex g : expect) ref[g].waiting = false;
        for (size_t i = 0; i < n; ++i) {  // send now, or keep a few back for later steps
          if (rng.uniform_int(4) == 0) {
            released[out[i]] = true;
            continue;
          }
          const bool again = rng.uniform_int(3) != 0;
          p.sent(out[i], Bytes(1000), now, again);
          if (again) file(out[i]);
        }
        for (FlowIndex g = 0; g < kFlows; ++g) {
          if (!released[g] || rng.uniform_int(4) != 0) continue;
          released[g] = false;
          p.sent(g, Bytes(1000), now, true);
          file(g);
        }
      }
    }
    EXPECT_EQ(p.waiting(f), ref[f].waiting) << "step " << step;
    if (::testing::Test::HasFailure()) return {};
  }
  return {p.compactions(), order, p.lane_filings()};
}

// A host that polls rarely: `now` jumps up to six revolutions of a 64-slot wheel between
// polls, with flows parking beyond the horizon, stalling at rate zero and blocking, and fine
// wheels of 2 to 32 slots. After every poll that did not fill its batch, no waiting flow is
// due, and no released flow was early: a flow filed while the cursor lags is neither lost
// nor released from a stale place.
TEST(Pacer, PollsRevolutionsApartReleaseEveryFlowDueAndNoneEarly) {
  constexpr uint32_t kFlows = 16;
  constexpr uint64_t kSlotPs = 100'000;
  for (uint32_t seed = 0; seed < 20; ++seed) {
    Pacer p = make(kFlows, 6, Time::ps(kSlotPs), 1 + seed % 5);
    Rng rng(5, seed);
    Time now;
    for (int step = 0; step < 100'000; ++step) {
      const bool jump = rng.uniform_int(8) == 0;
      now = now + Time::ps(jump ? rng.uniform_int(40'000'000) : rng.uniform_int(300'000));
      const FlowIndex f = static_cast<FlowIndex>(rng.uniform_int(kFlows));
      switch (rng.uniform_int(6)) {
        case 0:
          p.set_rate(f, rng.uniform_int(10) == 0 ? Rate::bps(0)
                                                 : Rate::mbps(1 + rng.uniform_int(20'000)),
                     now);
          break;
        case 1:
        case 2: p.ready(f, now); break;
        case 3: p.block(f); break;
        default: {
          std::array<FlowIndex, 4> out;
          const size_t n = p.poll(now, out);
          for (size_t i = 0; i < n; ++i) {
            ASSERT_LE(p.next_send(out[i]).ps() / kSlotPs * kSlotPs, now.ps())
                << "seed " << seed << " step " << step;
            p.sent(out[i], Bytes(1000), now, rng.uniform_int(3) != 0);
          }
          if (n == out.size()) break;
          for (FlowIndex g = 0; g < kFlows; ++g)
            ASSERT_FALSE(p.waiting(g) && p.next_send(g).ps() / kSlotPs * kSlotPs <= now.ps())
                << "seed " << seed << " step " << step << " flow " << g;
        }
      }
    }
  }
}

// 10 us slots: a span of 32 slots is 320 us, so buckets are cascaded every few hundred
// steps. 1 ms slots: the 16 flows share one slot, whose stale entries run the pool dry.
TEST(Pacer, MatchesAReferenceModelUnderRandomChurn) { reference_model_run(Time::us(10), 1000); }
TEST(Pacer, MatchesAReferenceModelWhileCompacting) {
  EXPECT_GT(reference_model_run(Time::ms(1), 4000).compactions, 0u);
}
// A fine wheel of 4 slots and 16 buckets: nearly every filing goes through a cascade.
TEST(Pacer, MatchesAReferenceModelWithANarrowFineWheel) {
  reference_model_run(Time::us(10), 1000, 2);
}
// Flows at one rate: the lane takes most filings, the wheel the rest, and the two
// together keep the model's order.
TEST(Pacer, MatchesAReferenceModelWithTheLaneAndTheWheelTogether) {
  for (uint32_t fine_log2 : {2u, 8u}) {
    const ModelRun r = reference_model_run(Time::us(10), 1000, fine_log2, true);
    EXPECT_GT(r.lane_filings, r.filings / 4);
    EXPECT_LT(r.lane_filings, r.filings * 9 / 10);
  }
}

TEST(Pacer, BadConfigIsRefused) {
  EXPECT_THAT(Pacer::create(PacerConfig{0}).error().message, HasSubstr("max_flows = 0 is invalid"));
  EXPECT_THAT(Pacer::create(PacerConfig{10, Time::zero()}).error().message, HasSubstr("slot_width = 0 ps"));
  EXPECT_THAT(Pacer::create(PacerConfig{10, Time::ns(100), 30}).error().message,
              HasSubstr("slots_log2 = 30 is invalid: expected 6..24"));
  EXPECT_THAT(Pacer::create(PacerConfig{10, Time::ns(100), 20, Time::zero(), 0}).error().message,
              HasSubstr("fine_log2 = 0 is invalid: expected 1..15"));
  // An entry's fine slot is 16 bits, one value of which says the flow parked.
  EXPECT_THAT(Pacer::create(PacerConfig{10, Time::ns(100), 20, Time::zero(), 16}).error().message,
              HasSubstr("fine_log2 = 16 is invalid: expected 1..15"));
}

}  // namespace
}  // namespace rtb::cc
