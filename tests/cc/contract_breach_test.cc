// The run-time contract check (cc_algos/contract.h): each breach is named with the
// algorithm, where it came from, the hook, the value and what was expected.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "cc_algos/contract.h"
#include "cc_algos/registry.h"

namespace rtb::cc::testing {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;

constexpr Rate kLine = Rate::gbps(100);
constexpr Time kNow = Time::us(7);

Algorithm fixed_rate() { return std::move(Registry::with_builtins().find("fixed_rate")).value(); }

std::string breach(const Decision& d) {
  auto m = contract_breach(fixed_rate(), "on_ack", d, kNow, kLine);
  return m ? *m : std::string();
}

TEST(ContractBreach, AKeptContractPasses) {
  EXPECT_EQ(breach(Decision{kLine, std::nullopt, Time::never()}), "");
  EXPECT_EQ(breach(Decision{Rate::bps(1), Bytes(1), kNow + Time::ps(1)}), "");
}

TEST(ContractBreach, RateZeroNamesTheAlgorithmAndHook) {
  EXPECT_THAT(breach(Decision{Rate::bps(0), std::nullopt, Time::never()}),
              AllOf(HasSubstr("congestion-control algorithm 'fixed_rate' (built-in) broke its "
                              "contract in on_ack at now_ps 7000000"),
                    HasSubstr("rate_bps 0; expected 1..100000000000")));
}

TEST(ContractBreach, RateAboveLineRateAndNanAsConverted) {
  EXPECT_THAT(breach(Decision{Rate::bps(kLine.bps() + 1), std::nullopt, Time::never()}),
              HasSubstr("rate_bps 100000000001 is above the port's line rate 100000000000"));
  // x86-64 converts a NaN double to 2^63.
  EXPECT_THAT(breach(Decision{Rate::bps(uint64_t{1} << 63), std::nullopt, Time::never()}),
              HasSubstr("a NaN or infinity converted to an integer lands here or at 0"));
}

TEST(ContractBreach, DeadlineNotAfterNow) {
  EXPECT_THAT(breach(Decision{kLine, std::nullopt, kNow}),
              HasSubstr("next_deadline_ps 7000000 is not after now_ps 7000000; expected a later "
                        "time or RTB_CC_NEVER_PS"));
  EXPECT_NE(breach(Decision{kLine, std::nullopt, Time::zero()}), "");
}

TEST(ContractBreach, WindowZero) {
  EXPECT_THAT(breach(Decision{kLine, Bytes(0), Time::never()}),
              HasSubstr("window_bytes 0; expected at least 1 or RTB_CC_NO_WINDOW"));
}

}  // namespace
}  // namespace rtb::cc::testing
