#include "core/units.h"

#include <gtest/gtest.h>

namespace rtb {
namespace {

TEST(Time, NamedConstructorsArePicoseconds) {
  EXPECT_EQ(Time::ns(1).ps(), 1'000u);
  EXPECT_EQ(Time::us(55).ps(), 55'000'000u);
  EXPECT_EQ(Time::ms(2).ps(), 2'000'000'000u);
  EXPECT_EQ(Time::s(1).ps(), 1'000'000'000'000u);
  EXPECT_LT(Time::s(100'000), Time::never());
  EXPECT_TRUE(Time::never().plus_sat(Time::ns(1)).is_never());
  EXPECT_EQ(Time::ns(3).plus_sat(Time::ns(4)), Time::ns(7));
}

TEST(Rate, SerializationOfAFrameIsExactInPicoseconds) {
  // 1,106 bytes at 100 Gb/s = 88.48 ns (design.md "Time").
  EXPECT_EQ(Rate::gbps(100).time_for(Bytes(1106)), Time::ps(88'480));
  EXPECT_EQ(Rate::gbps(40).time_for(Bytes(64)), Time::ps(12'800));
  EXPECT_EQ(Rate::gbps(25).time_for(Bytes(1)), Time::ps(320));
  // 3 bytes at 7 Gb/s = 24/7 ns = 3428.57 ps: rounded down.
  EXPECT_EQ(Rate::gbps(7).time_for(Bytes(3)), Time::ps(3'428));
}

TEST(Rate, BytesInATimeRoundsDown) {
  EXPECT_EQ(Rate::gbps(100).bytes_in(Time::us(1)), Bytes(12'500));
  EXPECT_EQ(Rate::gbps(100).bytes_in(Time::ps(79)), Bytes(0));
}

TEST(SerialClock, NoDriftOverAMillionFrames) {
  // 7 Gb/s does not divide a picosecond evenly: per-frame rounding would lose 0.57 ps a
  // frame; the clock carries the remainder so the total is exact.
  SerialClock clock(Rate::gbps(7));
  Time total;
  constexpr uint64_t kFrames = 1'000'000;
  for (uint64_t i = 0; i < kFrames; ++i) total += clock.advance(Bytes(3));
  const u128 exact = static_cast<u128>(kFrames * 24) * 1'000'000'000'000ULL /
                                  7'000'000'000ULL;
  EXPECT_EQ(total.ps(), static_cast<uint64_t>(exact));
}

// At rates where a byte is a whole number of picoseconds the clock multiplies instead of
// dividing: each frame's span equals Rate::time_for exactly, and so does the total.
TEST(SerialClock, WholePicosecondRatesNeedNoRemainder) {
  for (const Rate r : {Rate::gbps(10), Rate::gbps(25), Rate::gbps(40), Rate::gbps(100),
                       Rate::gbps(400), Rate::bps(1)}) {
    SerialClock clock(r);
    uint64_t total_bytes = 0;
    Time total;
    for (uint64_t len = 64; len < 9'300; len += 37) {
      const Time span = clock.advance(Bytes(len));
      ASSERT_EQ(span, r.time_for(Bytes(len))) << r << " " << len;
      total += span;
      total_bytes += len;
    }
    EXPECT_EQ(total, r.time_for(Bytes(total_bytes))) << r;
  }
}

TEST(Bytes, DecimalAndBinaryPrefixes) {
  EXPECT_EQ(Bytes::kb(150), Bytes(150'000));
  EXPECT_EQ(Bytes::kib(1), Bytes(1'024));
  EXPECT_EQ(Bytes::mib(1), Bytes(1'048'576));
  EXPECT_EQ(Bytes(10).bits(), 80u);
}

}  // namespace
}  // namespace rtb
