// The plan written as scenario keys loads in `rocetb run`'s loader and runs, lossless.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>
#include <string>

#include "cc_algos/registry.h"
#include "plan/fabric.h"
#include "plan/planner.h"
#include "plan/scenario_keys.h"
#include "scenario/load.h"
#include "results/summary_json.h"
#include "testbed/run.h"

namespace rtb::plan {
namespace {

std::string source_root() {
  const char* r = std::getenv("ROCETB_SOURCE_ROOT");
  return r != nullptr ? r : ".";
}

std::string read(const std::string& path) {
  std::ifstream f(path);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

std::string temp_file(const std::string& name) {
  return (std::filesystem::temp_directory_path() / (std::to_string(::getpid()) + "-" + name)).string();
}

// From default.toml: its switch planned, the keys written into a copy of it, which
// loads with exactly the planned thresholds and keeps everything else.
TEST(ScenarioKeys, PlanOfDefaultScenarioLoadsWithThePlannedThresholds) {
  const std::string path = source_root() + "/scenarios/default.toml";
  auto s = scenario::load_scenario(path);
  ASSERT_TRUE(s.ok()) << s.error().message;
  auto p = make_plan(s->topology.switches.front().config);
  ASSERT_TRUE(p.ok()) << p.error().message;
  const std::string out = temp_file("planned.toml");
  const Status st = write_scenario(out, read(path), "# test", threshold_keys(p->config));
  ASSERT_TRUE(st.ok()) << st.message();
  auto w = scenario::load_scenario(out);
  ASSERT_TRUE(w.ok()) << w.error().message;
  const sw::SwitchConfig& c = w->topology.switches.front().config;
  // 9 ports at 100G, 2 m: need 44032 B; pool 18 x 44032 = 792576 B; shared 15625 - 3096
  // = 12529 cells; static_th floor(12529 / 18) = 696 cells = 178176 B.
  EXPECT_EQ(c.pool.xoff, Bytes(792'576));
  EXPECT_EQ(c.pg[3].static_th, Bytes(178'176));
  EXPECT_EQ(c.pg[3].xoff, Bytes(44'032));
  EXPECT_EQ(c.wred[3]->green_max_threshold, p->ecn.kmax);
  EXPECT_EQ(w->flows.size(), s->flows.size());
  EXPECT_EQ(w->run.duration, s->run.duration);
  std::filesystem::remove(out);
}

// From options: a whole scenario (a host per port, an (N-1):1 incast) that runs, without
// a drop, on the planned thresholds.
TEST(ScenarioKeys, ScenarioFromOptionsRunsLossless) {
  Fabric f;
  f.ports = 5;
  f.buffer = Bytes::mb(4);
  auto p = make_plan(switch_config(f));
  ASSERT_TRUE(p.ok()) << p.error().message;
  const std::string out = temp_file("fabric.toml");
  const Status st = write_scenario(out, fabric_scenario(f), "# test", threshold_keys(p->config));
  ASSERT_TRUE(st.ok()) << st.message();
  auto s = scenario::load_scenario(out, {"run.duration=\"1ms\""});
  ASSERT_TRUE(s.ok()) << s.error().message;
  EXPECT_EQ(s->topology.hosts.size(), 5u);
  EXPECT_EQ(s->flows.size(), 4u);
  cc::Registry registry = cc::Registry::with_builtins();
  auto r = testbed::run_virtual(s.value(), registry, "plan_test");
  ASSERT_TRUE(r.ok()) << r.error().message;
  const nlohmann::ordered_json j = results::to_json(r->summary);
  EXPECT_EQ(j["totals"]["drops"].get<uint64_t>(), 0u) << j.dump(1);
  EXPECT_GT(j["totals"]["pfc_frames"].get<uint64_t>() + j["totals"]["cnp_sent"].get<uint64_t>(), 0u) << j.dump(1);
  std::filesystem::remove(out);
}

}  // namespace
}  // namespace rtb::plan
