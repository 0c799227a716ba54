// Wire-link timing, exact to the picosecond. At 100 Gb/s one byte lasts 80 ps, so a frame
// of L bytes (without FCS) occupies max(L + 4, 64) + 20 bytes = 80 ps each.
#include "runtime/wire_link.h"

#include <gtest/gtest.h>

#include <vector>

#include "runtime/virtual_scheduler.h"
#include "tests/runtime/test_pool.h"
#include "tests/runtime/test_stages.h"

namespace rtb::runtime {
namespace {

using testing::make_frame;
using testing::ReceiverStage;
using testing::SenderStage;

constexpr Time kByte100G = Time::ps(80);
constexpr Time occupancy_100g(uint32_t len) { return kByte100G * wire_occupancy(len).count(); }

WireLinkConfig link_config(std::string name, Time propagation = Time::zero()) {
  return WireLinkConfig{std::move(name), Rate::gbps(100), propagation, Bytes(9'216)};
}

// Runs a stage at a chosen instant (to inject a control frame or a pause mid-frame).
class ActionAt final : public Stage {
 public:
  ActionAt(Time at, std::function<void(Time)> action)
      : Stage("action"), at_(at), action_(std::move(action)) {}
  void poll(Time now) override {
    if (!done_ && now >= at_) {
      done_ = true;
      action_(now);
    }
  }
  Time next_deadline() const override { return done_ ? Time::never() : at_; }

 private:
  Time at_;
  std::function<void(Time)> action_;
  bool done_ = false;
};

// A sender and a receiver on one direction; frames are queued before start().
struct Pair {
  explicit Pair(Time propagation = Time::zero())
      : link(link_config("a->b", propagation)), sender("a", link), receiver("b", link) {}
  void start(std::vector<Stage*> extra = {}) {
    scheduler.add(sender);
    scheduler.add(receiver);
    for (Stage* s : extra) scheduler.add(*s);
    link.connect_receiver(&scheduler, receiver.id());
  }
  std::vector<Time> arrival_times() const {
    std::vector<Time> t;
    for (const auto& a : receiver.arrivals()) t.push_back(a.at);
    return t;
  }
  WireLink link;
  SenderStage sender;
  ReceiverStage receiver;
  VirtualScheduler scheduler;
};

TEST(WireOccupancy, AddsFcsPreambleGapAndPadsToMinimum) {
  EXPECT_EQ(wire_occupancy(1000), Bytes(1'024));
  EXPECT_EQ(wire_occupancy(60), Bytes(84));  // 60 + 4 = 64: no padding needed
  EXPECT_EQ(wire_occupancy(42), Bytes(84));  // padded to 64
  EXPECT_EQ(wire_occupancy(1500), Bytes(1'524));
  EXPECT_EQ(propagation_for_cable(100), Time::ns(500));
}

TEST(WireLink, BackToBackFramesOfAssortedSizesArriveExactly) {
  const Time prop = propagation_for_cable(200);  // 1 us
  Pair p(prop);
  const std::vector<uint32_t> lengths{60, 1000, 1500, 42, 9000, 1106};
  for (uint32_t len : lengths) p.sender.enqueue(make_frame(len));
  p.start();
  const RunStats stats = p.scheduler.run();
  EXPECT_TRUE(stats.idle);

  std::vector<Time> starts, arrivals;
  Time t = Time::zero();
  for (uint32_t len : lengths) {
    starts.push_back(t);
    t += occupancy_100g(len);
    arrivals.push_back(t + prop);
  }
  EXPECT_EQ(p.sender.starts(), starts);
  EXPECT_EQ(p.arrival_times(), arrivals);
  // 1,106 bytes: (1106 + 4 + 20) x 80 ps = 90.4 ns on the wire.
  EXPECT_EQ(occupancy_100g(1106), Time::ps(90'400));
  EXPECT_EQ(p.link.counters().frames, lengths.size());
  EXPECT_EQ(p.link.counters().bytes, 60u + 1000 + 1500 + 42 + 9000 + 1106);
  EXPECT_EQ(p.link.counters().busy, t);
  EXPECT_EQ(p.link.counters().delivered, lengths.size());
}

TEST(WireLink, DeliveredFramesArriveAtOnceInOrderAndCount) {
  // A realtime bridge places frames that crossed a DPDK port at the receiving end.
  WireLink link(link_config("port->h0", Time::ns(10)));
  const uint32_t room = link.room();
  link.deliver(Time::ns(5), make_frame(100, 1));
  link.deliver(Time::ns(5), make_frame(200, 2));
  EXPECT_EQ(link.room(), room - 2);
  EXPECT_EQ(link.next_arrival(), Time::ns(5));
  rte_mbuf* out[4];
  EXPECT_EQ(link.receive(Time::ns(4), out, 4), 0u);
  ASSERT_EQ(link.receive(Time::ns(5), out, 4), 2u);
  EXPECT_EQ(rte_pktmbuf_pkt_len(out[0]), 100u);
  EXPECT_EQ(rte_pktmbuf_pkt_len(out[1]), 200u);
  EXPECT_EQ(link.counters().frames, 2u);
  EXPECT_EQ(link.counters().bytes, 300u);
  EXPECT_EQ(link.counters().delivered, 2u);
  EXPECT_EQ(link.counters().busy, Time::zero());  // nothing was serialized here
  rte_pktmbuf_free(out[0]);
  rte_pktmbuf_free(out[1]);
}

TEST(WireLink, MinimumFramePadding) {
  Pair p;
  p.sender.enqueue(make_frame(14));
  p.sender.enqueue(make_frame(14));
  p.start();
  p.scheduler.run();
  // 14 + 4 bytes pads to 64, plus 20: 84 bytes = 6,720 ps each.
  EXPECT_EQ(p.arrival_times(), (std::vector<Time>{Time::ps(6'720), Time::ps(13'440)}));
}

TEST(WireLink, DriftFreeAtARateThatDoesNotDivideAPicosecond) {
  // 7 Gb/s: one byte lasts 8/7 ns = 1142.857 ps; 1,000 back-to-back 1,000-byte frames
  // (1,024 wire bytes each) end at exactly floor(1000 x 1024 x 8000 / 7) ps.
  WireLink link({"slow", Rate::gbps(7), Time::zero(), Bytes(9'216)});
  SenderStage sender("a", link);
  ReceiverStage receiver("b", link);
  for (int i = 0; i < 1000; ++i) sender.enqueue(make_frame(1000));
  VirtualScheduler scheduler;
  scheduler.add(sender);
  scheduler.add(receiver);
  link.connect_receiver(&scheduler, receiver.id());
  scheduler.run();
  ASSERT_EQ(receiver.arrivals().size(), 1000u);
  EXPECT_EQ(receiver.arrivals().back().at.ps(), 1000ULL * 1024 * 8000 / 7);
}

TEST(WireLink, PfcFrameOvertakesQueuedDataButWaitsForTheFrameOnTheWire) {
  Pair p;
  for (uint8_t i = 0; i < 3; ++i) p.sender.enqueue(make_frame(1000, i));
  // Mid-way through the first data frame, the stage asks for a PFC frame.
  ActionAt pfc(Time::ps(40'000), [&](Time now) { p.link.send_control(now, make_frame(60, 0xC0)); });
  p.start({&pfc});
  p.scheduler.run();

  const Time data = occupancy_100g(1000);  // 81,920 ps
  const Time control = occupancy_100g(60);  // 6,720 ps
  ASSERT_EQ(p.receiver.arrivals().size(), 4u);
  EXPECT_EQ(p.receiver.arrivals()[0].first_byte, 0);
  EXPECT_EQ(p.receiver.arrivals()[0].at, data);
  EXPECT_EQ(p.receiver.arrivals()[1].first_byte, 0xC0);  // control right after frame 0
  EXPECT_EQ(p.receiver.arrivals()[1].at, data + control);
  EXPECT_EQ(p.sender.starts()[1], data + control);       // data 1 waited for it
  EXPECT_EQ(p.receiver.arrivals()[3].at, data * 3 + control);
  EXPECT_EQ(p.link.counters().control_frames, 1u);
}

TEST(WireLink, ControlFrameOnAnIdleWireStartsAtOnce) {
  Pair p;
  ActionAt pfc(Time::ns(5), [&](Time now) { p.link.send_control(now, make_frame(60)); });
  p.start({&pfc});
  p.scheduler.run();
  ASSERT_EQ(p.arrival_times().size(), 1u);
  EXPECT_EQ(p.arrival_times()[0], Time::ns(5) + occupancy_100g(60));
}

TEST(WireLink, PauseMidFrameLetsTheFrameFinishAndHoldsTheNext) {
  Pair p;
  for (int i = 0; i < 2; ++i) p.sender.enqueue(make_frame(1000), /*priority=*/3);
  // 100 quanta x 512 bit times at 100 Gb/s = 100 x 5.12 ns = 512 ns.
  ActionAt pause(Time::ps(40'000), [&](Time now) { p.link.apply_pause(3, 100, now); });
  p.start({&pause});
  p.scheduler.run();
  const Time data = occupancy_100g(1000);
  EXPECT_EQ(p.link.paused_until(3), Time::ps(40'000) + Time::ns(512));
  ASSERT_EQ(p.sender.starts().size(), 2u);
  EXPECT_EQ(p.arrival_times()[0], data);  // the frame on the wire completed
  EXPECT_EQ(p.sender.starts()[1], Time::ps(40'000) + Time::ns(512));
}

TEST(WireLink, PauseOfOnePriorityDoesNotStopAnother) {
  Pair p;
  p.sender.enqueue(make_frame(1000), 5);
  ActionAt pause(Time::zero(), [&](Time now) { p.link.apply_pause(3, 0xFFFF, now); });
  p.start({&pause});
  p.scheduler.run();
  EXPECT_EQ(p.sender.starts(), std::vector<Time>{Time::zero()});
  EXPECT_FALSE(p.link.may_start(3, Time::us(100)));
  EXPECT_TRUE(p.link.may_start(3, Time::ps(65'535ULL * 5'120)));
}

TEST(WireLink, LaterPauseReplacesTheRemainingTimeAndZeroResumes) {
  Pair p;
  for (int i = 0; i < 3; ++i) p.sender.enqueue(make_frame(1000), 3);
  const Time data = occupancy_100g(1000);  // 81.92 ns
  ActionAt first(Time::ns(1), [&](Time now) { p.link.apply_pause(3, 0xFFFF, now); });
  // 10 quanta from 50 ns: paused until 50 + 51.2 = 101.2 ns, replacing the 335 us pause.
  ActionAt shorter(Time::ns(50), [&](Time now) { p.link.apply_pause(3, 10, now); });
  ActionAt again(Time::ns(150), [&](Time now) { p.link.apply_pause(3, 0xFFFF, now); });
  // The stage that owns the sending end applies pauses itself and so recomputes its
  // deadline; here another stage does it, so it wakes the sender.
  ActionAt xon(Time::us(2), [&](Time now) {
    p.link.apply_pause(3, 0, now);
    p.scheduler.wake(p.sender.id(), now);
  });
  p.start({&first, &shorter, &again, &xon});
  p.scheduler.run();
  ASSERT_EQ(p.sender.starts().size(), 3u);
  EXPECT_EQ(p.sender.starts()[0], Time::zero());
  EXPECT_EQ(p.sender.starts()[1], Time::ps(101'200));
  EXPECT_GT(p.sender.starts()[1], data);
  EXPECT_EQ(p.sender.starts()[2], Time::us(2));  // paused at 150 ns, resumed by quanta 0
}

TEST(Cable, DirectionsAreIndependent) {
  Cable cable(link_config("a->b", Time::ns(100)), link_config("b->a", Time::ns(100)));
  SenderStage a_tx("a", cable.ab);
  SenderStage b_tx("b", cable.ba);
  ReceiverStage a_rx("a-rx", cable.ba);
  ReceiverStage b_rx("b-rx", cable.ab);
  a_tx.enqueue(make_frame(1000));
  a_tx.enqueue(make_frame(1000));
  b_tx.enqueue(make_frame(60));
  VirtualScheduler s;
  for (Stage* st : std::vector<Stage*>{&a_tx, &b_tx, &a_rx, &b_rx}) s.add(*st);
  cable.ab.connect_receiver(&s, b_rx.id());
  cable.ba.connect_receiver(&s, a_rx.id());
  cable.ab.apply_pause(0, 0xFFFF, Time::zero());  // only a->b is paused... for priority 0
  cable.ab.apply_pause(0, 0, Time::zero());       // ...and resumed at once
  s.run();
  EXPECT_EQ(b_rx.arrivals().size(), 2u);
  ASSERT_EQ(a_rx.arrivals().size(), 1u);
  EXPECT_EQ(a_rx.arrivals()[0].at, occupancy_100g(60) + Time::ns(100));
  EXPECT_EQ(b_rx.arrivals()[1].at, occupancy_100g(1000) * 2 + Time::ns(100));
  EXPECT_EQ(cable.ab.counters().frames, 2u);
  EXPECT_EQ(cable.ba.counters().frames, 1u);
  EXPECT_EQ(cable.ba.counters().busy, occupancy_100g(60));
}

}  // namespace
}  // namespace rtb::runtime
