// Joining the per-lcore parts of a realtime run's time series (lib/testbed/sample_merge.h):
// the order of one sampler, each field from the part that has it, incomplete samples out.
#include <gtest/gtest.h>

#include <vector>

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

}  // namespace
}  // namespace rtb::testbed
