// DCQCN parameter checking: mlx5 names, units and ranges; the documented edge cases.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "cc_algos/dcqcn/dcqcn_params.h"
#include "test_util.h"

namespace rtb::cc::testing {
namespace {

using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

TEST(DcqcnParams, DefaultsAreTheMlx5Defaults) {
  const Controller c = configure_or_die("dcqcn");
  EXPECT_THAT(c.warnings(), IsEmpty());
  const auto& p = *static_cast<const dcqcn::NicParams*>(c.params_blob());
  EXPECT_FALSE(p.clamp_tgt_rate);
  EXPECT_TRUE(p.clamp_tgt_rate_ati);
  EXPECT_EQ(p.time_reset, Time::us(300));
  EXPECT_EQ(p.byte_reset, Bytes(32767 * 64));
  EXPECT_EQ(p.threshold, 1u);
  EXPECT_EQ(p.ai_rate, Rate::mbps(5));
  EXPECT_EQ(p.hai_rate, Rate::mbps(50));
  EXPECT_EQ(p.max_rate, Rate::zero());
  EXPECT_EQ(p.min_rate, Rate::mbps(1));
  EXPECT_EQ(p.min_dec_fac, 50u);
  EXPECT_EQ(p.rate_on_first_cnp, Rate::zero());
  EXPECT_EQ(p.dce_tcp_g, 1019u);
  EXPECT_EQ(p.alpha_period, Time::us(1));
  EXPECT_EQ(p.monitor_period, Time::us(4));
  EXPECT_EQ(p.initial_alpha, 1023u);
  EXPECT_EQ(p.gd, 11u);
}

TEST(DcqcnParams, InitialAlpha1024IsRefused) {
  EXPECT_THAT(configure_error("dcqcn", {{"rp_initial_alpha_value", int64_t{1024}}}),
              AllOf(HasSubstr("rp_initial_alpha_value = 1024"), HasSubstr("1..1023"),
                    HasSubstr("1023 means alpha = 1.0")));
  EXPECT_THAT(configure_error("dcqcn", {{"rp_initial_alpha_value", int64_t{0}}}),
              HasSubstr("rp_initial_alpha_value = 0"));
}

TEST(DcqcnParams, GdOf32OrMoreIsRefused) {
  EXPECT_THAT(configure_error("dcqcn", {{"rp_gd", int64_t{32}}}),
              AllOf(HasSubstr("rp_gd = 32"), HasSubstr("0..31"), HasSubstr("cannot apply")));
  EXPECT_THAT(configure_error("dcqcn", {{"rp_gd", int64_t{50}}}), HasSubstr("rp_gd = 50"));
}

TEST(DcqcnParams, GdOutsideTenToElevenIsWarned) {
  EXPECT_THAT(configure_warnings("dcqcn", {{"rp_gd", int64_t{10}}}), IsEmpty());
  EXPECT_THAT(configure_warnings("dcqcn", {{"rp_gd", int64_t{12}}}),
              ElementsAre(AllOf(HasSubstr("rp_gd = 12"), HasSubstr("outside the documented 10..11"),
                                HasSubstr("1023/2^12 = 0.249756"))));
  EXPECT_THAT(configure_warnings("dcqcn", {{"rp_gd", int64_t{9}}}),
              ElementsAre(HasSubstr("bounded by rp_min_dec_fac = 50")));
  // A shift so large that no cut matters: the mechanism is disabled, and the user is told.
  EXPECT_THAT(configure_warnings("dcqcn", {{"rp_gd", int64_t{25}}}),
              ElementsAre(AllOf(HasSubstr("effectively disabled"), HasSubstr("exactly 0"))));
}

TEST(DcqcnParams, RfResetRatioIsNotAnMlx5Parameter) {
  EXPECT_THAT(configure_error("dcqcn", {{"rp_rf_reset_ratio", int64_t{1}}}),
              AllOf(HasSubstr("unknown parameter 'rp_rf_reset_ratio'"),
                    HasSubstr("not an mlx5 DCQCN parameter"), HasSubstr("rp_threshold"),
                    HasSubstr("valid parameters: rp_clamp_tgt_rate, ")));
}

TEST(DcqcnParams, UnknownKeyListsTheValidOnes) {
  const std::string e = configure_error("dcqcn", {{"rp_time_reset_us", int64_t{300}}});
  EXPECT_THAT(e, AllOf(HasSubstr("unknown parameter 'rp_time_reset_us'"), HasSubstr("rp_time_reset,"),
                       HasSubstr("np_cnp_prio_mode")));
  EXPECT_THAT(configure_error("dcqcn", {{"rtt_resp_dscp", int64_t{1}}}), HasSubstr("RTT-probe"));
}

TEST(DcqcnParams, TinyDceTcpGIsWarnedWithTheArithmetic) {
  EXPECT_THAT(configure_warnings("dcqcn", {{"rp_dce_tcp_g", int64_t{4}}}),
              ElementsAre(AllOf(HasSubstr("rp_dce_tcp_g = 4"), HasSubstr("(1024 - 4)/1024 = 0.9961"),
                                HasSubstr("use 1020"))));
  EXPECT_THAT(configure_warnings("dcqcn", {{"rp_dce_tcp_g", int64_t{1020}}}), IsEmpty());
}

TEST(DcqcnParams, MinDecFac100IsWarnedAnd101Refused) {
  EXPECT_THAT(configure_warnings("dcqcn", {{"rp_min_dec_fac", int64_t{100}}}),
              ElementsAre(HasSubstr("never decreases")));
  EXPECT_THAT(configure_error("dcqcn", {{"rp_min_dec_fac", int64_t{101}}}),
              AllOf(HasSubstr("rp_min_dec_fac = 101"), HasSubstr("0..100")));
}

TEST(DcqcnParams, ZeroValuesWithSpecialMeaning) {
  EXPECT_THAT(configure_warnings("dcqcn", {{"rp_rate_to_set_on_first_cnp", int64_t{0}},
                                           {"rp_max_rate", int64_t{0}}}),
              IsEmpty());
  EXPECT_THAT(configure_error("dcqcn", {{"rp_min_rate", int64_t{0}}}), HasSubstr("rp_min_rate = 0"));
}

TEST(DcqcnParams, CrossFieldChecks) {
  EXPECT_THAT(configure_error("dcqcn", {{"rp_min_rate", int64_t{5000}}, {"rp_max_rate", int64_t{1000}}}),
              AllOf(HasSubstr("rp_min_rate = 5000 Mb/s is above rp_max_rate = 1000 Mb/s")));
  EXPECT_THAT(configure_warnings("dcqcn", {{"rp_rate_to_set_on_first_cnp", int64_t{500}},
                                           {"rp_min_rate", int64_t{1000}}}),
              ElementsAre(HasSubstr("sets the rate to 1000 Mb/s")));
}

TEST(DcqcnParams, ValueKinds) {
  // Strings in decimal or 0x-hex (as the debugfs files accept), integral floats.
  const Controller c = configure_or_die("dcqcn", {{"rp_time_reset", std::string("0x12c")},
                                                  {"rp_ai_rate", 7.0},
                                                  {"rp_hai_rate", std::string("60")}});
  const auto& p = *static_cast<const dcqcn::NicParams*>(c.params_blob());
  EXPECT_EQ(p.time_reset, Time::us(300));
  EXPECT_EQ(p.ai_rate, Rate::mbps(7));
  EXPECT_EQ(p.hai_rate, Rate::mbps(60));
  EXPECT_THAT(configure_error("dcqcn", {{"rp_ai_rate", 7.5}}),
              AllOf(HasSubstr("rp_ai_rate = 7.5 is invalid"), HasSubstr("whole number"), HasSubstr("Mb/s")));
  EXPECT_THAT(configure_error("dcqcn", {{"rp_ai_rate", int64_t{-1}}}), HasSubstr("rp_ai_rate = -1"));
  EXPECT_THAT(configure_error("dcqcn", {{"rp_ai_rate", std::string("5Mbps")}}),
              HasSubstr("rp_ai_rate = \"5Mbps\""));
  EXPECT_THAT(configure_error("dcqcn", {{"np_cnp_prio_mode", int64_t{1}}}), HasSubstr("not modelled"));
  EXPECT_THAT(configure_error("dcqcn", {{"np_cnp_dscp", int64_t{64}}}), HasSubstr("0..63"));
}

TEST(DcqcnParams, EveryErrorIsReported) {
  const std::string e = configure_error("dcqcn", {{"rp_gd", int64_t{40}}, {"bogus", int64_t{1}}});
  EXPECT_THAT(e, AllOf(HasSubstr("rp_gd = 40"), HasSubstr("unknown parameter 'bogus'")));
}

TEST(DcqcnPaperParams, PaperDefaultsAndRefusals) {
  const Controller c = configure_or_die("dcqcn_paper");
  EXPECT_THAT(c.warnings(), IsEmpty());
  const auto& p = *static_cast<const dcqcn::PaperParams*>(c.params_blob());
  EXPECT_TRUE(p.clamp_tgt_rate);
  EXPECT_EQ(p.time_reset, Time::us(55));
  EXPECT_EQ(p.byte_reset, Bytes::mb(10));
  EXPECT_EQ(p.threshold, 5u);
  EXPECT_EQ(p.ai_rate, Rate::mbps(40));
  EXPECT_EQ(p.hai_rate, Rate::mbps(200));
  EXPECT_EQ(p.dce_tcp_g, 1020u);  // g = 4/1024 = 1/256
  EXPECT_EQ(p.alpha_period, Time::us(55));
  EXPECT_EQ(c.np_params().min_time_between_cnps, Time::us(50));
  EXPECT_THAT(configure_error("dcqcn_paper", {{"rp_gd", int64_t{11}}}),
              AllOf(HasSubstr("unknown parameter 'rp_gd'"), HasSubstr("use algorithm 'dcqcn'")));
  EXPECT_THAT(configure_warnings("dcqcn_paper", {{"rp_dce_tcp_rtt", int64_t{40}}}),
              ElementsAre(HasSubstr("not larger than np_min_time_between_cnps = 50 us")));
}

}  // namespace
}  // namespace rtb::cc::testing
