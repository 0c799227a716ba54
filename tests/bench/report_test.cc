// The bench table: every figure on its line, readable at any magnitude.
#include "bench/report.h"

#include <gtest/gtest.h>

namespace rtb::bench {
namespace {

std::string line_of(const std::string& table, const std::string& name) {
  const size_t at = table.find("  " + name + " ");
  if (at == std::string::npos) return {};
  return table.substr(at, table.find('\n', at) - at);
}

TEST(BenchReport, SmallFiguresKeepTheirSignificantDigits) {
  BenchReport r;
  r.mode = "sim";
  r.add("simulated_seconds", 0.0002, "s");
  r.add("tiny", 0.000012345, "s");
  r.add("zero", 0, "frames");
  r.add("ratio", 0.955, "x");
  r.add("seconds", 1.5, "s");
  r.add("frames", 1'234'567, "frames");
  const std::string t = r.table();
  EXPECT_NE(line_of(t, "simulated_seconds").find(" 0.0002 s"), std::string::npos) << t;
  EXPECT_NE(line_of(t, "tiny").find(" 1.234e-05 s"), std::string::npos) << t;
  EXPECT_NE(line_of(t, "zero").find(" 0.000 frames"), std::string::npos) << t;
  EXPECT_NE(line_of(t, "ratio").find(" 0.955 x"), std::string::npos) << t;
  EXPECT_NE(line_of(t, "seconds").find(" 1.500 s"), std::string::npos) << t;
  EXPECT_NE(line_of(t, "frames").find(" 1234567 frames"), std::string::npos) << t;
  EXPECT_NE(t.find("  valid\n"), std::string::npos) << t;
}

}  // namespace
}  // namespace rtb::bench
