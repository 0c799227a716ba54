// The progress line: when it prints (after a second, then every half second), what it
// says, and that it erases itself at the end.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "testbed/progress.h"

namespace rtb::testbed {
namespace {

using std::chrono::milliseconds;

std::string contents(std::FILE* f) {
  std::fflush(f);
  std::rewind(f);
  std::string s;
  for (int c; (c = std::fgetc(f)) != EOF;) s.push_back(static_cast<char>(c));
  return s;
}

TEST(ProgressLine, SaysWhereTheRunIsHowFastAndWhenItEnds) {
  EXPECT_EQ(progress_text(Time::ms(3), Time::ms(10), 11.4e6, 4.2),
            "simulated 3.00 of 10.00 ms (30%), 11.4 M frame-hops/s, 4 s left");
  EXPECT_EQ(progress_text(Time::ms(1), Time::ms(4), std::nullopt, 125),
            "simulated 1.00 of 4.00 ms (25%), 2 min 05 s left");
}

TEST(ProgressLine, PrintsAfterASecondThenEveryHalfSecondAndErasesItself) {
  std::FILE* f = std::tmpfile();
  ASSERT_NE(f, nullptr);
  uint64_t hops = 0;
  {
    const auto t0 = ProgressLine::Clock::now();
    ProgressLine p(Time::ms(10), [&] { return hops; }, f, true);
    p.update(Time::ms(1), t0 + milliseconds(900));
    EXPECT_EQ(contents(f), "") << "nothing in the first second";
    hops = 20'000'000;
    p.update(Time::ms(2), t0 + milliseconds(2000));
    const std::string first = contents(f);
    // 2 of 10 ms in about 2 s: about 8 s left, about 10 M frame-hops/s.
    EXPECT_NE(first.find("\r\033[Ksimulated 2.00 of 10.00 ms (20%), "), std::string::npos) << first;
    EXPECT_NE(first.find(" left"), std::string::npos) << first;
    p.update(Time::ms(3), t0 + milliseconds(2200));
    EXPECT_EQ(contents(f), first) << "not again within half a second";
    p.update(Time::ms(4), t0 + milliseconds(2600));
    EXPECT_NE(contents(f).find("simulated 4.00"), std::string::npos);
  }
  const std::string all = contents(f);
  EXPECT_EQ(all.substr(all.size() - 4), "\r\033[K") << "the line is erased at the end";
  std::fclose(f);
}

TEST(ProgressLine, OffPrintsNothing) {
  std::FILE* f = std::tmpfile();
  {
    const auto t0 = ProgressLine::Clock::now();
    ProgressLine p(Time::ms(10), nullptr, f, false);
    p.update(Time::ms(5), t0 + milliseconds(5000));
  }
  EXPECT_EQ(contents(f), "");
  std::fclose(f);
}

}  // namespace
}  // namespace rtb::testbed
