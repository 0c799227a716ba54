#include "core/decimal_format.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>

namespace rtb {
namespace {

std::string ours(double v, std::chars_format f, int precision) {
  char buf[400];
  const std::to_chars_result r = f == std::chars_format::fixed ? to_chars_fixed(buf, buf + sizeof buf, v, precision)
                                                               : to_chars_general(buf, buf + sizeof buf, v, precision);
  EXPECT_EQ(r.ec, std::errc{});
  return std::string(buf, r.ptr);
}

std::string libstdcxx(double v, std::chars_format f, int precision) {
  char buf[400];
  const std::to_chars_result r = std::to_chars(buf, buf + sizeof buf, v, f, precision);
  return std::string(buf, r.ptr);
}

// Both formats at this precision agree with std::to_chars; the count of those that do not.
int mismatches(double v, int precision) {
  int bad = 0;
  for (const auto f : {std::chars_format::fixed, std::chars_format::general}) {
    const std::string want = libstdcxx(v, f, precision);
    const std::string got = ours(v, f, precision);
    if (got != want) {
      ADD_FAILURE() << (f == std::chars_format::fixed ? "fixed " : "general ") << precision << " of "
                    << std::hexfloat << v << ": " << got << ", std::to_chars " << want;
      ++bad;
    }
  }
  return bad;
}

TEST(DecimalFormat, TheSamplersFields) {
  EXPECT_EQ(ours(40.0, std::chars_format::fixed, 6), "40.000000");
  EXPECT_EQ(ours(14.7456, std::chars_format::fixed, 6), "14.745600");
  EXPECT_EQ(ours(0.999023438, std::chars_format::general, 9), "0.999023438");
  EXPECT_EQ(ours(4e10, std::chars_format::general, 9), "4e+10");
  EXPECT_EQ(ours(0.0, std::chars_format::general, 9), "0");
  EXPECT_EQ(ours(-0.0, std::chars_format::fixed, 6), "-0.000000");
  EXPECT_EQ(ours(123456789012.0, std::chars_format::general, 9), "1.23456789e+11");
  EXPECT_EQ(ours(0.00012345, std::chars_format::general, 9), "0.00012345");
  EXPECT_EQ(ours(100.0, std::chars_format::general, 9), "100");
}

TEST(DecimalFormat, TiesGoToEven) {  // exact halves: the binary value decides, as printf
  EXPECT_EQ(ours(0.125, std::chars_format::fixed, 2), "0.12");
  EXPECT_EQ(ours(0.375, std::chars_format::fixed, 2), "0.38");
  EXPECT_EQ(ours(2.5, std::chars_format::fixed, 0), "2");
  EXPECT_EQ(ours(3.5, std::chars_format::fixed, 0), "4");
  EXPECT_EQ(ours(1.0000000005, std::chars_format::general, 10), libstdcxx(1.0000000005, std::chars_format::general, 10));
  std::mt19937_64 g(3);
  int bad = 0;
  for (int i = 0; i < 20000; ++i) {
    for (int p = 0; p < 10; ++p) {
      const double v = static_cast<double>(g() % 2'000'000) / 1024;  // many exact ties
      bad += mismatches(v, p) + mismatches(v + 0.5 / std::pow(10.0, p), p);
      if (bad > 10) return;
    }
  }
}

TEST(DecimalFormat, RoundingThatCarriesIntoANewDigit) {
  EXPECT_EQ(ours(9.9999999996, std::chars_format::general, 9), "10");
  EXPECT_EQ(ours(99999.9999996, std::chars_format::fixed, 6), "100000.000000");
  EXPECT_EQ(ours(999999999.6, std::chars_format::general, 9), "1e+09");
  int bad = 0;
  for (int k = -30; k < 30 && bad < 10; ++k) {
    for (int p = 0; p < 18; ++p) {
      const double v = std::pow(10.0, k);
      bad += mismatches(v, p) + mismatches(std::nextafter(v, 0.0), p) + mismatches(std::nextafter(v, 1e300), p) +
             mismatches(v * 9.9999999995, p);
    }
  }
}

TEST(DecimalFormat, EveryBinaryExponent) {
  int bad = 0;
  for (int e = -1074; e <= 1023 && bad < 10; ++e) {
    for (const int p : {0, 1, 6, 9, 17}) {
      bad += mismatches(std::ldexp(1.0, e), p) + mismatches(std::nextafter(std::ldexp(1.0, e), 0.0), p);
    }
  }
}

TEST(DecimalFormat, RandomDoublesOfEveryKind) {
  std::mt19937_64 g(7);
  int bad = 0;
  for (int i = 0; i < 200'000 && bad < 10; ++i) {
    const double any = std::bit_cast<double>(g());  // NaNs and infinities included
    const double typical = std::ldexp(static_cast<double>(g() >> 11), static_cast<int>(g() % 140) - 120);
    bad += mismatches(any, static_cast<int>(g() % 19)) + mismatches(typical, static_cast<int>(g() % 19)) +
           mismatches(-typical, 6) + mismatches(typical, 9);
  }
}

TEST(DecimalFormat, WhatItCannotScaleGoesToStdToChars) {
  for (const double v : {std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(),
                         std::numeric_limits<double>::quiet_NaN(), 1e300, -1e-300, 5e-324}) {
    EXPECT_EQ(mismatches(v, 6), 0);
    EXPECT_EQ(mismatches(v, 9), 0);
  }
  EXPECT_EQ(mismatches(0.1, 25), 0);  // past 17 digits
  char small[8];
  EXPECT_EQ(to_chars_fixed(small, small + sizeof small, 12345.678, 6).ec, std::errc::value_too_large);
  EXPECT_EQ(to_chars_general(small, small + 3, 12345.678, 9).ec, std::errc::value_too_large);
}

}  // namespace
}  // namespace rtb
