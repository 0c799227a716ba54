#include "runtime/link_faults.h"

#include <gtest/gtest.h>

#include <vector>

#include "runtime/virtual_scheduler.h"
#include "runtime/wire_link.h"
#include "tests/runtime/test_pool.h"
#include "tests/runtime/test_stages.h"

namespace rtb::runtime {
namespace {

using testing::make_frame;
using testing::ReceiverStage;
using testing::SenderStage;

// Sends `count` frames tagged 0, 1, 2, ... through a link with the given faults and
// returns the tags that arrived (and the receiver's arrivals for timing checks).
struct FaultRun {
  std::vector<uint8_t> tags;
  std::vector<testing::Arrival> arrivals;
  WireLinkCounters counters;
};

FaultRun run_with(LinkFaults& faults, int count, Time spacing = Time::zero()) {
  WireLink link({"faulty", Rate::gbps(100), Time::ns(100), Bytes(9'216)});
  link.set_faults(&faults);
  SenderStage sender("tx", link);
  ReceiverStage receiver("rx", link);
  for (int i = 0; i < count; ++i) {
    sender.enqueue(make_frame(200, static_cast<uint8_t>(i)), 0, spacing * i);
  }
  VirtualScheduler s;
  s.add(sender);
  s.add(receiver);
  link.connect_receiver(&s, receiver.id());
  s.run();
  FaultRun r;
  for (const auto& a : receiver.arrivals()) r.tags.push_back(a.first_byte);
  r.arrivals = receiver.arrivals();
  r.counters = link.counters();
  return r;
}

TEST(LinkFaults, DropByIndex) {
  LinkFaults f(Rng(1, 1));
  f.drop_frames({3, 0, 7});
  const FaultRun r = run_with(f, 10);
  EXPECT_EQ(r.tags, (std::vector<uint8_t>{1, 2, 4, 5, 6, 8, 9}));
  EXPECT_EQ(r.counters.dropped_fault, 3u);
  EXPECT_EQ(r.counters.frames, 10u);  // dropped frames still occupied the wire
}

TEST(LinkFaults, DropByProbabilityIsDeterministicUnderTheSeed) {
  LinkFaults a(Rng(42, 9)), b(Rng(42, 9)), c(Rng(43, 9));
  for (LinkFaults* f : {&a, &b, &c}) f->drop_with_probability(0.3);
  const FaultRun ra = run_with(a, 200), rb = run_with(b, 200), rc = run_with(c, 200);
  EXPECT_EQ(ra.tags, rb.tags);
  EXPECT_NE(ra.tags, rc.tags);
  // 200 trials at p = 0.3: mean 60, sd 6.5.
  EXPECT_NEAR(static_cast<double>(ra.counters.dropped_fault), 60.0, 26.0);
  EXPECT_EQ(ra.counters.dropped_fault + ra.tags.size(), 200u);
}

TEST(LinkFaults, DropByPredicateOnTheFrameBytes) {
  LinkFaults f(Rng(1, 1));
  f.drop_if([](std::span<const uint8_t> frame) { return frame[0] % 2 == 1; });
  const FaultRun r = run_with(f, 6);
  EXPECT_EQ(r.tags, (std::vector<uint8_t>{0, 2, 4}));
}

TEST(LinkFaults, CorruptAtAFixedOffsetFlipsOneBit) {
  LinkFaults f(Rng(1, 1));
  f.corrupt_frames({1});
  f.corrupt_at_offset(0);
  const FaultRun r = run_with(f, 3);
  EXPECT_EQ(r.tags, (std::vector<uint8_t>{0, 1 ^ 1, 2}));
  EXPECT_EQ(r.counters.corrupted, 1u);
}

TEST(LinkFaults, CorruptByProbabilityIsDeterministicAndSparesTheEthernetHeader) {
  auto run = [](uint64_t seed) {
    LinkFaults f(Rng(seed, 2));
    f.corrupt_with_probability(0.5);
    return run_with(f, 50);
  };
  const FaultRun a = run(5), b = run(5);
  EXPECT_EQ(a.counters.corrupted, b.counters.corrupted);
  EXPECT_GT(a.counters.corrupted, 10u);
  EXPECT_EQ(a.tags.size(), 50u);  // corrupted frames are delivered
  for (size_t i = 0; i < a.tags.size(); ++i) EXPECT_EQ(a.tags[i], i);  // byte 0 untouched
}

TEST(LinkFaults, LinkDownLosesFramesStartedOrArrivingWhileDown) {
  // 200-byte frames occupy 224 x 80 ps = 17.92 ns; one every 100 ns; propagation 100 ns.
  // Down during [250 ns, 420 ns): frame 2 (on the cable until 317.92 ns) arrives while
  // down, frames 3 and 4 start while down; frame 1 arrived at 217.92 ns, before.
  LinkFaults f(Rng(1, 1));
  f.down_between(Time::ns(250), Time::ns(420));
  const FaultRun r = run_with(f, 8, Time::ns(100));
  EXPECT_EQ(r.tags, (std::vector<uint8_t>{0, 1, 5, 6, 7}));
  EXPECT_EQ(r.counters.dropped_link_down, 2u);     // frames 3 and 4, as they started
  EXPECT_EQ(r.counters.lost_down_in_flight, 1u);   // frame 2, on the cable
  EXPECT_TRUE(f.down_at(Time::ns(250)));
  EXPECT_FALSE(f.down_at(Time::ns(420)));
}

}  // namespace
}  // namespace rtb::runtime

#include "runtime/parsed_predicate.h"
#include "wire/flow_template.h"
#include "wire/opcode.h"

namespace rtb::runtime {
namespace {

TEST(LinkFaults, DropByAPredicateOnParsedFields) {
  wire::FlowSpec spec;
  spec.src_ip = 0xC0000201;
  spec.dst_ip = 0xC0000202;
  spec.src_qpn = 0x100;
  spec.dst_qpn = 0x200;
  auto tpl = wire::FlowTemplate::make(spec);
  ASSERT_TRUE(tpl.ok());
  LinkFaults f(Rng(1, 1));
  f.drop_if(on_parsed([](const wire::ParsedFrame& p) {
    return p.cls == wire::FrameClass::Ack && p.psn % 2 == 1;  // odd-PSN ACKs are lost
  }));
  WireLink link({"acks", Rate::gbps(100), Time::ns(10), Bytes(9'216)});
  link.set_faults(&f);
  testing::SenderStage sender("tx", link);
  testing::ReceiverStage receiver("rx", link);
  for (uint32_t psn = 0; psn < 6; ++psn) {
    rte_mbuf* m = testing::make_frame(128, static_cast<uint8_t>(psn));
    const wire::FrameSpan s = tpl.value().build_ack({psn, wire::aeth_ack(wire::kCreditInvalid), 0},
                                                    rte_pktmbuf_mtod(m, uint8_t*));
    ASSERT_TRUE(s.ok());
    m->data_len = static_cast<uint16_t>(s.len);
    m->pkt_len = s.len;
    sender.enqueue(m);
  }
  VirtualScheduler sched;
  sched.add(sender);
  sched.add(receiver);
  link.connect_receiver(&sched, receiver.id());
  sched.run();
  EXPECT_EQ(receiver.arrivals().size(), 3u);
  EXPECT_EQ(link.counters().dropped_fault, 3u);
}

}  // namespace
}  // namespace rtb::runtime
