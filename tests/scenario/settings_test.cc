// Switch settings through the switch's validate(), the effective configuration (sizes in
// bytes, times in ns), faults, and determinism of the whole load.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "scenario_test_util.h"

namespace rtb::scenario {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;
using testing::kSmall;
using testing::load_error;
using testing::load_ok;

std::string tuning_path() { return testing::source_root() + "/tests/scenario/tuning.toml"; }

TEST(ScenarioSettings, TuningGuideValidatesCleanlyAndEqualsTheDefaults) {
  const Expected<Scenario> s = load_scenario(tuning_path());
  ASSERT_TRUE(s.ok()) << s.error().message;
  EXPECT_TRUE(s->warnings.empty()) << s->warnings.front();
  const sw::SwitchConfig& c = s->topology.switches[0].config;
  const sw::SwitchConfig guide = sw::tuning_guide_config(9, Rate::gbps(100));
  EXPECT_EQ(c.pool.size, guide.pool.size);
  EXPECT_EQ(c.pool.xoff, guide.pool.xoff);
  EXPECT_EQ(c.pfc_enable, guide.pfc_enable);
  for (int i = 0; i < sw::kPriorities; ++i) {
    EXPECT_EQ(c.pg[i].mode, guide.pg[i].mode) << i;
    EXPECT_EQ(c.pg[i].static_th, guide.pg[i].static_th) << i;
    EXPECT_EQ(c.pg[i].xoff, guide.pg[i].xoff) << i;
    EXPECT_EQ(c.pg[i].dynamic_th, guide.pg[i].dynamic_th) << i;
    EXPECT_EQ(c.wred[i].has_value(), guide.wred[i].has_value()) << i;
  }
  EXPECT_EQ(c.wred[3]->green_min_threshold, Bytes::kb(150));
  EXPECT_TRUE(c.pfcwd.enabled);
  // Defaults alone give the same switch.
  const Scenario d = load_ok(kSmall);
  EXPECT_EQ(d.topology.switches[0].config.pool.size, c.pool.size);
  EXPECT_EQ(d.topology.switches[0].config.pg[3].static_th, c.pg[3].static_th);
  EXPECT_FALSE(d.topology.switches[0].config.pfcwd.enabled);
}

TEST(ScenarioSettings, EcnAboveXoffIsWarnedWithItsArithmetic) {
  const Scenario s = load_ok(std::string(kSmall) + "[switch.wred_profile]\ngreen_min_threshold = \"3MB\"\n"
                                                   "green_max_threshold = \"3.5MB\"\n");
  ASSERT_FALSE(s.warnings.empty());
  EXPECT_THAT(s.warnings.front(), HasSubstr("switch sw0: WRED_PROFILE queue3 green_min_threshold = 3000000 B"));
  EXPECT_THAT(s.warnings.front(), HasSubstr("PFC will fire before ECN can act"));
}

TEST(ScenarioSettings, InvertedXonIsRefused) {
  const std::string e = load_error(std::string(kSmall) + "[switch.pg_lossless]\nstatic_th = \"1KB\"\n"
                                                         "xon_offset = \"9216B\"\n");
  EXPECT_THAT(e, StartsWith("t.toml:7: switch.pg_lossless.xon_offset: sw0: BUFFER_PROFILE pg3 xon_offset = 9216 B "
                            "is not below the XOFF point"));
}

TEST(ScenarioSettings, SwitchKeysMapOntoTheConfig) {
  const Scenario s = load_ok(std::string(kSmall) + R"(
[switch]
pfc_enable = [3]
wred_queues = [3, 5]
mark_point = "enqueue"
ecmp_hash_seed = 9
[switch.pg_lossless]
dynamic_th = 1
[switch.egress_lossy]
static_th = "500KB"
[switch.scheduler]
type = "dwrr"
weight = 4
strict_queues = [6]
[switch.pfc]
pause_quanta = 1000
refresh_interval = "2us"
)");
  const sw::SwitchConfig& c = s.topology.switches[0].config;
  EXPECT_EQ(c.pfc_enable, 1u << 3);
  EXPECT_TRUE(c.wred[5].has_value());
  EXPECT_FALSE(c.wred[4].has_value());
  EXPECT_EQ(c.mark_point, sw::MarkPoint::kEnqueue);
  EXPECT_EQ(c.ecmp_hash_seed, 9u);
  EXPECT_EQ(c.pg[3].mode, sw::ThresholdMode::kDynamic);
  EXPECT_EQ(c.pg[3].dynamic_th, 1);
  EXPECT_EQ(c.pg[4].mode, sw::ThresholdMode::kDynamic);  // now lossy: the lossy profile
  EXPECT_EQ(c.pg[4].xoff, Bytes(0));
  EXPECT_EQ(c.egress[0].static_th, Bytes::kb(500));
  EXPECT_EQ(c.scheduler[6].type, sw::SchedulerConfig::Type::kStrict);
  EXPECT_EQ(c.scheduler[2].weight, 4u);
  EXPECT_EQ(c.pfc.pause_quanta, 1000);
  EXPECT_EQ(c.pfc.refresh_interval, Time::us(2));
}

TEST(ScenarioSettings, LossyPoolSizeParsesAndDefaultsToOneMegabyte) {
  EXPECT_EQ(load_ok(kSmall).topology.switches[0].config.pool.lossy_size, Bytes::mb(1));
  const Scenario s = load_ok(std::string(kSmall) + "[switch.buffer_pool]\nlossy_size = \"2MB\"\n");
  EXPECT_EQ(s.topology.switches[0].config.pool.lossy_size, Bytes::mb(2));
  EXPECT_EQ(s.effective["topology"]["switches"][0]["buffer_pool"]["lossy_size_bytes"], 2'000'000);
  const Scenario one = load_ok(kSmall, {"switch.buffer_pool.lossy_size=0B"});
  EXPECT_EQ(one.topology.switches[0].config.pool.lossy_size, Bytes(0));
}

TEST(ScenarioSettings, LossyPoolBelowOneFrameIsRefusedByValidate) {
  const std::string e = load_error(std::string(kSmall) + "[switch.buffer_pool]\nlossy_size = \"4KB\"\n");
  EXPECT_THAT(e, HasSubstr("BUFFER_POOL lossy_size = 4000 B"));
  EXPECT_THAT(e, HasSubstr("below one largest frame"));
}

TEST(ScenarioSettings, MbufCountsAreSizedUnlessGivenAndEchoedWhenGiven) {
  const Scenario sized = load_ok(kSmall);
  EXPECT_FALSE(sized.run.data_mbufs);
  EXPECT_FALSE(sized.run.control_mbufs);
  EXPECT_FALSE(sized.effective["run"].contains("data_mbufs"));
  const Scenario given = load_ok(kSmall, {"run.data_mbufs=5000", "run.control_mbufs=300"});
  EXPECT_EQ(given.run.data_mbufs, 5'000u);
  EXPECT_EQ(given.run.control_mbufs, 300u);
  EXPECT_EQ(given.effective["run"]["data_mbufs"], 5'000);
  EXPECT_EQ(given.effective["run"]["control_mbufs"], 300);
  EXPECT_THAT(load_error(kSmall, {"run.control_mbufs=0"}), HasSubstr("expected 1..4294967295"));
}

TEST(ScenarioSettings, EffectiveEchoesBytesAndNanoseconds) {
  const Expected<Scenario> s = load_scenario(tuning_path());
  ASSERT_TRUE(s.ok()) << s.error().message;
  const nlohmann::json& j = s->effective;
  EXPECT_EQ(j["name"], "tuning");
  EXPECT_EQ(j["run"]["duration_ns"], 5'000'000);
  EXPECT_EQ(j["run"]["warmup_ns"], 1'000'000);
  const nlohmann::json& sw0 = j["topology"]["switches"][0];
  EXPECT_EQ(sw0["buffer_pool"]["size_bytes"], 4'000'000);
  EXPECT_EQ(sw0["buffer_pool"]["xoff_bytes"], 1'600'000);
  EXPECT_EQ(sw0["buffer_pool"]["lossy_size_bytes"], 1'000'000);
  EXPECT_EQ(sw0["pg"][3]["static_th_bytes"], 2'400'000);
  EXPECT_EQ(sw0["wred"][3]["green_max_threshold_bytes"], 1'200'000);
  EXPECT_EQ(sw0["ports"][0]["propagation_ns"], 10);
  EXPECT_EQ(sw0["ports"][0]["rate_bps"], 100'000'000'000ULL);
  EXPECT_EQ(sw0["routes"][8]["prefix"], "192.168.1.9/32");
  EXPECT_EQ(sw0["pfcwd"]["detection_time_ns"], 200'000'000);
  EXPECT_EQ(j["topology"]["hosts"][0]["mac"], "02:72:74:00:00:00");
  EXPECT_EQ(j["flows"].size(), 8u);
  EXPECT_EQ(j["flows"][0]["bytes"], "long-lived");
  EXPECT_EQ(j["faults"]["link_downs"][0]["to_ns"], 1'500'000);
  EXPECT_TRUE(j["faults"]["pfc_storms"][0]["interval_ns"].is_number());
  // A time that is not a whole nanosecond keeps its picoseconds.
  const Scenario frac = load_ok(std::string(kSmall) + "[run]\nsample_interval = \"1500ps\"\n");
  EXPECT_DOUBLE_EQ(frac.effective["run"]["sample_interval_ns"].get<double>(), 1.5);
  // Deterministic: the same file twice gives the same JSON text.
  EXPECT_EQ(j.dump(), load_scenario(tuning_path())->effective.dump());
}

TEST(ScenarioSettings, Faults) {
  const Expected<Scenario> s = load_scenario(tuning_path());
  ASSERT_TRUE(s.ok()) << s.error().message;
  const Faults& f = s->faults;
  ASSERT_EQ(f.pfc_storms.size(), 1u);
  EXPECT_EQ(f.pfc_storms[0].host, 0u);
  EXPECT_EQ(f.pfc_storms[0].end, Time::ms(3));
  // Half the pause time of 65535 quanta at 100 Gb/s: 65535 x 512 bit / 100 Gb/s / 2.
  EXPECT_EQ(f.pfc_storms[0].interval, Time::ps(167'769'600));
  ASSERT_EQ(f.link_downs.size(), 1u);
  EXPECT_EQ(f.link_downs[0].link, 1u);
  EXPECT_EQ(f.link_downs[0].from, Time::ms(1));
  ASSERT_EQ(f.drops.size(), 1u);
  EXPECT_EQ(f.drops[0].link, 2u);
  EXPECT_DOUBLE_EQ(f.drops[0].probability, 0.001);
  EXPECT_THAT(load_error(std::string(kSmall) + "[[faults]]\nkind = \"link_down\"\nlink = [\"h0\", \"sw0\"]\n"
                                               "from = \"2ms\"\nto = \"1ms\"\n"),
              HasSubstr("t.toml:9: faults[0].to: '1ms' is not after faults[0].from"));
}

TEST(ScenarioSettings, CcParamsPassThrough) {
  const Scenario s = load_ok(std::string(kSmall) + "[cc]\nalgorithm = \"dcqcn\"\n[cc.params]\nrp_ai_rate = 10\n");
  EXPECT_EQ(std::get<int64_t>(s.cc.params.at("rp_ai_rate")), 10);
  EXPECT_EQ(s.effective["cc"]["params"]["rp_ai_rate"], 10);
}

}  // namespace
}  // namespace rtb::scenario
