// The per-QP and per-priority trackers, driven by hand.
#include <gtest/gtest.h>

#include "analyze/message_tracker.h"
#include "analyze/pfc_stats.h"
#include "analyze/psn_tracker.h"
#include "analyze/timeline.h"
#include "wire/opcode.h"

namespace rtb::analyze {
namespace {

TEST(PsnTracker, GapsRepeatsAndWrap) {
  PsnTracker t;
  for (uint32_t p : {10u, 11u, 12u}) EXPECT_FALSE(t.add(p));
  EXPECT_FALSE(t.add(15));  // 13, 14 never seen
  EXPECT_EQ(t.gaps(), 1u);
  EXPECT_EQ(t.missing(), 2u);
  // Go-back-N from 13: 13, 14 and 15 again are retransmissions.
  EXPECT_TRUE(t.add(13));
  EXPECT_TRUE(t.add(14));
  EXPECT_TRUE(t.add(15));
  EXPECT_FALSE(t.add(16));
  EXPECT_EQ(t.repeated(), 3u);
  PsnTracker w;
  EXPECT_FALSE(w.add(0xFFFFFE));
  EXPECT_FALSE(w.add(0xFFFFFF));
  EXPECT_FALSE(w.add(0));  // 24-bit wrap is in order
  EXPECT_FALSE(w.add(2));
  EXPECT_EQ(w.gaps(), 1u);
  EXPECT_EQ(w.missing(), 1u);
  EXPECT_TRUE(w.add(0xFFFFFF));  // behind, across the wrap
}

TEST(MessageTracker, FirstMiddleLastAndOnly) {
  MessageTracker m;
  m.add(wire::op::kWriteFirst, Time::us(1), 1024);
  m.add(wire::op::kWriteMiddle, Time::us(2), 1024);
  m.add(wire::op::kWriteLast, Time::us(4), 100);
  m.add(wire::op::kSendOnly, Time::us(5), 8);
  m.add(wire::op::kAcknowledge, Time::us(6), 0);  // not a message
  EXPECT_EQ(m.completion().count, 2u);
  EXPECT_EQ(m.completion().max, Time::us(3));
  EXPECT_EQ(m.completion().min, Time::zero());
  EXPECT_EQ(m.bytes(), 1024u + 1024u + 100u + 8u);
  EXPECT_EQ(m.incomplete(), 0u);
  m.add(wire::op::kSendLast, Time::us(7), 1);   // its First is not in the capture
  m.add(wire::op::kSendFirst, Time::us(8), 1);  // still open at the end
  EXPECT_EQ(m.incomplete(), 2u);
  EXPECT_EQ(message_part(wire::op::kUc | wire::op::kSendOnly), MessagePart::kOnly);
  EXPECT_EQ(message_part(wire::op::kCnp), MessagePart::kNone);
  EXPECT_EQ(message_part(wire::op::kReadRequest), MessagePart::kNone);
}

constexpr wire::MacAddr kA{{2, 0, 0, 0, 0, 1}};
constexpr wire::MacAddr kB{{2, 0, 0, 0, 0, 2}};

std::array<uint16_t, 8> quanta(int prio, uint16_t q) {
  std::array<uint16_t, 8> a{};
  a[static_cast<size_t>(prio)] = q;
  return a;
}

TEST(PfcStats, XonCutsThePauseShort) {
  PfcStats s(Rate::gbps(100));  // 1 quantum = 5.12 ns
  s.add(Time::us(0), kA, 0x08, quanta(3, 1000));  // 5.12 us
  s.add(Time::us(2), kA, 0x08, quanta(3, 0));
  s.finish();
  const PriorityStats& p = s.priorities()[3];
  EXPECT_EQ(p.xoff, 1u);
  EXPECT_EQ(p.xon, 1u);
  EXPECT_EQ(p.requested, Time::ns(5120));
  EXPECT_EQ(p.paused, Time::us(2));
  ASSERT_EQ(s.events().size(), 2u);
  EXPECT_EQ(s.events()[0].pause, Time::ns(5120));
}

TEST(PfcStats, RefreshRestartsAndSendersAddUp) {
  PfcStats s(Rate::gbps(100));
  s.add(Time::us(0), kA, 0x08, quanta(3, 1000));
  s.add(Time::us(4), kA, 0x08, quanta(3, 1000));  // refresh: paused 0..9.12 us
  s.add(Time::us(1), kB, 0x09, {100, 0, 0, 1000, 0, 0, 0, 0});  // another sender, prio 0 and 3
  s.finish();
  EXPECT_EQ(s.priorities()[3].paused, Time::ns(9120) + Time::ns(5120));
  EXPECT_EQ(s.priorities()[3].xoff, 3u);
  EXPECT_EQ(s.priorities()[0].paused, Time::ns(512));
  EXPECT_EQ(s.priorities()[0].frames, 1u);
  EXPECT_EQ(s.priorities()[1].frames, 0u);
}

TEST(PfcStats, PauseTimeFollowsTheLinkRate) {
  PfcStats s(Rate::gbps(25));
  s.add(Time::zero(), kA, 0x01, quanta(0, 65535));
  s.finish();
  EXPECT_EQ(s.priorities()[0].paused, Time::ps(1'342'156'800));  // 65535 x 512 / 25e9 s
}

TEST(Timeline, BinsInOrderAndOutOfOrder) {
  Timeline t(Time::us(10));
  ++t.at(Time::us(1)).frames;
  ++t.at(Time::us(9)).frames;
  ++t.at(Time::us(35)).frames;
  ++t.at(Time::us(12)).frames;  // earlier than the last bin
  ASSERT_EQ(t.bins().size(), 3u);
  EXPECT_EQ(t.bins()[0].index, 0u);
  EXPECT_EQ(t.bins()[0].frames, 2u);
  EXPECT_EQ(t.bins()[1].index, 1u);
  EXPECT_EQ(t.bins()[2].index, 3u);
}

}  // namespace
}  // namespace rtb::analyze
