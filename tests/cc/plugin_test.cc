// Plug-ins loaded exactly as a user's would be: by path, through the registry, and each
// refusal case with its message.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

#include "cc_algos/builtins.h"
#include "cc_algos/plugin_loader.h"
#include "test_util.h"

namespace rtb::cc::testing {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;

TEST(Plugin, ExampleLoadsByPathAndRuns) {
  Registry r = Registry::with_builtins();
  auto a = r.resolve(RTB_TEST_EXAMPLE_PLUGIN);
  ASSERT_TRUE(a.ok()) << a.error().message;
  EXPECT_EQ(a->name(), "aimd");
  EXPECT_THAT(std::string(a->origin()), HasSubstr("rtb_cc_aimd.so"));
  EXPECT_TRUE(a->needs(Feedback::kCnp));
  EXPECT_TRUE(r.find("aimd").ok());  // now registered by name too
  auto c = configure(*a, {{"decrease_percent", int64_t{25}}, {"increase_mbps", int64_t{1000}},
                          {"increase_period_us", int64_t{10}}, {"hold_time_us", int64_t{20}}});
  ASSERT_TRUE(c.ok()) << c.error().message;
  auto t = std::move(FlowTable::create(*a, 1)).value();
  void* s = t.state(0);
  EXPECT_EQ(c->start(s, FlowStart{Rate::gbps(100)}, Time::zero()).rate, Rate::gbps(100));
  Decision d = c->on_cnp(s, Time::us(1));
  EXPECT_EQ(d.rate, Rate::gbps(75));  // cut by 25%
  EXPECT_EQ(d.next_deadline, Time::us(11));
  EXPECT_EQ(c->on_cnp(s, Time::us(5)).rate, Rate::gbps(75));  // within the hold time
  EXPECT_EQ(c->on_timer(s, Time::us(11)).rate, Rate::gbps(76));
  // At 21 us the increase due then runs first (77G), then the hold time is over: -25%.
  EXPECT_EQ(c->on_cnp(s, Time::us(21)).rate, Rate::mbps(57750));
}

// The C example: RTT samples drive it, through the same ABI, with a hand-driven clock.
TEST(Plugin, CExampleIsDrivenByRttSamples) {
  Registry r = Registry::with_builtins();
  auto a = r.resolve(RTB_TEST_RTT_AIMD_PLUGIN);
  ASSERT_TRUE(a.ok()) << a.error().message;
  EXPECT_EQ(a->name(), "rtt_aimd");
  EXPECT_TRUE(a->needs(Feedback::kRtt));
  EXPECT_FALSE(a->needs(Feedback::kCnp));
  auto c = configure(*a, {{"target_us", int64_t{10}}, {"increase_mbps", int64_t{500}},
                          {"beta_percent", int64_t{50}}});
  ASSERT_TRUE(c.ok()) << c.error().message;
  auto t = std::move(FlowTable::create(*a, 1)).value();
  void* s = t.state(0);
  // Base RTT 10 us: target 20 us.
  EXPECT_EQ(c->start(s, FlowStart{Rate::gbps(100), Time::us(10), 0}, Time::zero()).rate,
            Rate::gbps(100));
  const auto ack = [](Time rtt) { return AckEvent{Bytes(1024), rtt, false, false, {}}; };
  // 40 us: rate *= 1 - 0.5 x (1 - 20/40) = 0.75.
  EXPECT_EQ(c->on_ack(s, ack(Time::us(40)), Time::us(50)).rate, Rate::gbps(75));
  EXPECT_EQ(c->on_ack(s, ack(Time::us(40)), Time::us(60)).rate, Rate::gbps(75));  // < target later
  EXPECT_EQ(c->on_ack(s, ack(Time::us(15)), Time::us(61)).rate, Rate::mbps(75'500));
  EXPECT_EQ(c->on_ack(s, ack(Time::zero()), Time::us(62)).rate, Rate::mbps(75'500));  // no sample
  EXPECT_EQ(c->on_ack(s, ack(Time::us(80)), Time::us(70)).rate, Rate::bps(47'187'500'000));  // x 5/8
  auto bad = configure(*a, {{"beta_percent", int64_t{0}}, {"gain", int64_t{1}}});
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(bad.error().message,
              AllOf(HasSubstr("rtt_aimd: beta_percent is invalid: expected a whole number in 1..100"),
                    HasSubstr("rtt_aimd: unknown parameter 'gain'")));
}

TEST(Plugin, ExampleChecksItsOwnParams) {
  auto a = load_plugin(RTB_TEST_EXAMPLE_PLUGIN);
  ASSERT_TRUE(a.ok());
  auto c = configure(*a, {{"decrease_percent", int64_t{100}}, {"beta", 0.5}});
  ASSERT_FALSE(c.ok());
  EXPECT_THAT(c.error().message, AllOf(HasSubstr("aimd: decrease_percent is invalid: expected a whole number in 1..99"),
                                       HasSubstr("aimd: unknown parameter 'beta'")));
}

TEST(Plugin, RefusesMissingSymbol) {
  auto a = load_plugin(RTB_TEST_BAD_MISSING_SYMBOL);
  ASSERT_FALSE(a.ok());
  EXPECT_THAT(a.error().message, AllOf(HasSubstr("does not export 'rtb_cc_plugin_ops'"),
                                       HasSubstr("rtb_cc_bad_missing_symbol.so")));
}

TEST(Plugin, RefusesASymbolThatIsNotAFunction) {
  auto a = load_plugin(RTB_TEST_BAD_DATA_SYMBOL);
  ASSERT_FALSE(a.ok());
  EXPECT_THAT(a.error().message, AllOf(HasSubstr("rtb_cc_bad_data_symbol.so"),
                                       HasSubstr("exports 'rtb_cc_plugin_ops' as data (an object), not a function")));
}

TEST(Plugin, RefusesWrongAbiVersion) {
  auto a = load_plugin(RTB_TEST_BAD_WRONG_ABI);
  ASSERT_FALSE(a.ok());
  EXPECT_THAT(a.error().message,
              HasSubstr("is built for rocetb CC ABI version " + std::to_string(RTB_CC_ABI_VERSION + 1) +
                        ", but this rocetb uses version " + std::to_string(RTB_CC_ABI_VERSION) +
                        ": rebuild it"));
}

TEST(Plugin, RefusesUnreasonableStateSizes) {
  auto huge = load_plugin(RTB_TEST_BAD_HUGE_STATE);
  ASSERT_FALSE(huge.ok());
  EXPECT_THAT(huge.error().message, HasSubstr("per-flow state of 1048576 bytes; expected 1..4096 bytes"));
  auto zero = load_plugin(RTB_TEST_BAD_ZERO_STATE);
  ASSERT_FALSE(zero.ok());
  EXPECT_THAT(zero.error().message, HasSubstr("per-flow state of 0 bytes"));
}

TEST(Plugin, RefusesMissingRequiredHook) {
  auto a = load_plugin(RTB_TEST_BAD_NO_CNP_HOOK);
  ASSERT_FALSE(a.ok());
  EXPECT_THAT(a.error().message, HasSubstr("hook on_cnp is NULL but the algorithm asks for CNP feedback"));
}

// INT hops arrive only through on_ack: asking for INT without that hook is refused.
TEST(Plugin, RefusesIntFeedbackWithoutAnAckHook) {
  auto a = load_plugin(RTB_TEST_BAD_INT_NO_ACK_HOOK);
  ASSERT_FALSE(a.ok());
  EXPECT_THAT(a.error().message,
              AllOf(HasSubstr("rtb_cc_bad_int_no_ack_hook.so"),
                    HasSubstr("hook on_ack is NULL but the algorithm asks for ACK, RTT or INT feedback")));
}

TEST(Plugin, RefusesUnknownFeedbackBits) {
  auto a = load_plugin(RTB_TEST_BAD_UNKNOWN_FEEDBACK);
  ASSERT_FALSE(a.ok());
  EXPECT_THAT(a.error().message, HasSubstr("unknown feedback bits 0x80"));
}

TEST(Plugin, RefusesFilesThatAreNotSharedObjects) {
  const std::string path = ::testing::TempDir() + "not_a_plugin.so";
  std::ofstream(path) << "hello";
  auto a = Registry::with_builtins().resolve(path);
  ASSERT_FALSE(a.ok());
  EXPECT_THAT(a.error().message, HasSubstr("cannot load congestion-control plug-in '" + path + "'"));
  std::remove(path.c_str());
}

TEST(Plugin, SamePathTwiceIsLoadedOnce) {
  Registry r = Registry::with_builtins();
  ASSERT_TRUE(r.resolve(RTB_TEST_EXAMPLE_PLUGIN).ok());
  auto again = r.resolve(RTB_TEST_EXAMPLE_PLUGIN);
  ASSERT_TRUE(again.ok()) << again.error().message;
  EXPECT_EQ(again->name(), "aimd");
  EXPECT_EQ(r.names().size(), builtin_ops().size() + 1);
}

TEST(Plugin, NameClashWithABuiltinIsRefused) {
  Registry r = Registry::with_builtins();
  auto clash = r.resolve(RTB_TEST_BAD_BUILTIN_NAME);
  ASSERT_FALSE(clash.ok());
  EXPECT_THAT(clash.error().message,
              AllOf(HasSubstr("'dcqcn' (plug-in "), HasSubstr("clashes with the already registered 'dcqcn' (built-in)")));
}

}  // namespace
}  // namespace rtb::cc::testing
