#include "core/units_parse.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace rtb {
namespace {

using ::testing::HasSubstr;

TEST(ParseTime, Units) {
  EXPECT_EQ(*parse_time("55us"), Time::us(55));
  EXPECT_EQ(*parse_time("1.5ns"), Time::ps(1'500));
  EXPECT_EQ(*parse_time("200 ms"), Time::ms(200));
  EXPECT_EQ(*parse_time("3s"), Time::s(3));
  EXPECT_EQ(*parse_time("88480ps"), Time::ps(88'480));
  EXPECT_EQ(*parse_time("0.000001s"), Time::us(1));
}

TEST(ParseTime, Errors) {
  EXPECT_THAT(parse_time("55").error().message, HasSubstr("missing unit in '55'"));
  EXPECT_THAT(parse_time("55min").error().message, HasSubstr("unknown unit 'min'"));
  EXPECT_THAT(parse_time("55min").error().message, HasSubstr("ps, ns, us, ms, s"));
  EXPECT_THAT(parse_time("fast").error().message,
              HasSubstr("expected a time as a number followed by a unit"));
  EXPECT_THAT(parse_time("0.5ps").error().message, HasSubstr("finer than"));
  EXPECT_THAT(parse_time("").error().message, HasSubstr("got ''"));
  EXPECT_THAT(parse_time("-5us").error().message, HasSubstr("expected a time"));
  EXPECT_THAT(parse_time("99999999999999999999s").error().message, HasSubstr("expected a time"));
  EXPECT_THAT(parse_time("20000000s").error().message, HasSubstr("too large"));
}

TEST(ParseRate, Units) {
  EXPECT_EQ(*parse_rate("100Gbps"), Rate::gbps(100));
  EXPECT_EQ(*parse_rate("40Mbps"), Rate::mbps(40));
  EXPECT_EQ(*parse_rate("2.5Gb/s"), Rate::mbps(2'500));
  EXPECT_EQ(*parse_rate("1bps"), Rate::bps(1));
}

TEST(ParseRate, Errors) {
  EXPECT_THAT(parse_rate("100G").error().message, HasSubstr("unknown unit 'G'"));
  EXPECT_THAT(parse_rate("100").error().message, HasSubstr("missing unit"));
  EXPECT_THAT(parse_rate("0.5bps").error().message, HasSubstr("finer than"));
}

TEST(ParseBytes, DecimalAndBinary) {
  EXPECT_EQ(*parse_bytes("150KB"), Bytes(150'000));
  EXPECT_EQ(*parse_bytes("1.2MB"), Bytes(1'200'000));
  EXPECT_EQ(*parse_bytes("1.2MiB"), Bytes(1'258'291));  // 1,258,291.2 rounded
  EXPECT_EQ(*parse_bytes("4MiB"), Bytes(4'194'304));
  EXPECT_EQ(*parse_bytes("1024B"), Bytes(1'024));
  EXPECT_EQ(*parse_bytes("100_000B"), Bytes(100'000));
}

TEST(ParseBytes, Errors) {
  EXPECT_THAT(parse_bytes("150kb").error().message, HasSubstr("unknown unit 'kb'"));
  EXPECT_THAT(parse_bytes("150kb").error().message, HasSubstr("B, KB, MB, GB, KiB, MiB, GiB"));
  EXPECT_THAT(parse_bytes("150").error().message, HasSubstr("missing unit in '150'"));
}

}  // namespace
}  // namespace rtb
