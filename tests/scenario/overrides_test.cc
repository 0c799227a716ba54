// --set KEY=VALUE: applied before validation, may create keys, errors say "--set <key>".
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "scenario_test_util.h"

namespace rtb::scenario {
namespace {

using ::testing::StartsWith;
using testing::kSmall;
using testing::load_error;
using testing::load_ok;

TEST(ScenarioOverrides, ReplaceAValueTheFileHas) {
  const Scenario s = load_ok(kSmall, {"topology.hosts=6"});
  EXPECT_EQ(s.topology.hosts.size(), 6u);
}

TEST(ScenarioOverrides, CreateKeysTheFileOmits) {
  const Scenario s = load_ok(kSmall, {"switch.buffer_pool.size=8MB", "run.seed=42", "switch.pfc_enable=[3]",
                                      "cc.algorithm=fixed_rate"});
  EXPECT_EQ(s.topology.switches[0].config.pool.size, Bytes::mb(8));
  EXPECT_EQ(s.run.seed, 42u);
  EXPECT_EQ(s.topology.switches[0].config.pfc_enable, 1u << 3);
  EXPECT_EQ(s.cc.algorithm, "fixed_rate");
}

TEST(ScenarioOverrides, ArrayElementsByIndex) {
  const std::string text = std::string(kSmall) + "[[traffic]]\npattern = \"incast\"\nreceiver = \"h0\"\nsenders = 2\n";
  const Scenario s = load_ok(text, {"traffic[0].senders=3", "traffic[0].bytes=1MB"});
  ASSERT_EQ(s.flows.size(), 3u);
  EXPECT_EQ(s.flows[0].size, Bytes::mb(1));
  // Index == length appends a table.
  const Scenario more = load_ok(text, {"traffic[1].pattern=permutation"});
  EXPECT_EQ(more.flows.size(), 2u + 4u);
}

TEST(ScenarioOverrides, BadValueIsReportedAsSet) {
  EXPECT_EQ(load_error(kSmall, {"switch.buffer_pool.size=4XB"}),
            "--set switch.buffer_pool.size: unknown unit 'XB' in '4XB': expected a size in one of B, KB, MB, GB, "
            "KiB, MiB, GiB");
  EXPECT_EQ(load_error(kSmall, {"topology.hosts=1"}),
            "--set topology.hosts: 1 is out of range: expected 2..1024");
}

// TOML and the results' JSON hold UTF-8 only: a value in another encoding is refused with
// its bytes escaped, not taken as a string with its quotes.
TEST(ScenarioOverrides, AValueThatIsNotUtf8IsRefused) {
  EXPECT_EQ(load_error(kSmall, {"name=\"ab\xff\""}),
            "--set name=\"ab\\xFF\": byte 9 is not UTF-8 text: expected UTF-8 (TOML allows nothing else)");
  EXPECT_EQ(testing::load_ok(kSmall, {"name=\"caf\xc3\xa9\""}).name, "caf\xc3\xa9");
}

TEST(ScenarioOverrides, UnknownKeyIsAnError) {
  EXPECT_EQ(load_error(kSmall, {"switch.bufer_pool.size=4MB"}),
            "--set switch.bufer_pool.size: unknown key 'switch.bufer_pool' (did you mean 'switch.buffer_pool'?)");
  EXPECT_EQ(load_error(kSmall, {"run.sed=4"}), "--set run.sed: unknown key 'run.sed' (did you mean 'run.seed'?)");
}

TEST(ScenarioOverrides, MalformedOverrides) {
  EXPECT_EQ(load_error(kSmall, {"run.seed"}), "--set run.seed: expected KEY=VALUE, such as run.seed=7");
  EXPECT_THAT(load_error(kSmall, {"traffic[3].pattern=incast"}), StartsWith("--set traffic[3].pattern: there is no array"));
  EXPECT_THAT(load_error(kSmall, {"topology.hosts.x=1"}),
              StartsWith("--set topology.hosts.x: 'x' is inside a value that is not a table"));
}

TEST(ScenarioOverrides, SeedOverrideWins) {
  const Expected<Scenario> s = load_scenario_text(std::string(kSmall) + "[run]\nseed = 5\n", "t.toml", {}, 99);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->run.seed, 99u);
  EXPECT_EQ(s->effective["run"]["seed"], 99u);
}

}  // namespace
}  // namespace rtb::scenario
