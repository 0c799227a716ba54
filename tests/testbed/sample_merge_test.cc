// Joining the per-lcore parts of a realtime run's time series (lib/testbed/sample_merge.h):
// the order of one sampler, each field from the part that has it, incomplete samples out.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "testbed/depth_totals.h"
#include "testbed/sample_merge.h"

namespace rtb::testbed {
namespace {

constexpr uint8_t kBoth = FlowSample::kSenderPart | FlowSample::kReceiverPart;

FlowSample sender(uint32_t tick, uint32_t flow, Time at, uint64_t rate_gbps) {
  FlowSample x;
  x.tick = tick;
  x.flow = flow;
  x.at = at;
  x.parts = FlowSample::kSenderPart;
  x.cc_rate = Rate::gbps(rate_gbps);
  x.cnp_handled = 7;
  x.cc_state_count = 1;
  x.cc_state[0] = 0.5;
  return x;
}

FlowSample receiver(uint32_t tick, uint32_t flow, Time at, uint64_t bytes) {
  FlowSample x;
  x.tick = tick;
  x.flow = flow;
  x.at = at;
  x.parts = FlowSample::kReceiverPart;
  x.bytes_received = bytes;
  x.throughput_gbps = 12.5;
  return x;
}

TEST(SampleMerge, PartsFromTwoLcoresJoinInTickThenFlowOrder) {
  // Lcore 0 has the senders, lcore 1 the receivers; lcore 1 drained in a different order.
  const std::vector<std::vector<FlowSample>> by_lcore = {
      {sender(1, 0, Time::us(10), 40), sender(1, 1, Time::us(10), 41), sender(2, 0, Time::us(20), 42),
       sender(2, 1, Time::us(20), 43)},
      {receiver(1, 0, Time::ns(10'050), 100), receiver(1, 1, Time::ns(10'050), 200),
       receiver(2, 0, Time::ns(19'990), 300), receiver(2, 1, Time::ns(19'990), 400)}};
  const MergedFlowSamples m = merge_flow_samples(by_lcore, {kBoth, kBoth});
  ASSERT_EQ(m.samples.size(), 4u);
  EXPECT_EQ(m.incomplete, 0u);
  const uint32_t ticks[] = {1, 1, 2, 2}, flows[] = {0, 1, 0, 1};
  const uint64_t bytes[] = {100, 200, 300, 400}, rates[] = {40, 41, 42, 43};
  for (size_t i = 0; i < 4; ++i) {
    SCOPED_TRACE(i);
    const FlowSample& x = m.samples[i];
    EXPECT_EQ(x.tick, ticks[i]);
    EXPECT_EQ(x.flow, flows[i]);
    EXPECT_EQ(x.parts, kBoth);
    EXPECT_EQ(x.bytes_received, bytes[i]);
    EXPECT_EQ(x.throughput_gbps, 12.5);
    EXPECT_EQ(x.cc_rate, Rate::gbps(rates[i]));
    EXPECT_EQ(x.cnp_handled, 7u);
    EXPECT_EQ(x.cc_state_count, 1u);
    EXPECT_EQ(x.cc_state[0], 0.5);
  }
  EXPECT_EQ(m.samples[0].at, Time::ns(10'050));  // the later part: when it was complete
  EXPECT_EQ(m.samples[2].at, Time::us(20));
}

TEST(SampleMerge, ASampleWithAMissingPartIsLeftOutAndCounted) {
  const std::vector<std::vector<FlowSample>> by_lcore = {
      {sender(1, 0, Time::us(10), 40), sender(2, 0, Time::us(20), 40), sender(3, 0, Time::us(30), 40)},
      {receiver(1, 0, Time::us(10), 100), receiver(3, 0, Time::us(30), 300)}};  // tick 2's was lost
  const MergedFlowSamples m = merge_flow_samples(by_lcore, {kBoth});
  ASSERT_EQ(m.samples.size(), 2u);
  EXPECT_EQ(m.samples[0].tick, 1u);
  EXPECT_EQ(m.samples[1].tick, 3u);
  EXPECT_EQ(m.incomplete, 1u);
  EXPECT_EQ(m.after_end, 0u);
}

// The run stopped on lcore 0 before its third sample and on lcore 1 after: tick 3 would
// hold flow 1 (whole on lcore 1) without flow 0, a shape no single sampler gives.
TEST(SampleMerge, TheSeriesEndsAtTheLastTickEveryLcoreTook) {
  FlowSample whole1 = sender(3, 1, Time::us(30), 40);
  whole1.parts = kBoth;
  FlowSample whole1_t2 = whole1, whole1_t1 = whole1;
  whole1_t2.tick = 2;
  whole1_t1.tick = 1;
  const std::vector<std::vector<FlowSample>> by_lcore = {
      {sender(1, 0, Time::us(10), 40), sender(2, 0, Time::us(20), 40)},
      {receiver(1, 0, Time::us(10), 100), whole1_t1, receiver(2, 0, Time::us(20), 200), whole1_t2,
       receiver(3, 0, Time::us(30), 300), whole1}};
  const MergedFlowSamples m = merge_flow_samples(by_lcore, {kBoth, kBoth});
  ASSERT_EQ(m.samples.size(), 4u);
  EXPECT_EQ(m.samples.back().tick, 2u);
  EXPECT_EQ(m.incomplete, 0u);
  EXPECT_EQ(m.after_end, 2u);  // tick 3: flow 0's receiver part and flow 1 whole
}

TEST(SampleMerge, AFlowWithOneEndInThisProcessIsWholeWithThatPart) {
  const MergedFlowSamples m =
      merge_flow_samples({{sender(1, 0, Time::us(10), 40)}}, {FlowSample::kSenderPart});
  ASSERT_EQ(m.samples.size(), 1u);
  EXPECT_EQ(m.samples[0].bytes_received, 0u);
  EXPECT_EQ(m.incomplete, 0u);
}

TEST(SampleMerge, QueueSamplesFromTwoLcoresFollowTickSwitchPortQueue) {
  auto q = [](uint32_t tick, uint32_t sw, uint16_t port, uint8_t queue) {
    QueueSample x;
    x.tick = tick;
    x.sw = sw;
    x.port = port;
    x.queue = queue;
    return x;
  };
  const std::vector<QueueSample> merged =
      merge_queue_samples({{q(1, 1, 0, 3), q(2, 1, 0, 3)}, {q(1, 0, 0, 3), q(1, 0, 1, 3), q(2, 0, 0, 3)}});
  ASSERT_EQ(merged.size(), 5u);
  const uint32_t ticks[] = {1, 1, 1, 2, 2}, sws[] = {0, 0, 1, 0, 1};
  const uint16_t ports[] = {0, 1, 0, 0, 0};
  for (size_t i = 0; i < 5; ++i) {
    EXPECT_EQ(merged[i].tick, ticks[i]) << i;
    EXPECT_EQ(merged[i].sw, sws[i]) << i;
    EXPECT_EQ(merged[i].port, ports[i]) << i;
  }
}

struct Collect final : SampleSink {
  std::vector<FlowSample> flows;
  std::vector<QueueSample> queues;
  void flow(const FlowSample& x) override { flows.push_back(x); }
  void queue(const QueueSample& x) override { queues.push_back(x); }
  void port_depth(const PortDepthSample&) override {}
};

// Streaming, as the control thread drains: a tick is passed on as soon as both lcores have
// sent a later one, in the same order the whole-run join gives, and nothing waits longer.
TEST(SampleMerge, StreamingPassesEachTickOnOnceEveryLcoreWentPastIt) {
  Collect out;
  SampleMerger m({kBoth, kBoth}, {true, true}, {false, false}, SampleMerger::window_samples(2, 2), out);
  std::vector<std::vector<FlowSample>> all(2);
  for (uint32_t tick = 1; tick <= 100; ++tick) {
    const Time at = Time::us(10) * tick;
    // Lcore 1 drains receivers flow 1 before flow 0; lcore 0 runs a tick ahead.
    for (uint32_t f = 0; f < 2; ++f) {
      m.add(0, sender(tick, f, at, 40 + f));
      all[0].push_back(sender(tick, f, at, 40 + f));
    }
    if (tick > 1) {
      for (uint32_t f : {1u, 0u}) {
        m.add(1, receiver(tick - 1, f, at, 100 * tick + f));
        all[1].push_back(receiver(tick - 1, f, at, 100 * tick + f));
      }
    }
    m.release();
    // Lcore 1 has sent tick-1: every tick before it is out, nothing later.
    const size_t expected = tick >= 3 ? 2 * (tick - 2) : 0;
    ASSERT_EQ(out.flows.size(), expected) << "tick " << tick;
    EXPECT_LE(m.peak_pending(), 10u);  // ticks t-2 (whole), t-1 and t
  }
  m.finish();
  const MergedFlowSamples whole = merge_flow_samples(all, {kBoth, kBoth});
  ASSERT_EQ(out.flows.size(), whole.samples.size());
  for (size_t i = 0; i < out.flows.size(); ++i) {
    EXPECT_EQ(out.flows[i].tick, whole.samples[i].tick) << i;
    EXPECT_EQ(out.flows[i].flow, whole.samples[i].flow) << i;
    EXPECT_EQ(out.flows[i].bytes_received, whole.samples[i].bytes_received) << i;
    EXPECT_EQ(out.flows[i].at, whole.samples[i].at) << i;
  }
  EXPECT_EQ(m.after_end(), whole.after_end);
  EXPECT_EQ(m.after_end(), 2u);  // tick 100: lcore 1 never sent it
  EXPECT_EQ(m.forced_ticks(), 0u);
}

// An lcore that sends nothing for a long time (its thread starved) cannot make the window
// grow without bound: the oldest ticks go out with what arrived, counted, and the parts
// that come later are left out and counted.
TEST(SampleMerge, TheReorderWindowStaysBoundedWhenAnLcoreFallsBehind) {
  Collect out;
  constexpr uint64_t kWindow = 64;
  SampleMerger m({kBoth}, {true, true}, {false, false}, kWindow, out);
  for (uint32_t tick = 1; tick <= 1000; ++tick) {
    m.add(0, sender(tick, 0, Time::us(tick), 40));
    m.release();
  }
  EXPECT_LE(m.peak_pending(), kWindow + 1);
  EXPECT_GT(m.forced_ticks(), 900u);
  EXPECT_TRUE(out.flows.empty()) << "a sample without its receiver part is never written";
  m.add(1, receiver(1, 0, Time::us(1), 100));  // long passed on
  EXPECT_EQ(m.late(), 1u);
  m.finish();
  EXPECT_EQ(m.incomplete() + m.after_end(), 1000u);
}

TEST(SampleMerge, StreamedQueueSamplesWaitForTheSlowerLcore) {
  Collect out;
  SampleMerger m({}, {false, false}, {true, true}, 0, out);
  QueueSample a, b;
  a.tick = 1;
  a.sw = 1;
  b.tick = 1;
  b.sw = 0;
  m.add(0, a);
  m.release();
  EXPECT_TRUE(out.queues.empty()) << "lcore 1 may still send switch 0's sample of tick 1";
  m.add(1, b);
  b.tick = 2;
  m.add(1, b);
  a.tick = 2;
  m.add(0, a);
  m.release();
  ASSERT_EQ(out.queues.size(), 2u);
  EXPECT_EQ(out.queues[0].sw, 0u);
  EXPECT_EQ(out.queues[1].sw, 1u);
  m.finish();
  EXPECT_EQ(out.queues.size(), 4u);
}

// The occupancy statistics counted value by value are those of the sorted series.
TEST(DepthTotals, NearestRankPercentilesOfTheCountsAreThoseOfTheSortedSamples) {
  DepthTotals d({2});
  std::vector<uint64_t> v;
  uint64_t x = 12345;
  for (int i = 0; i < 10'001; ++i) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    const uint64_t bytes = (x >> 40) % 50 * 1106;
    v.push_back(bytes);
    d.add(0, 1, bytes);
  }
  std::sort(v.begin(), v.end());
  const DepthStats s = d.stats(0, 1);
  uint64_t sum = 0;
  for (uint64_t b : v) sum += b;
  EXPECT_EQ(s.mean, static_cast<double>(sum) / static_cast<double>(v.size()));
  EXPECT_EQ(s.p50, v[(50 * v.size() + 99) / 100 - 1]);
  EXPECT_EQ(s.p99, v[(99 * v.size() + 99) / 100 - 1]);
  EXPECT_EQ(s.max, v.back());
  EXPECT_EQ(d.distinct(), 50u) << "memory: one count per value, not per sample";
  EXPECT_EQ(d.stats(0, 0).max, 0u);
}

}  // namespace
}  // namespace rtb::testbed
