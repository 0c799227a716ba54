#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "test_util.h"

namespace rtb::cc::testing {
namespace {

using ::testing::HasSubstr;

TEST(FixedRate, LineRateByDefaultAndTheGivenRateOtherwise) {
  for (auto [params, line, expect] :
       {std::tuple{ParamMap{}, Rate::gbps(100), Rate::gbps(100)},
        std::tuple{ParamMap{{"rate_mbps", int64_t{2500}}}, Rate::gbps(100), Rate::mbps(2500)},
        std::tuple{ParamMap{{"rate_mbps", int64_t{400000}}}, Rate::gbps(25), Rate::gbps(25)}}) {
    const Controller c = configure_or_die("fixed_rate", params);
    auto t = std::move(FlowTable::create(c.algorithm(), 1)).value();
    const Decision d = c.start(t.state(0), FlowStart{line}, Time::zero());
    EXPECT_EQ(d.rate, expect);
    EXPECT_TRUE(d.next_deadline.is_never());
    EXPECT_EQ(c.on_timer(t.state(0), Time::ms(1)).rate, expect);
    EXPECT_FALSE(c.on_bytes_sent(t.state(0), Bytes(1000), Time::ms(1)).has_value());
  }
}

TEST(FixedRate, BadRateIsRefused) {
  EXPECT_THAT(configure_error("fixed_rate", {{"rate_mbps", std::string("fast")}}),
              HasSubstr("fixed_rate: rate_mbps = \"fast\" is invalid"));
  EXPECT_THAT(configure_error("fixed_rate", {{"rate_gbps", int64_t{1}}}),
              HasSubstr("unknown parameter 'rate_gbps'; valid parameters: rate_mbps"));
}

}  // namespace
}  // namespace rtb::cc::testing
