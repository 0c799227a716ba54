// Warnings with one cause on many ports or switches read as one line with a count.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include "scenario/warning_summary.h"

namespace rtb::scenario {
namespace {

TEST(WarningSummary, OneCauseOnManyPlacesIsOneLineWithACount) {
  std::vector<std::string> w;
  for (const char* sw : {"leaf0", "leaf1"}) {
    for (int p = 0; p < 3; ++p) w.push_back(fmt::format("switch {} port Ethernet{}: pfc refresh_interval = 9 ps is high", sw, p));
  }
  EXPECT_EQ(summarize_warnings(w),
            std::vector<std::string>{"switch leaf0 port Ethernet0, switch leaf0 port Ethernet1, switch leaf0 port "
                                     "Ethernet2 and 3 more (6 in all): pfc refresh_interval = 9 ps is high"});
}

TEST(WarningSummary, DifferentCausesKeepTheirOrderAndASingleOneIsUnchanged) {
  const std::vector<std::string> w = {"switch sw0: BUFFER_POOL xoff is low", "cc: rp_time_reset_us is odd",
                                      "switch sw1: BUFFER_POOL xoff is low", "no place at all"};
  EXPECT_EQ(summarize_warnings(w), (std::vector<std::string>{"switch sw0, switch sw1 (2 in all): BUFFER_POOL xoff is low",
                                                             "cc: rp_time_reset_us is odd", "no place at all"}));
}

TEST(WarningSummary, AMultiLineCauseKeepsItsArithmetic) {
  const std::string cause = "pg3 xoff = 1 B is below the 44800 B the cable needs:\n  cable 2 x 7 m\n  total 44800 B";
  const std::vector<std::string> w = {"switch sw0 port Ethernet0: " + cause, "switch sw0 port Ethernet4: " + cause};
  EXPECT_EQ(summarize_warnings(w),
            std::vector<std::string>{"switch sw0 port Ethernet0, switch sw0 port Ethernet4 (2 in all): " + cause});
  // A first line without ": " is all cause, even when a later line has one.
  EXPECT_EQ(summarize_warnings({"odd\nkey: value"}), std::vector<std::string>{"odd\nkey: value"});
}

}  // namespace
}  // namespace rtb::scenario
