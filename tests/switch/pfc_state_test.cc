// The PFC emission and watchdog state machines on a hand-driven clock.
#include <gtest/gtest.h>

#include "switch/pfc_generator.h"
#include "switch/pfc_watchdog.h"

namespace rtb::sw {
namespace {

TEST(PfcGenerator, XoffOnceThenRefreshesUntilXon) {
  PfcGenerator g(Time::us(100));
  EXPECT_EQ(g.on_admit(Time::us(1), false), PfcAction::kNone);
  EXPECT_EQ(g.on_admit(Time::us(2), true), PfcAction::kXoff);
  EXPECT_EQ(g.on_admit(Time::us(3), true), PfcAction::kNone);  // already pausing
  EXPECT_EQ(g.refresh_at(), Time::us(102));
  EXPECT_EQ(g.on_timer(Time::us(101), false), PfcAction::kNone);
  EXPECT_EQ(g.on_timer(Time::us(102), false), PfcAction::kXoff);
  EXPECT_EQ(g.refresh_at(), Time::us(202));
  EXPECT_EQ(g.on_release(false), PfcAction::kNone);
  EXPECT_EQ(g.on_release(true), PfcAction::kXon);
  EXPECT_FALSE(g.pausing());
  EXPECT_EQ(g.refresh_at(), Time::never());
  EXPECT_EQ(g.on_release(true), PfcAction::kNone);  // one XON only
}

TEST(PfcGenerator, TimerSendsXonWhenTheLimitRoseMeanwhile) {
  PfcGenerator g(Time::us(10));
  ASSERT_EQ(g.on_admit(Time::zero(), true), PfcAction::kXoff);
  EXPECT_EQ(g.on_timer(Time::us(10), true), PfcAction::kXon);
}

TEST(PfcWatchdog, DetectsAContinuousPauseAtAPollAndRestoresAfterSilence) {
  PfcWatchdog w(Time::ms(100), Time::ms(200));
  w.on_pfc_frame(Time::ms(5), 0xFFFF, false);
  EXPECT_TRUE(w.active());
  EXPECT_EQ(w.poll(Time::ms(100), true), WatchdogEvent::kNone);  // paused 95 ms
  w.on_pfc_frame(Time::ms(101), 0xFFFF, true);                    // refresh: still continuous
  EXPECT_EQ(w.poll(Time::ms(200), true), WatchdogEvent::kStormDetected);
  EXPECT_TRUE(w.storm());
  w.on_pfc_frame(Time::ms(250), 0xFFFF, false);
  EXPECT_EQ(w.poll(Time::ms(400), false), WatchdogEvent::kNone);  // 150 ms of silence
  EXPECT_EQ(w.poll(Time::ms(450), false), WatchdogEvent::kRestored);
  EXPECT_FALSE(w.active());
}

TEST(PfcWatchdog, AnXonOrALapseRestartsTheDetectionClock) {
  PfcWatchdog w(Time::ms(100), Time::ms(100));
  w.on_pfc_frame(Time::ms(0), 0xFFFF, false);
  w.on_pfc_frame(Time::ms(50), 0, true);  // XON
  w.on_pfc_frame(Time::ms(60), 0xFFFF, false);
  EXPECT_EQ(w.poll(Time::ms(150), true), WatchdogEvent::kNone);  // paused only 90 ms
  EXPECT_EQ(w.poll(Time::ms(160), false), WatchdogEvent::kNone);  // pause lapsed
  EXPECT_FALSE(w.active());
  EXPECT_EQ(w.poll(Time::ms(300), true), WatchdogEvent::kNone);
}

}  // namespace
}  // namespace rtb::sw
