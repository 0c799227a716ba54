// The pure arithmetic of the realtime clock: ticks -> ps exactly, frequency from samples.
#include "realtime/tsc_ticks.h"

#include <gtest/gtest.h>

#include <vector>

namespace rtb::realtime {
namespace {

// floor(ticks * 10^12 / (hz * dilation)) the slow, obviously right way.
uint64_t reference_ps(uint64_t ticks, uint64_t hz, uint32_t dilation) {
  return static_cast<uint64_t>(static_cast<u128>(ticks) * 1'000'000'000'000ULL /
                               (static_cast<u128>(hz) * dilation));
}

TEST(TickConverter, OneTickAt2500MhzIs400Ps) {
  const TickConverter c(2'500'000'000, 1);
  EXPECT_EQ(c.to_time(1), Time::ps(400));
  EXPECT_EQ(c.to_time(2'500'000'000), Time::s(1));
  EXPECT_EQ(c.num(), 400u);
  EXPECT_EQ(c.den(), 1u);
}

TEST(TickConverter, NonDivisible2100MhzOver1e12TicksDoesNotDrift) {
  const TickConverter c(2'100'000'000, 1);
  // 10^12 ticks / 2.1 GHz = 476.190476190476190... s
  EXPECT_EQ(c.to_time(1'000'000'000'000ULL), Time::ps(476'190'476'190'476ULL));
  // Whole seconds stay whole however far from the epoch.
  EXPECT_EQ(c.to_time(2'100'000'000ULL * 86'400), Time::s(86'400));
  EXPECT_EQ(c.to_time(1), Time::ps(476));  // 476.19 ps, floored
  EXPECT_TRUE(c.fits_64());
}

TEST(TickConverter, DilationDividesScenarioTime) {
  const TickConverter c(2'500'000'000, 4);
  EXPECT_EQ(c.to_time(1), Time::ps(100));
  EXPECT_EQ(c.to_time(2'500'000'000), Time::ms(250));
}

TEST(TickConverter, MatchesReferenceOnBothPaths) {
  struct Case { uint64_t hz; uint32_t dilation; bool fits_64; };
  const std::vector<Case> cases = {
      {2'100'000'000, 1, true},      {2'095'123'000, 1, true},   {3'000'000'000, 7, true},
      {2'100'000'000, 1000, true},   {2'100'000'001, 1, false},  {1'999'999'999, 3, false},
      {4'000'000'000, 1'000'000, true}, {2'999'999'000, 999'983, false}, {1, 1, true}};
  for (const Case& k : cases) {
    const TickConverter c(k.hz, k.dilation);
    EXPECT_EQ(c.fits_64(), k.fits_64) << k.hz << " Hz x" << k.dilation;
    uint64_t ticks = 1;
    for (int i = 0; i < 2000; ++i) {
      // Spread over 0 .. 2^62 ticks (a 64-bit LCG, then masked).
      ticks = (ticks * 6364136223846793005ULL + 1442695040888963407ULL);
      const uint64_t t = ticks >> (2 + i % 40);
      ASSERT_EQ(c.to_time(t).ps(), reference_ps(t, k.hz, k.dilation))
          << t << " ticks at " << k.hz << " Hz x" << k.dilation;
    }
  }
}

TEST(TickConverter, ZeroHzOrDilationIsTakenAsOne) {
  EXPECT_EQ(TickConverter(0, 1).to_time(5), Time::s(5));
  EXPECT_EQ(TickConverter(1'000'000'000'000ULL, 0).to_time(5), Time::ps(5));
}

TEST(TscHzBetween, WholeKilohertzFromTwoSamples) {
  const ClockSample a{1'000, 5'000, 20};
  const ClockSample b{1'000 + 210'000'000, 5'000 + 100'000'000, 20};  // 2.1e8 ticks in 0.1 s
  EXPECT_EQ(tsc_hz_between(a, b), 2'100'000'000u);
  // 2,100,000,600 Hz rounds to 2,100,001 kHz; 2,100,000,400 Hz to 2,100,000 kHz.
  EXPECT_EQ(tsc_hz_between(a, ClockSample{1'000 + 210'000'060, 100'005'000, 20}),
            2'100'001'000u);
  EXPECT_EQ(tsc_hz_between(a, ClockSample{1'000 + 210'000'040, 100'005'000, 20}),
            2'100'000'000u);
}

TEST(TscHzBetween, ZeroWhenTheClocksDidNotMove) {
  const ClockSample a{1'000, 5'000, 20};
  EXPECT_EQ(tsc_hz_between(a, a), 0u);
  EXPECT_EQ(tsc_hz_between(a, ClockSample{2'000, 5'000, 20}), 0u);
}

}  // namespace
}  // namespace rtb::realtime
