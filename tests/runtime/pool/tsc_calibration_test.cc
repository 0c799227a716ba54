// The EAL's TSC calibration sleep: shortened once, on the thread starting the EAL, and no
// other sleep touched (runtime/pool/tsc_calibration.h).
#include "runtime/pool/tsc_calibration.h"

#include <gtest/gtest.h>

#include <thread>

namespace rtb::runtime {
namespace {

bool same(const timespec& a, const timespec& b) { return a.tv_sec == b.tv_sec && a.tv_nsec == b.tv_nsec; }

TEST(TscCalibration, OnlyTheEalStartsOneHundredMillisecondSleepIsShortenedOnce) {
  EXPECT_TRUE(same(calibration_sleep_for(kEalCalibrationSleep), kEalCalibrationSleep))
      << "outside rte_eal_init() a 100 ms sleep is a sleep";
  EXPECT_FALSE(calibration_sleep());

  begin_eal_start();
  const timespec one_us{0, 1000}, a_second{1, 0};
  EXPECT_TRUE(same(calibration_sleep_for(one_us), one_us));
  EXPECT_TRUE(same(calibration_sleep_for(a_second), a_second));
  timespec elsewhere{};
  std::thread([&] { elsewhere = calibration_sleep_for(kEalCalibrationSleep); }).join();
  EXPECT_TRUE(same(elsewhere, kEalCalibrationSleep)) << "another thread's sleep is its own";
  EXPECT_TRUE(same(calibration_sleep_for(kEalCalibrationSleep), timespec{0, 10'000'000}));  // kShortCalibration
  EXPECT_TRUE(same(calibration_sleep_for(kEalCalibrationSleep), kEalCalibrationSleep))
      << "the calibration sleeps once: a second 100 ms sleep is not it";
  end_eal_start();

  EXPECT_TRUE(same(calibration_sleep_for(kEalCalibrationSleep), kEalCalibrationSleep));
  ASSERT_TRUE(calibration_sleep());
  EXPECT_EQ(*calibration_sleep(), Time::ms(10));
}

TEST(TscCalibration, TheNextEalStartSleepsTheChosenTime) {
  choose_calibration_sleep(Time::ms(1));
  begin_eal_start();
  EXPECT_TRUE(same(calibration_sleep_for(kEalCalibrationSleep), timespec{0, 1'000'000}));
  end_eal_start();
  ASSERT_TRUE(calibration_sleep());
  EXPECT_EQ(*calibration_sleep(), Time::ms(1));
  choose_calibration_sleep(Time::ms(10));
}

}  // namespace
}  // namespace rtb::runtime
