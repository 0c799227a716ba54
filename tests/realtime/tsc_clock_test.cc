// The calibrated TSC clock against the machine's clocks. The machine is shared: only
// lower bounds are tight; upper bounds are loose.
#include "realtime/tsc_clock.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <thread>

#include "tests/realtime/test_clock.h"

namespace rtb::realtime {
namespace {

using testing::calibrated_clock;

// Calibration error allowed in lower bounds: ppm in practice, 0.1% here.
constexpr double kSlack = 0.999;

TEST(TscClock, CalibratedWithinOnePercentOfDpdk) {
  const TscClock& c = calibrated_clock();
  RecordProperty("clock", c.to_json().dump());
  ASSERT_GT(c.dpdk_hz(), 0u) << "rte_get_tsc_hz() is 0: is the EAL running?";
  EXPECT_EQ(c.hz() % 1000, 0u) << "calibration is rounded to a whole kHz";
  EXPECT_LT(std::abs(c.dpdk_error()), 0.01)
      << "calibrated " << c.hz() << " Hz, DPDK " << c.dpdk_hz() << " Hz";
}

TEST(TscClock, NowIsMonotonic) {
  TscClock c = calibrated_clock();
  c.start();
  Time prev = c.now();
  for (int i = 0; i < 100'000; ++i) {
    const Time t = c.now();
    ASSERT_GE(t, prev) << "at read " << i;
    prev = t;
  }
}

TEST(TscClock, TwentyMillisecondSleepMeasuresAtLeastThat) {
  TscClock c = calibrated_clock();
  c.start();
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  const Time t = c.now();
  EXPECT_GE(t.s_f(), 0.020 * kSlack) << t;
  EXPECT_LE(t, Time::s(2)) << t;
}

TEST(TscClock, DilationFourMakesFortyMillisecondsReadTen) {
  TscClock c = calibrated_clock();
  c.set_dilation(4);
  EXPECT_EQ(c.dilation(), 4u);
  c.start();
  std::this_thread::sleep_for(std::chrono::milliseconds(40));
  const Time t = c.now();
  EXPECT_GE(t.s_f(), 0.010 * kSlack) << t;
  EXPECT_LE(t, Time::ms(500)) << t;
}

TEST(TscClock, DilationRange) {
  EXPECT_TRUE(TscClock::check_dilation(1).ok());
  EXPECT_TRUE(TscClock::check_dilation(kMaxDilation).ok());
  const Status zero = TscClock::check_dilation(0);
  ASSERT_FALSE(zero.ok());
  EXPECT_NE(zero.message().find("time dilation 0 is out of range"), std::string::npos)
      << zero.message();
  EXPECT_FALSE(TscClock::check_dilation(uint64_t{kMaxDilation} + 1).ok());
}

TEST(TscClock, WithHzConvertsExactly) {
  TscClock c = TscClock::with_hz(2'500'000'000, 2'505'000'000);
  EXPECT_NEAR(c.dpdk_error(), 0.002, 1e-12);
  c.start();
  EXPECT_LT(c.now(), Time::s(1));  // a fresh epoch, not time since boot
}

TEST(TscClock, Json) {
  TscClock c = TscClock::with_hz(2'000'000'000, 2'004'000'000);
  c.set_dilation(3);
  const auto j = c.to_json();
  EXPECT_EQ(j.dump(), R"({"tsc_hz_calibrated":2000000000,"tsc_hz_dpdk":2004000000,)"
                      R"("dpdk_error_ppm":2000.0,"dilation":3})");
}

}  // namespace
}  // namespace rtb::realtime
