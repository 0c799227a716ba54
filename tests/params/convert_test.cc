// rocetb params convert: the three conventions' formulas, the round trip
// paper -> mlx5 -> paper within the stated approximation (Q10 steps), and what is said
// to be approximate.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <map>

#include "params/conventions.h"

namespace rtb::params {
namespace {

using ::testing::HasSubstr;

std::map<std::string, Converted> by_key(const Conversion& c) {
  std::map<std::string, Converted> out;
  for (const Converted& k : c.keys) out[k.key] = k;
  return out;
}

std::vector<GivenValue> as_given(const Conversion& c) {
  std::vector<GivenValue> out;
  for (const Converted& k : c.keys) out.push_back({k.key, k.value, "converted"});
  return out;
}

TEST(Convert, PaperDefaultsToMlx5) {
  auto c = convert(Convention::kPaper, Convention::kMlx5, {});
  ASSERT_TRUE(c) << c.error().message;
  auto k = by_key(*c);
  EXPECT_EQ(k["rp_dce_tcp_g"].value, "1020");  // 1024 x (1 - 1/256)
  EXPECT_THAT(k["rp_dce_tcp_g"].approximate, HasSubstr("Q10"));
  EXPECT_EQ(k["rp_dce_tcp_rtt"].value, "55");
  EXPECT_EQ(k["rp_time_reset"].value, "55");
  EXPECT_EQ(k["rp_byte_reset"].value, "156250");  // 10 MB / 64 B
  EXPECT_EQ(k["rp_threshold"].value, "5");
  EXPECT_EQ(k["rp_ai_rate"].value, "40");
  EXPECT_EQ(k["np_min_time_between_cnps"].value, "50");
  EXPECT_EQ(k["rp_initial_alpha_value"].value, "1023");  // 1.0 does not fit 10 bits
  EXPECT_THAT(k["rp_initial_alpha_value"].approximate, HasSubstr("10-bit fraction"));
  EXPECT_EQ(k["rp_clamp_tgt_rate"].value, "1");  // implied: R_T = R_C at every CNP
  EXPECT_EQ(k["rp_gd"].value, "11");             // implied: the cut alpha/2
  EXPECT_EQ(k["rp_time_reset"].approximate, "");
}

// paper -> mlx5 -> paper: every knob comes back within one Q10 step (g, alpha0) or exactly.
TEST(Convert, PaperToMlx5AndBackWithinOneQ10Step) {
  const std::vector<GivenValue> given = {{"g", "0.01", "a"},
                                         {"alpha_timer_us", "55", "a"},
                                         {"T_us", "55", "a"},
                                         {"B_bytes", "10000000", "a"},
                                         {"F", "5", "a"},
                                         {"R_AI_Mbps", "40", "a"},
                                         {"R_HAI_Mbps", "200", "a"},
                                         {"cnp_interval_us", "50", "a"},
                                         {"alpha_init", "1", "a"}};
  auto there = convert(Convention::kPaper, Convention::kMlx5, given);
  ASSERT_TRUE(there);
  EXPECT_EQ(by_key(*there)["rp_dce_tcp_g"].value, "1014");  // 1024 x 0.99 = 1013.76
  EXPECT_THAT(by_key(*there)["rp_dce_tcp_g"].approximate, HasSubstr("rounded from 1013.76"));
  auto back = convert(Convention::kMlx5, Convention::kPaper, as_given(*there));
  ASSERT_TRUE(back);
  auto k = by_key(*back);
  EXPECT_NEAR(std::stod(k["g"].value), 0.01, 0.5 / 1024);
  EXPECT_NEAR(std::stod(k["alpha_init"].value), 1.0, 1.0 / 1024);
  for (const char* exact : {"alpha_timer_us", "T_us", "F", "R_AI_Mbps", "R_HAI_Mbps", "cnp_interval_us"}) {
    EXPECT_EQ(std::stod(k[exact].value), std::stod([&] {
                for (const GivenValue& g : given)
                  if (g.key == exact) return g.value;
                return std::string("nan");
              }()))
        << exact;
  }
  EXPECT_EQ(k["B_bytes"].value, "10000000");
  // The paper has no cut shift: rp_gd goes back only as a sentence.
  EXPECT_EQ(k.count("rp_gd"), 0u);
  bool said = false;
  for (const std::string& d : back->dropped) said = said || d.starts_with("rp_gd = 11: the paper cuts R_C x alpha/2");
  EXPECT_TRUE(said);
}

TEST(Convert, HpccToMlx5SaysThePerAckCnpFlagIsApproximate) {
  auto c = convert(Convention::kHpccNs3, Convention::kMlx5,
                   {{"EWMA_GAIN", "0.00390625", "config.txt:20"},
                    {"RATE_AI", "20Mb/s", "config.txt:23"},
                    {"RATE_HAI", "0.2Gb/s", "config.txt:24"},
                    {"TOPOLOGY_FILE", "topology.txt", "config.txt:5"}});
  ASSERT_TRUE(c) << c.error().message;
  auto k = by_key(*c);
  EXPECT_EQ(k["rp_dce_tcp_g"].value, "1020");
  EXPECT_EQ(k["rp_ai_rate"].value, "20");
  EXPECT_EQ(k["rp_hai_rate"].value, "200");
  EXPECT_EQ(k["np_min_time_between_cnps"].value, "0");
  EXPECT_THAT(k["np_min_time_between_cnps"].formula, HasSubstr("every ACK of a CE-marked packet carries the CNP flag"));
  EXPECT_THAT(k["np_min_time_between_cnps"].approximate, HasSubstr("the mechanisms differ"));
  EXPECT_EQ(k["rp_byte_reset"].value, "4294967295");
  ASSERT_EQ(c->skipped.size(), 1u);
  EXPECT_EQ(c->skipped[0], "config.txt:5: TOPOLOGY_FILE");
}

TEST(Convert, Mlx5ToHpccDropsWhatTheSimulatorHasNot) {
  auto c = convert(Convention::kMlx5, Convention::kHpccNs3,
                   {{"rp_byte_reset", "32767", "argument 1"},
                    {"rp_ai_rate", "5", "argument 2"},
                    {"np_min_time_between_cnps", "4", "argument 3"}});
  ASSERT_TRUE(c);
  ASSERT_EQ(c->keys.size(), 1u);
  EXPECT_EQ(key_line(Convention::kHpccNs3, c->keys[0]), "RATE_AI 5Mb/s");
  ASSERT_EQ(c->dropped.size(), 2u);
  EXPECT_THAT(c->dropped[0], HasSubstr("rp_byte_reset = 32767: the simulator's DCQCN is timer-only"));
  EXPECT_THAT(c->dropped[1], HasSubstr("np_min_time_between_cnps = 4: the simulator has no CNP pacing"));
}

TEST(Convert, BadValueNamesWhereItWasGiven) {
  auto c = convert(Convention::kPaper, Convention::kMlx5, {{"g", "abc", "argument 1"}});
  ASSERT_FALSE(c);
  EXPECT_EQ(c.error().message, "argument 1: g = abc: expected a non-negative number");
}

}  // namespace
}  // namespace rtb::params
